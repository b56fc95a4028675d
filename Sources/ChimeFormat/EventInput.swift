import ChimeCore

/// An event as people describe it: `chime add event`'s options and the D-Bus service's `AddEvent`
/// fields, dates as people type them, the end read as ``EventEnd`` reads it.
///
/// ```swift
/// let event = try EventInput.event(title: "Stand-up", start: "mon 9:00", end: nil, duration: "15m", tz: nil,
///                                  allDay: false, calendar: calendarID, context: context)
/// ```
public enum EventInput {
    /// `names`: what errors call the three values (`--start` on the command line, `start` for the
    /// D-Bus service's fields).
    public static func event(
        title: String, start: String, end: String?, duration: String?, tz: String?, allDay: Bool,
        calendar: String, names: (start: String, end: String, duration: String) = ("--start", "--end", "--duration"),
        context: InputContext
    ) throws(InputError) -> Event {
        var startDate = try context.calendarDate(start, option: names.start, tz: tz)
        if allDay { startDate = .allDay(startDate.local.date) }
        if let end {
            let endDate = try EventEnd.read(end, start: startDate, option: names.end, tz: tz, context: context)
            return Event(title: title, calendar: calendar, start: startDate, end: endDate)
        }
        var length: Int64 = startDate.isAllDay ? 86_400 : 3600
        if let duration { length = try Durations.seconds(duration, option: names.duration, phrases: context.durations) }
        try ValueBounds.check(names.duration, text: duration ?? "", seconds: length, ValueBounds.durationSeconds)
        return Event(title: title, calendar: calendar, start: startDate, duration: length)
    }
}
