/// Writes the references every part of Chime prints for an item or one occurrence of it: `ID`,
/// `ID@20261203T090000Z` (an occurrence of a timed series, by the UTC start it was scheduled at)
/// or `ID@20261126` (an all-day occurrence, by its date).
///
/// It lives in the core so the daemon's output and log give the same string as
/// `chime agenda` and `chime alarms`; the command line's `ItemReference` reads it back.
///
/// ```swift
/// ReferenceText.text(identifier: "6F1C…", occurrence: start, allDay: false, zone: zone)   // "6F1C…@20261203T080000Z"
/// ```
public enum ReferenceText {
    /// `ID`, or `ID@occurrence` when `occurrence` is given.
    public static func text(identifier: String, occurrence: Instant?, allDay: Bool, zone: ZoneRules) -> String {
        guard let occurrence else { return identifier }
        return identifier + "@" + occurrenceText(occurrence, allDay: allDay, zone: zone)
    }

    /// The part after `@`: the UTC start, or the date on `zone`'s clock for an all-day occurrence
    /// (stored at that day's midnight in the floating zone, so the date is the same under any `$TZ`).
    public static func occurrenceText(_ o: Instant, allDay: Bool, zone: ZoneRules) -> String {
        allDay ? zone.localTime(at: o).date.basicFormat : o.utcBasicFormat
    }

    /// The reference of the item (or occurrence, for events of a series) an alarm firing belongs to.
    /// A reminder, a single event, or an absolute alarm's firing names the item alone.
    public static func text(_ firing: AlarmFiring, zone: ZoneRules) -> String {
        guard firing.item.kind == .event, firing.item.isRecurring, let o = firing.item.scheduledOccurrence ?? firing.occurrenceStart,
            firing.key.alarm.hasPrefix("@") == false
        else { return firing.item.identifier }
        return text(identifier: firing.item.identifier, occurrence: o, allDay: firing.item.isAllDay, zone: zone)
    }
}
