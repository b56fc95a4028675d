import ChimeCore
import ChimeStore

/// How items look on the command line: times on the display zone's wall clock, JSON with a
/// fixed key order.
public enum ItemFormat {
    /// `Mon 2026-11-30 09:00` on the display zone (the day alone for all-day values), plus the
    /// item's own zone when it differs; the day as `messages`' language writes it (`Пн, 30 ноября
    /// 2026 09:00`, `2026年11月30日 星期一 09:00`).
    ///
    /// ```swift
    /// ItemFormat.human(.allDay(CivilDate(year: 2026, month: 12, day: 24)), zone: .utc)   // "Thu 2026-12-24 (all day)"
    /// ```
    public static func human(_ date: CalendarDate, zone: ZoneRules, messages: Messages = .english) -> String {
        switch date {
        case .allDay(let d): return messages("{day} (all day)", ["day": messages.dayHeading(d)])
        case .floating(let l):
            return messages("{day} {time} (floating)", ["day": messages.dayHeading(l.date), "time": DisplayText.hhmm(l)])
        case .utc, .zoned:
            let at = date.instant(floatingZone: zone)
            let shown = zone.localTime(at: at)
            var text = "\(messages.dayHeading(shown.date)) \(DisplayText.hhmm(shown))"
            if let own = date.timeZone ?? (date.isFloating ? nil : .utc), own != zone {
                text += " (\(DisplayText.hhmm(own.localTime(at: at))) \(own.identifier))"
            }
            return text
        }
    }

    /// A rule said back: its words, and the RRULE when the words are not the rule itself.
    public static func words(_ r: RecurrenceRule, messages: Messages = .english) -> String {
        guard let said = RuleWords.words(r, messages: messages) else { return r.rfc5545 }
        return said == r.rfc5545 ? r.rfc5545 : "\(said) (\(r.rfc5545))"
    }

    /// ` – 11:00`, ` – Sat 2026-11-28 09:00`, ` – Thu 2026-12-17` (the last day of an all-day
    /// event): what `add` says after the start, so a surprising end is seen at once.
    public static func until(_ e: Event, zone: ZoneRules, messages: Messages = .english) -> String {
        if e.isAllDay {
            let last = e.end.local.date.adding(days: -1)
            return last == e.start.local.date ? "" : " – \(messages.dayHeading(last))"
        }
        let start = zone.localTime(at: e.start.instant(floatingZone: zone)), end = zone.localTime(at: e.end.instant(floatingZone: zone))
        return start.date == end.date ? " – \(DisplayText.hhmm(end))" : " – \(messages.dayHeading(end.date)) \(DisplayText.hhmm(end))"
    }

    /// A weekly or monthly rule whose days leave out the start's day still has its first
    /// occurrence on the start (RFC 5545 counts DTSTART): say so, since the rule alone would not
    /// give that day.
    public static func startOutsideRule(_ e: Event, messages: Messages = .english) -> String? {
        guard let rule = e.recurrenceRules.first, e.recurrenceRules.count == 1 else { return nil }
        let start = e.start.local.date
        if rule.frequency == .weekly, !rule.daysOfTheWeek.isEmpty {
            guard !rule.daysOfTheWeek.contains(where: { $0.dayOfTheWeek == start.weekday }) else { return nil }
            return messages(
                "Note: the start (a {weekday}) is the first occurrence too, as iCalendar counts it; start on one of the rule's days to have only those",
                ["weekday": RuleWords.weekday(start.weekday, messages)])
        }
        // Monthly on weekdays by their place (`last friday`) or on days of the month, not both.
        guard rule.frequency == .monthly, rule.daysOfTheWeek.isEmpty != rule.daysOfTheMonth.isEmpty, rule.setPositions.isEmpty,
            rule.monthsOfTheYear.isEmpty, rule.calendar == nil || rule.calendar == .gregorian
        else { return nil }
        let length = CivilDate.daysInMonth(year: start.year, month: start.month)
        let isRuleDay =
            rule.daysOfTheMonth.contains { $0 > 0 ? $0 == start.day : length + 1 + $0 == start.day }
            || rule.daysOfTheWeek.contains { day in
                guard day.dayOfTheWeek == start.weekday else { return false }
                if day.weekNumber > 0 { return (start.day - 1) / 7 + 1 == day.weekNumber }
                return day.weekNumber == 0 || (length - start.day) / 7 + 1 == -day.weekNumber
            }
        guard !isRuleDay else { return nil }
        return messages(
            "Note: the start ({day}) is the first occurrence too, as iCalendar counts it; start on one of the rule's days to have only those",
            ["day": messages.dayHeading(start)])
    }

    // MARK: JSON (the shapes docs/json.md describes; one writer per shape, used by every command)

    /// A time of an item (start, end, due): `local` on the display zone's clock (the date alone
    /// when all-day), `utc` the instant (null when all-day), `time_zone` the zone the item names
    /// (null for all-day and floating times).
    public static func json(_ date: CalendarDate?, zone: ZoneRules) -> String {
        guard let date else { return "null" }
        let local: String, utc: String
        switch date {
        case .allDay(let d): local = d.description; utc = "null"
        case .floating(let l): local = l.description; utc = JSONText.string(date.instant(floatingZone: zone).description)
        case .utc, .zoned:
            let at = date.instant(floatingZone: zone)
            local = zone.localTime(at: at).description
            utc = JSONText.string(at.description)
        }
        return JSONText.object([
            ("local", JSONText.string(local)), ("utc", utc), ("all_day", date.isAllDay ? "true" : "false"),
            ("time_zone", date.timeZone.map { JSONText.string($0.identifier) } ?? (date.isAllDay || date.isFloating ? "null" : "\"UTC\""))
        ])
    }

    /// An excluded occurrence as a time: a date, a wall time on the event's own clock, or an instant.
    public static func json(_ d: RecurrenceDate, of e: Event, zone: ZoneRules) -> String {
        switch d {
        case .date(let day): return json(.allDay(day), zone: zone)
        case .local(let l): return json(e.start.timeZone.map { .zoned(l, $0) } ?? .floating(l), zone: zone)
        case .instant(let i): return json(.utc(i.utc), zone: zone)
        }
    }

    public static func json(_ c: ChimeCore.Calendar, source: Source) -> String {
        JSONText.object([
            ("id", JSONText.string(c.identifier)), ("title", JSONText.string(c.title)),
            ("kind", JSONText.string(c.entityType == .event ? "event" : "reminder")), ("color", JSONText.string(c.color)),
            ("allows_modifications", c.allowsModifications ? "true" : "false"), ("source", json(source))
        ])
    }

    /// Where a calendar lives: `{"id","title","kind"}`, kind `local`, `calDAV` or `subscribed`.
    public static func json(_ s: Source) -> String {
        JSONText.object([("id", JSONText.string(s.identifier)), ("title", JSONText.string(s.title)), ("kind", JSONText.string(s.kind.rawValue))])
    }

    /// Every calendar and list of the store with its source, as `calendar list --json` and the
    /// D-Bus `Calendars` give them.
    public static func calendarsDocument(_ store: EventStore, of types: [EntityType] = EntityType.allCases) throws -> String {
        let all = try types.flatMap { try store.calendars(for: $0) }
        let sources = try store.sourcesByCalendar()
        return JSONText.document([("calendars", JSONText.array(all.map { json($0, source: sources[$0.identifier] ?? .local) }))])
    }

    /// An alarm, by its `type`: relative (seconds from the start, due time or end; negative is
    /// before), absolute (an instant), or location.
    public static func json(_ a: Alarm) -> String {
        switch a.trigger {
        case .absolute(let i): return JSONText.object([("type", "\"absolute\""), ("at", JSONText.string(i.description))])
        case .relative(let o, let relation):
            return JSONText.object([("type", "\"relative\""), ("offset_seconds", "\(o)"), ("related_to", JSONText.string(relation.rawValue))])
        case .location(let p, let proximity):
            return JSONText.object([
                ("type", "\"location\""), ("title", JSONText.string(p.title)), ("latitude", "\(p.latitude)"),
                ("longitude", "\(p.longitude)"), ("radius", "\(p.radius)"), ("proximity", JSONText.string(proximity.rawValue))
            ])
        }
    }

    /// The fields that open every item, occurrence, alarm and match: how to name it again, and what it is.
    /// `uid`: the iCalendar UID, the item's name on every machine and client (`id` is this store's).
    public static func head(ref: String, id: String, uid: String, kind: String, title: String) -> [(String, String)] {
        [
            ("ref", JSONText.string(ref)), ("id", JSONText.string(id)), ("uid", JSONText.string(uid)), ("kind", JSONText.string(kind)),
            ("title", JSONText.string(title))
        ]
    }

    /// `{"chime_json":1,"item":{…}}`: what `show`, `add`, `edit` and `complete` print with --json.
    /// `identity`: who the user is, for each participant's `is_current_user`.
    public static func document(_ item: AnyCalendarItem, calendarTitle: String?, zone: ZoneRules, identity: Identity) -> String {
        JSONText.document([("item", json(item, calendarTitle: calendarTitle, zone: zone, identity: identity))])
    }

    public static func json(_ item: AnyCalendarItem, calendarTitle: String?, zone: ZoneRules, identity: Identity) -> String {
        switch item {
        case .event(let e):
            return JSONText.object(
                head(ref: ItemReference.text(e, zone: zone), id: e.identifier, uid: e.externalIdentifier, kind: "event", title: e.title)
                    + calendar(e, calendarTitle) + [
                        ("start", json(e.start, zone: zone)),
                        ("end", json(e.end, zone: zone)),
                        ("occurrence", e.occurrenceDate.map { JSONText.string($0.description) } ?? "null"),
                        ("detached", e.isDetached ? "true" : "false"),
                        ("exception_dates", JSONText.array(e.exceptionDates.map { json($0, of: e, zone: zone) })),
                        ("status", JSONText.string(e.status.rawValue)),
                        ("availability", JSONText.string(e.availability.rawValue))
                    ] + participants(e, identity) + tail(e))
        case .reminder(let r):
            return JSONText.object(
                head(ref: r.identifier, id: r.identifier, uid: r.externalIdentifier, kind: "reminder", title: r.title)
                    + calendar(r, calendarTitle) + [
                        ("start", json(r.startDate, zone: zone)),
                        ("due", json(r.dueDate, zone: zone)),
                        ("priority", "\(r.priority)"),
                        ("completed", r.isCompleted ? "true" : "false"),
                        ("completion_date", r.completionDate.map { JSONText.string($0.description) } ?? "null"),
                        ("series", r.seriesIdentifier.map(JSONText.string) ?? "null")
                    ] + participants(r, identity) + tail(r))
        }
    }

    private static func calendar(_ i: some CalendarItem, _ calendarTitle: String?) -> [(String, String)] {
        [
            ("calendar", calendarTitle.map(JSONText.string) ?? "null"),
            ("calendar_id", i.calendarIdentifier.map(JSONText.string) ?? "null")
        ]
    }

    /// `{"name","address","role","type","status","is_current_user"}`: an organizer or attendee.
    public static func json(_ p: Participant, identity: Identity) -> String {
        JSONText.object([
            ("name", p.name.map(JSONText.string) ?? "null"), ("address", JSONText.string(p.address)),
            ("role", JSONText.string(p.role.rawValue)), ("type", JSONText.string(p.kind.rawValue)),
            ("status", JSONText.string(p.status.rawValue)), ("is_current_user", p.isCurrentUser(identity) ? "true" : "false")
        ])
    }

    /// The invitation fields: `organizer` (null when none) and `attendees`.
    private static func participants(_ i: some CalendarItem, _ identity: Identity) -> [(String, String)] {
        [
            ("organizer", i.organizer.map { json($0, identity: identity) } ?? "null"),
            ("attendees", JSONText.array(i.attendees.map { json($0, identity: identity) }))
        ]
    }

    private static func tail(_ i: some CalendarItem) -> [(String, String)] {
        [
            ("recurrence_rules", JSONText.array(i.recurrenceRules.map { JSONText.string($0.rfc5545) })),
            ("repeats", i.recurrenceRules.first.map { JSONText.string($0.summary) } ?? "null"),
            ("alarms", JSONText.array(i.alarms.map(json))),
            // Alarms a file brought that Chime keeps but never rings, by kind ("email"): `show`
            // lists them, so the JSON does too.
            ("kept_alarms", JSONText.array(Alarm.keptActions(inItemExtras: i.icsExtras).map { JSONText.string($0.lowercased()) })),
            ("notes", i.notes.map(JSONText.string) ?? "null"),
            ("location", i.location.map(JSONText.string) ?? "null"),
            ("url", i.url.map(JSONText.string) ?? "null"),
            ("created", i.creationDate.map { JSONText.string($0.description) } ?? "null"),
            ("modified", i.lastModifiedDate.map { JSONText.string($0.description) } ?? "null")
        ]
    }
}
