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
