/// A calendar date in the proleptic Gregorian calendar, with no time and no zone.
///
/// All-day items are `CivilDate`s, never midnights in some zone. Arithmetic is integer-only
/// (Howard Hinnant's days-from-civil algorithms), so it is cheap enough for expansion loops.
///
/// ```swift
/// let d = CivilDate(year: 2026, month: 3, day: 8)
/// d.weekday            // .sunday
/// d.adding(days: 1)    // 2026-03-09
/// ```
public struct CivilDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var year: Int
    public var month: Int
    public var day: Int

    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Whether the fields name a real day (no February 30th).
    public var isValid: Bool {
        month >= 1 && month <= 12 && day >= 1 && day <= CivilDate.daysInMonth(year: year, month: month)
    }

    /// Days since 1970-01-01 (negative before).
    public var daysSinceEpoch: Int { CivilDate.days(year: year, month: month, day: day) }

    public init(daysSinceEpoch z: Int) {
        let z = z + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        self.init(year: yoe + era * 400 + (m <= 2 ? 1 : 0), month: m, day: d)
    }

    public var weekday: Weekday { Weekday(daysSinceEpoch: daysSinceEpoch) }

    /// 1 for January 1st.
    public var dayOfYear: Int {
        daysSinceEpoch - CivilDate.days(year: year, month: 1, day: 1) + 1
    }

    public func adding(days: Int) -> CivilDate { CivilDate(daysSinceEpoch: daysSinceEpoch + days) }

    public static func < (a: CivilDate, b: CivilDate) -> Bool {
        (a.year, a.month, a.day) < (b.year, b.month, b.day)
    }

    /// `YYYY-MM-DD`.
    public var description: String {
        civilText(self, time: nil, separated: true) ?? "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }

    /// RFC 5545 DATE form, `YYYYMMDD`.
    public var basicFormat: String {
        civilText(self, time: nil, separated: false) ?? "\(pad(year, 4))\(pad(month, 2))\(pad(day, 2))"
    }

    // MARK: - Static helpers

    public static func isLeapYear(_ y: Int) -> Bool { (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 }

    public static func daysInYear(_ y: Int) -> Int { isLeapYear(y) ? 366 : 365 }

    public static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 for any (year, month, day); day may overflow the month.
    @inline(__always)
    public static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = month > 2 ? month - 3 : month + 9
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }
}

/// Zero-padded decimal, without Foundation's formatter cost: the digits are written once into the
/// result (no intermediate Strings).
@inline(__always)
func pad(_ value: Int, _ width: Int) -> String {
    var v = value.magnitude
    var digits = 1
    var rest = v
    while rest >= 10 { rest /= 10; digits += 1 }
    let sign = value < 0 ? 1 : 0
    let count = max(digits, width) + sign
    return String(unsafeUninitializedCapacity: count) { b in
        if sign == 1 { b[0] = UInt8(ascii: "-") }
        var i = count - 1
        while i >= sign { b[i] = UInt8(truncatingIfNeeded: 48 &+ v % 10); v /= 10; i -= 1 }
        return count
    }
}

/// `YYYY-MM-DD[THH:MM:SS]` (separated) or `YYYYMMDD[THHMMSS]` written straight into one String,
/// followed by `marker` and `tail` (a stored date's `Z` or `;ZONE`, without another string made
/// for them); nil for years outside 0…9999, which the callers format the slow way.
func civilText(
    _ d: CivilDate, time: (hour: Int, minute: Int, second: Int)?, separated: Bool, marker: UInt8? = nil, tail: String = ""
) -> String? {
    guard (0...9999).contains(d.year), (1...12).contains(d.month), (0...99).contains(d.day) else { return nil }
    if let time, !((0...99).contains(time.hour) && (0...99).contains(time.minute) && (0...99).contains(time.second)) {
        return nil
    }
    var tail = tail
    return tail.withUTF8 { tailBytes in
        civilText(d, time: time, separated: separated, marker: marker, tail: tailBytes)
    }
}

private func civilText(
    _ d: CivilDate, time: (hour: Int, minute: Int, second: Int)?, separated: Bool, marker: UInt8?, tail: UnsafeBufferPointer<UInt8>
) -> String {
    let count = (separated ? 10 : 8) + (time == nil ? 0 : (separated ? 9 : 7)) + (marker == nil ? 0 : 1) + tail.count
    return String(unsafeUninitializedCapacity: count) { b in
        var i = 0
        func two(_ v: Int) { b[i] = UInt8(48 + v / 10); b[i + 1] = UInt8(48 + v % 10); i += 2 }
        two(d.year / 100); two(d.year % 100)
        if separated { b[i] = UInt8(ascii: "-"); i += 1 }
        two(d.month)
        if separated { b[i] = UInt8(ascii: "-"); i += 1 }
        two(d.day)
        if let time {
            b[i] = UInt8(ascii: "T"); i += 1
            two(time.hour)
            if separated { b[i] = UInt8(ascii: ":"); i += 1 }
            two(time.minute)
            if separated { b[i] = UInt8(ascii: ":"); i += 1 }
            two(time.second)
        }
        if let marker {
            b[i] = marker
            i += 1
        }
        for byte in tail {
            b[i] = byte
            i += 1
        }
        return i
    }
}
