/// Names one firing of one alarm: which item, which occurrence, which alarm.
///
/// The alarm ledger stores one row per key, so a key must stay the same for the same firing
/// and change when the firing really changes: the occurrence is the occurrence's start instant
/// (for reminders the due instant; for absolute alarms the alarm's own date), and the alarm is
/// named by its trigger, not by its position in the item's list. Moving an event or changing
/// an alarm's offset therefore makes a new key that fires again; re-reading the same item does not.
///
/// ```swift
/// let key = FiringKey(item: "6F1C…", occurrence: Instant(secondsSince1970: 1_796_112_000), alarm: "-900")
/// key.description   // "6F1C…@20261201T090000Z#-900"
/// ```
public struct FiringKey: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The item's identifier (a recurring event's series identifier, also for detached occurrences).
    public var item: String
    public var occurrence: Instant
    /// The trigger in a compact text form: `-900` (relative to start/due), `-900/end`, `@1796112000` (absolute).
    public var alarm: String

    public init(item: String, occurrence: Instant, alarm: String) {
        self.item = item
        self.occurrence = occurrence
        self.alarm = alarm
    }

    public static func < (a: FiringKey, b: FiringKey) -> Bool {
        (a.item, a.occurrence, a.alarm) < (b.item, b.occurrence, b.alarm)
    }

    public var description: String { "\(item)@\(occurrence.utcBasicFormat)#\(alarm)" }

    /// Reads ``description`` back (`ITEM@YYYYMMDDTHHMMSSZ#ALARM`), as the D-Bus service's
    /// `AlarmFired` gives keys out and takes them in `Snooze` and `Dismiss`; nil for anything else.
    public init?(parsing text: String) {
        guard let hash = text.lastIndex(of: "#"), let at = text[..<hash].lastIndex(of: "@") else { return nil }
        let item = String(text[..<at]), when = Array(text[text.index(after: at)..<hash].utf8)
        let alarm = String(text[text.index(after: hash)...])
        guard !item.isEmpty, !alarm.isEmpty, when.count == 16, when[8] == UInt8(ascii: "T"), when[15] == UInt8(ascii: "Z") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var n = 0
            for byte in when[range] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                n = n * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return n
        }
        guard let year = number(0..<4), let month = number(4..<6), let day = number(6..<8), let hour = number(9..<11),
            let minute = number(11..<13), let second = number(13..<15), (1...12).contains(month),
            (1...CivilDate.daysInMonth(year: year, month: month)).contains(day), hour < 24, minute < 60, second < 60
        else { return nil }
        self.init(
            item: item, occurrence: Instant(utc: LocalDateTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second)),
            alarm: alarm)
    }
}

extension Alarm.Trigger {
    /// The trigger as a ledger key part; nil for location alarms, which are armed, not timed.
    public var keyText: String? {
        switch self {
        case .absolute(let date): return "@\(date.secondsSince1970)"
        case .relative(let offset, .start): return "\(offset)"
        case .relative(let offset, .end): return "\(offset)/end"
        case .location: return nil
        }
    }
}
