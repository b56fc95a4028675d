import ChimeCore

/// Events whose rules count in another calendar (RFC 7529 `RSCALE`), written for a server that
/// refuses such rules: Radicale, for one, answers 400 to a PUT with `RRULE:RSCALE=CHINESE;…`.
///
/// The portable copy has no RRULE; it lists the dates the rules make (RDATE) for the next
/// ``years`` years, which every client shows, and keeps each rule in ``property`` so that Chime
/// reads the event back exactly as it was (the rule restored, the dates it made dropped).
///
/// ```swift
/// if let sendable = PortableRecurrence.portable(items) { … ICalendar.serialize(sendable, …) }
/// ```
public enum PortableRecurrence {
    /// Where a rule the server refused is kept (an `X-` property: servers store those as they are).
    public static let property = "X-CHIME-RSCALE-RRULE"
    /// How far ahead the dates are written, from DTSTART.
    public static let years = 60
    /// At most this many dates per event (a monthly lunar rule makes about 740 in 60 years).
    static let maximumDates = 800

    /// The items with every event's calendar rules replaced as described; nil when no event has one.
    public static func portable(_ items: [AnyCalendarItem]) -> [AnyCalendarItem]? {
        var changed = false
        let result = items.map { item -> AnyCalendarItem in
            guard case .event(var e) = item, !e.recurrenceRules.isEmpty, e.recurrenceRules.allSatisfy(\.countsInCalendar) else { return item }
            let dates = generatedDates(start: e.start, rules: e.recurrenceRules)
            // Escaped as TEXT, the type of an X- property (Radicale escapes it so if it is not).
            e.icsExtras += e.recurrenceRules.map { "\(property):\(ICSText.escape($0.rfc5545))" }
            e.recurrenceRules = []
            e.recurrenceDates += dates.filter { !e.recurrenceDates.contains($0) }
            changed = true
            return .event(e)
        }
        return changed ? result : nil
    }

    /// The event as it was before ``portable(_:)``: rules from ``property`` back, the dates they
    /// made removed (dates another client added stay). An event without the property is unchanged.
    public static func restored(_ e: Event) -> Event {
        let prefix = property + ":"
        let kept = e.icsExtras.filter { $0.uppercased().hasPrefix(prefix) }
        guard !kept.isEmpty, e.recurrenceRules.isEmpty else { return e }
        var rules: [RecurrenceRule] = []
        for line in kept {
            guard let rule = try? RecurrenceRule(parsing: ICSText.unescape(String(line.dropFirst(prefix.count)))) else { return e }
            rules.append(rule)
        }
        var restored = e
        let made = Set(generatedDates(start: e.start, rules: rules))
        restored.recurrenceRules = rules
        restored.recurrenceDates.removeAll { made.contains($0) }
        restored.icsExtras.removeAll { kept.contains($0) }
        return restored
    }

    /// The instances after DTSTART within ``years`` years, as RDATE values in DTSTART's form.
    static func generatedDates(start: CalendarDate, rules: [RecurrenceRule]) -> [RecurrenceDate] {
        let set = RecurrenceSet(start: start, rules: rules)
        let startLocal = start.local
        let last = LocalDateTime(date: CivilDate(year: min(9999, startLocal.date.year + years), month: startLocal.date.month, day: 1))
        var dates: [RecurrenceDate] = []
        for occurrence in set.occurrences().dropFirst() {
            guard occurrence.nominal < last, dates.count < maximumDates else { break }
            switch start {
            case .allDay: dates.append(.date(occurrence.nominal.date))
            case .utc: dates.append(.instant(occurrence.instant))
            case .floating, .zoned: dates.append(.local(occurrence.nominal))
            }
        }
        return dates
    }
}
