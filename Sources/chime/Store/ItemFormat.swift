import ChimeCore
import ChimeStore

/// How items look on the command line: times on the display zone's wall clock, JSON with a
/// fixed key order.
enum ItemFormat {
    /// `2026-11-30 09:00` on the display zone (the date alone for all-day values), plus the
    /// item's own zone when it differs.
    static func human(_ date: CalendarDate, zone: ZoneRules) -> String {
        switch date {
        case .allDay(let d): return "\(DisplayText.dayHeading(d)) (all day)"
        case .floating(let l): return "\(DisplayText.dayHeading(l.date)) \(DisplayText.hhmm(l)) (floating)"
        case .utc, .zoned:
            let at = date.instant(floatingZone: zone)
            let shown = zone.localTime(at: at)
            var text = "\(DisplayText.dayHeading(shown.date)) \(DisplayText.hhmm(shown))"
            if let own = date.timeZone ?? (date.isFloating ? nil : .utc), own != zone {
                text += " (\(DisplayText.hhmm(own.localTime(at: at))) \(own.identifier))"
            }
            return text
        }
    }

    /// A rule said back: its words, and the RRULE when the words are not the rule itself.
    static func words(_ r: RecurrenceRule) -> String {
        r.summary == r.rfc5545 ? r.rfc5545 : "\(r.summary) (\(r.rfc5545))"
    }

    /// ` – 11:00`, ` – Sat 2026-11-28 09:00`, ` – Thu 2026-12-17` (the last day of an all-day
    /// event): what `add` says after the start, so a surprising end is seen at once.
    static func until(_ e: Event, zone: ZoneRules) -> String {
        if e.isAllDay {
            let last = e.end.local.date.adding(days: -1)
            return last == e.start.local.date ? "" : " – \(DisplayText.dayHeading(last))"
        }
        let start = zone.localTime(at: e.start.instant(floatingZone: zone)), end = zone.localTime(at: e.end.instant(floatingZone: zone))
        return start.date == end.date ? " – \(DisplayText.hhmm(end))" : " – \(DisplayText.dayHeading(end.date)) \(DisplayText.hhmm(end))"
    }

    /// A weekly rule whose days leave out the start's weekday still has its first occurrence on
    /// the start (RFC 5545 counts DTSTART): say so, since the rule alone would not give that day.
    static func startOutsideRule(_ e: Event) -> String? {
        guard let rule = e.recurrenceRules.first, e.recurrenceRules.count == 1, rule.frequency == .weekly,
              !rule.daysOfTheWeek.isEmpty else { return nil }
        let weekday = e.start.local.date.weekday
        guard !rule.daysOfTheWeek.contains(where: { $0.dayOfTheWeek == weekday }) else { return nil }
        return "Note: the start (a \(weekday.name)) is the first occurrence too, as iCalendar counts it; "
            + "start on one of the rule's days to have only those"
    }

    // MARK: JSON

    static func json(_ date: CalendarDate?, zone: ZoneRules) -> String {
        guard let date else { return "null" }
        var fields: [(String, String)] = [("value", JSONText.string(date.storageText))]
        if !date.isAllDay { fields.append(("utc", JSONText.string(date.instant(floatingZone: zone).description))) }
        fields.append(("all_day", date.isAllDay ? "true" : "false"))
        fields.append(("time_zone", date.timeZone.map { JSONText.string($0.identifier) } ?? (date.isFloating ? "null" : "\"UTC\"")))
        return JSONText.object(fields)
    }

    static func json(_ c: ChimeCore.Calendar) -> String {
        JSONText.object([("id", JSONText.string(c.identifier)), ("title", JSONText.string(c.title)),
                         ("type", JSONText.string(c.entityType.plural)), ("color", JSONText.string(c.color)),
                         ("allows_modifications", c.allowsModifications ? "true" : "false")])
    }

    static func json(_ a: Alarm) -> String {
        switch a.trigger {
        case .absolute(let i): return JSONText.object([("type", "\"absolute\""), ("date", JSONText.string(i.description))])
        case .relative(let o, let relation):
            return JSONText.object([("type", "\"relative\""), ("offset_seconds", "\(o)"), ("related_to", JSONText.string(relation.rawValue))])
        case .location(let p, let proximity):
            return JSONText.object([("type", "\"location\""), ("title", JSONText.string(p.title)), ("latitude", "\(p.latitude)"),
                                    ("longitude", "\(p.longitude)"), ("radius", "\(p.radius)"), ("proximity", JSONText.string(proximity.rawValue))])
        }
    }

    static func json(_ item: AnyCalendarItem, calendarTitle: String?, zone: ZoneRules) -> String {
        switch item {
        case .event(let e):
            return JSONText.object(common(e, calendarTitle: calendarTitle) + [
                ("type", "\"event\""),
                ("ref", JSONText.string(ItemReference.text(e, zone: zone))),
                ("start", json(e.start, zone: zone)),
                ("end", json(e.end, zone: zone)),
                ("occurrence", e.occurrenceDate.map { JSONText.string($0.description) } ?? "null"),
                ("detached", e.isDetached ? "true" : "false"),
                ("exception_dates", JSONText.array(e.exceptionDates.map { JSONText.string("\($0)") })),
            ] + tail(e))
        case .reminder(let r):
            return JSONText.object(common(r, calendarTitle: calendarTitle) + [
                ("type", "\"reminder\""),
                ("start", json(r.startDate, zone: zone)),
                ("due", json(r.dueDate, zone: zone)),
                ("priority", "\(r.priority)"),
                ("completed", r.isCompleted ? "true" : "false"),
                ("completion_date", r.completionDate.map { JSONText.string($0.description) } ?? "null"),
                ("series", r.seriesIdentifier.map(JSONText.string) ?? "null"),
            ] + tail(r))
        }
    }

    private static func common(_ i: some CalendarItem, calendarTitle: String?) -> [(String, String)] {
        [("id", JSONText.string(i.identifier)), ("title", JSONText.string(i.title)),
         ("calendar", calendarTitle.map(JSONText.string) ?? "null"),
         ("calendar_id", i.calendarIdentifier.map(JSONText.string) ?? "null")]
    }

    private static func tail(_ i: some CalendarItem) -> [(String, String)] {
        [("recurrence_rules", JSONText.array(i.recurrenceRules.map { JSONText.string($0.rfc5545) })),
         ("alarms", JSONText.array(i.alarms.map(json))),
         ("notes", i.notes.map(JSONText.string) ?? "null"),
         ("location", i.location.map(JSONText.string) ?? "null"),
         ("url", i.url.map(JSONText.string) ?? "null"),
         ("created", i.creationDate.map { JSONText.string($0.description) } ?? "null"),
         ("modified", i.lastModifiedDate.map { JSONText.string($0.description) } ?? "null")]
    }
}
