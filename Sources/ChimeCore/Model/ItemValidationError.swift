/// Why an item, alarm or calendar cannot be saved. Each case names the offending value.
public enum ItemValidationError: Error, Hashable, Sendable, CustomStringConvertible {
    case missingTitle
    case missingCalendar
    case unknownCalendar(String)
    case wrongCalendarType(calendar: String, expected: EntityType)
    case readOnlyCalendar(String)
    case endBeforeStart(start: String, end: String)
    case mixedAllDay
    case latitudeOutOfRange(Double)
    case longitudeOutOfRange(Double)
    case negativeRadius(Double)
    case radiusTooLarge(Double)
    case priorityOutOfRange(Int)
    case recurrenceWithoutDate
    case notAnOccurrence(String)
    case recurrenceChangeNeedsFutureSpan
    /// A date (or the instant it names) before year 0 or after 9999-12-31: iCalendar and the store cannot write it.
    case outsideWritableYears(field: String, value: String)
    /// A relative alarm further than ``Alarm/maximumOffset`` from its item.
    case alarmOffsetTooLarge(Int64)

    public var description: String {
        switch self {
        case .missingTitle: return "a title is required"
        case .missingCalendar: return "a calendar is required"
        case .unknownCalendar(let id): return "no calendar \"\(id)\""
        case .wrongCalendarType(let cal, let expected): return "calendar \"\(cal)\" does not hold \(expected.plural)"
        case .readOnlyCalendar(let cal): return "calendar \"\(cal)\" does not allow modifications"
        case .endBeforeStart(let s, let e): return "end \(e) is before start \(s)"
        case .mixedAllDay: return "start and end must both be dates (all-day) or both be date-times"
        case .latitudeOutOfRange(let v): return "latitude \(v) is outside -90…90"
        case .longitudeOutOfRange(let v): return "longitude \(v) is outside -180…180"
        case .negativeRadius(let v): return "radius \(v) m is negative (0 means the default radius)"
        case .radiusTooLarge(let v): return "radius \(v) m is larger than \(Int(StructuredLocation.maximumRadius)) m"
        case .priorityOutOfRange(let p): return "priority \(p) is outside 0…9 (0 none, 1 highest, 9 lowest)"
        case .recurrenceWithoutDate: return "a repeating reminder needs a due or start date"
        case .notAnOccurrence(let d): return "the series has no occurrence at \(d)"
        case .recurrenceChangeNeedsFutureSpan: return "changing the recurrence of one occurrence needs span .futureEvents"
        case .outsideWritableYears(let field, let value):
            return "\(field) \(value) is outside 0000-01-01…9999-12-31, the years a calendar can hold"
        case .alarmOffsetTooLarge(let seconds):
            return "alarm offset \(seconds) s is more than \(Alarm.maximumOffset / 86_400) days from the item"
        }
    }
}
