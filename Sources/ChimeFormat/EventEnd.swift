import ChimeCore

/// How an event's end reads when it is typed after its start (`--end`, the D-Bus service's `end`).
///
/// Words that name a day mean what they mean in the start: `tomorrow`, `next fri` and a date
/// count from now, so `--start "tomorrow 9:00" --end "tomorrow 10:00"` is one hour. What can only
/// be counted from a point counts from the start: a bare time is on the start's day, or the next
/// day when it is not after the start and that makes at most 12 hours (`--start "23:00" --end 1:00`
/// is two hours; `--start 10:00 --end 9:00` is refused as a likely slip); an offset
/// (`+1h`, `in 90 min`) is added to the start; a weekday alone is the first such day on or after
/// the start's day (`--start "mon 9:00" --end "wed 17:00"`). An all-day end is the last day,
/// included. An end before the start is refused, both shown as the user will see them.
///
/// ```swift
/// let end = try EventEnd.read("10:00", start: start, option: "--end", tz: nil, context: context)
/// ```
public enum EventEnd {
    public static func read(_ text: String, start: CalendarDate, option: String, tz: String?, context: InputContext) throws(InputError) -> CalendarDate {
        let startInstant = start.instant(floatingZone: context.zone)
        var end: CalendarDate
        var laterDayHint = false
        if DateExpression.isTimeOfDay(text) {
            end = try context.keepingDate(of: start, text, option: option, tz: tz)
            if !start.isAllDay, end.instant(floatingZone: context.zone) <= startInstant {
                let nextDay = end.with(
                    local: LocalDateTime(
                        date: end.local.date.adding(days: 1), hour: end.local.hour,
                        minute: end.local.minute, second: end.local.second))
                // Past midnight only when that makes a short evening (23:00 to 1:00); `--start 10:00
                // --end 9:00` is more likely a slip than a 23-hour event.
                if nextDay.instant(floatingZone: context.zone).secondsSince1970 - startInstant.secondsSince1970 <= 12 * 3600 {
                    end = nextDay
                } else {
                    laterDayHint = true
                }
            }
        } else if DateExpression.isOffset(text) {
            end = try context.calendarDate(text, option: option, tz: tz, relativeTo: startInstant)
        } else if DateExpression.namesBareWeekday(text) {
            end = try context.keepingDate(of: start, text, option: option, tz: tz, fromItemsDay: true)
        } else {
            end = try context.calendarDate(text, option: option, tz: tz)
        }
        // Stored as the day after, as iCalendar does: --start "Dec 15" --end "Dec 17" is three days.
        if start.isAllDay { end = .allDay(end.local.date.adding(days: 1)) }
        guard end.instant(floatingZone: context.zone) >= startInstant || (start.isAllDay && end.local.date > start.local.date) else {
            let shownEnd: CalendarDate = start.isAllDay ? .allDay(end.local.date.adding(days: -1)) : end
            let values: KeyValuePairs<String, String> = [
                "option": option, "text": text, "end": ItemFormat.human(shownEnd, zone: context.zone, messages: context.messages),
                "start": ItemFormat.human(start, zone: context.zone, messages: context.messages)
            ]
            throw laterDayHint
                ? InputError(
                    translatable:
                        "{option} \"{text}\" is {end}, before the start, {start}; for an end on a later day give the day too: \"tomorrow {text}\", \"sat {text}\"",
                    values)
                : InputError(translatable: "{option} \"{text}\" is {end}, before the start, {start}", values)
        }
        return end
    }

    /// Moves an event to `start`, keeping its length (a day given a time becomes an hour, as in
    /// `add`): what `edit --start` and a form whose end line is unchanged do.
    public static func move(_ e: inout Event, to start: CalendarDate, zone: ZoneRules) {
        var duration = e.durationSeconds(floatingZone: zone)
        if e.isAllDay && !start.isAllDay { duration = 3600 }
        e.start = start
        if start.isAllDay {
            e.end = .allDay(start.local.date.adding(days: max(1, Int(duration / 86_400))))
        } else {
            e.end = start.with(instant: Instant(secondsSince1970: start.instant(floatingZone: zone).secondsSince1970 + duration), floatingZone: zone)
        }
    }
}
