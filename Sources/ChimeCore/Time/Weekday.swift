/// A day of the week. Raw values follow EventKit (`EKWeekday`): Sunday is 1, Saturday is 7.
///
/// ```swift
/// Weekday(rfc5545: "MO")   // .monday
/// Weekday.friday.rfc5545   // "FR"
/// ```
public enum Weekday: Int, CaseIterable, Sendable, Hashable {
    case sunday = 1, monday, tuesday, wednesday, thursday, friday, saturday

    /// 0 for Monday … 6 for Sunday (ISO 8601 order), used by the expansion masks.
    @inline(__always) public var isoIndex: Int { (rawValue + 5) % 7 }

    @inline(__always) public init(isoIndex: Int) {
        self = Weekday(rawValue: (isoIndex + 1) % 7 + 1)!
    }

    /// 1970-01-01 was a Thursday.
    @inline(__always) init(daysSinceEpoch: Int) {
        let m = (daysSinceEpoch % 7 + 7) % 7  // 0 = Thursday
        self.init(isoIndex: (m + 3) % 7)
    }

    /// The two-letter RFC 5545 code (`MO` … `SU`).
    public var rfc5545: String {
        ["SU", "MO", "TU", "WE", "TH", "FR", "SA"][rawValue - 1]
    }

    /// `Monday` … `Sunday`: the one table of weekday names (three-letter forms are its prefixes).
    public var name: String {
        ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"][rawValue - 1]
    }

    /// The weekday a typed word names: `fri`, `Friday`, `thurs` (three letters at least).
    public init?(word: some StringProtocol) {
        let lower = word.lowercased()
        guard lower.count >= 3, let day = Weekday.allCases.first(where: { $0.name.lowercased().hasPrefix(lower) }) else { return nil }
        self = day
    }

    public init?(rfc5545 code: some StringProtocol) {
        switch code.uppercased() {
        case "SU": self = .sunday
        case "MO": self = .monday
        case "TU": self = .tuesday
        case "WE": self = .wednesday
        case "TH": self = .thursday
        case "FR": self = .friday
        case "SA": self = .saturday
        default: return nil
        }
    }
}
