import ChimeCore

/// Maps a VCALENDAR's components to events, reminders, alarms and overrides.
struct ItemReader {
    let calendar: ICSComponent
    let file: String
    let lenient: Bool

    /// Properties read into the model; everything else is kept verbatim in `icsExtras`.
    /// DTSTAMP is dropped: an export writes a fresh one, as RFC 5545 asks.
    static let eventProperties: Set<String> = ["UID", "SUMMARY", "DESCRIPTION", "LOCATION", "URL", "DTSTART", "DTEND",
                                               "DURATION", "RRULE", "RDATE", "EXDATE", "RECURRENCE-ID", "SEQUENCE",
                                               "DTSTAMP"]
    static let todoProperties: Set<String> = ["UID", "SUMMARY", "DESCRIPTION", "LOCATION", "URL", "DTSTART", "DUE",
                                              "RRULE", "SEQUENCE", "DTSTAMP", "COMPLETED", "STATUS",
                                              "PERCENT-COMPLETE", "PRIORITY"]

    func read() throws(ICSError) -> ICSParseResult {
        var definitions: [String: ZoneRules] = [:]
        var skipped: [ICSError] = []
        for tz in calendar.components where tz.name == "VTIMEZONE" {
            guard let tzid = tz["TZID"]?.value.trimmingSpaces else { continue }
            do { definitions[tzid] = try ZoneRules(try TimeZoneReader.definition(tz, file: file)) } catch {
                skipped.append(ICSError(file: file, line: tz.line, property: "VTIMEZONE", "TZID \(tzid): \(error)"))
            }
        }
        let floating = calendar["X-WR-TIMEZONE"].flatMap { ZoneResolver.named($0.value.trimmingSpaces) }
        let zones = ZoneResolver(definitions: definitions, floatingDefault: floating, calendar: calendar, file: file)
        skipped += zones.warnings
        let values = ValueReader(file: file, zones: zones)
        var items: [ICSItem] = []
        var overrides: [ICSOverride] = []
        for c in calendar.components {
            do {
                switch c.name {
                case "VEVENT":
                    if c["RECURRENCE-ID"] != nil { overrides.append(try override(c, values)) } else { items.append(try event(c, values)) }
                case "VTODO": items.append(try todo(c, values))
                case "VTIMEZONE": continue
                default: skipped.append(ICSError(file: file, line: c.line, property: c.name, "\(c.name) is not supported; skipped"))
                }
            } catch {
                guard lenient else { throw error }
                skipped.append(error)
            }
        }
        return ICSParseResult(items: items, overrides: overrides, skipped: skipped,
                              calendarName: calendar["X-WR-CALNAME"].map { ICSText.unescape($0.value) })
    }

    // MARK: Events

    func event(_ c: ICSComponent, _ values: ValueReader) throws(ICSError) -> ICSItem {
        var e = try eventBody(c, values)
        for p in c.all("RRULE") {
            do { e.recurrenceRules.append(try RecurrenceRule(parsing: p.value.trimmingSpaces)) } catch {
                throw values.fail(p, "\(error)")
            }
        }
        for p in c.all("RDATE") { e.recurrenceDates += try values.dates(p).map { Self.recurrenceDate($0, start: e.start) } }
        for p in c.all("EXDATE") { e.exceptionDates += try values.dates(p).map { Self.recurrenceDate($0, start: e.start) } }
        // The calendar is chosen by the importer; everything else must already be valid.
        var check = e
        check.calendarIdentifier = check.calendarIdentifier ?? "-"
        do { try check.validate() } catch { throw ICSError(file: file, line: c.line, property: "VEVENT", "\(error)") }
        return ICSItem(item: .event(e), uid: e.externalIdentifier, lastModified: try c["LAST-MODIFIED"].map(values.instant), line: c.line)
    }

    func override(_ c: ICSComponent, _ values: ValueReader) throws(ICSError) -> ICSOverride {
        let rid = c["RECURRENCE-ID"]!
        let e = try eventBody(c, values)
        return ICSOverride(uid: e.externalIdentifier, recurrenceID: try values.calendarDate(rid),
                           thisAndFuture: rid.parameter("RANGE")?.uppercased() == "THISANDFUTURE",
                           isCancelled: c["STATUS"]?.value.trimmingSpaces.uppercased() == "CANCELLED", event: e, line: c.line)
    }

    /// What a series, a single event and an override have in common.
    private func eventBody(_ c: ICSComponent, _ values: ValueReader) throws(ICSError) -> Event {
        guard let dtstart = c["DTSTART"] else {
            throw ICSError(file: file, line: c.line, property: "VEVENT", "missing DTSTART")
        }
        let start = try values.calendarDate(dtstart)
        let end: CalendarDate
        if let dtend = c["DTEND"] {
            end = try values.calendarDate(dtend)
            guard end.isAllDay == start.isAllDay else { throw values.fail(dtend, "must be a date when DTSTART is a date, and a date-time otherwise") }
        } else if let duration = c["DURATION"] {
            let seconds = try values.duration(duration)
            guard seconds >= 0 else { throw values.fail(duration, "must not be negative") }
            if case .allDay(let d) = start { end = .allDay(d.adding(days: max(1, Int(seconds / 86_400)))) } else {
                end = start.with(local: LocalDateTime(localSeconds: start.local.localSeconds + seconds))
            }
        } else if case .allDay(let d) = start {
            end = .allDay(d.adding(days: 1))          // RFC 5545 §3.6.1: a one-day event
        } else {
            end = start
        }
        // DATE-TIME values have four-digit years: an end after 9999 could not be written back.
        guard end.local.date.year <= 9999 else {
            throw ICSError(file: file, line: (c["DTEND"] ?? c["DURATION"] ?? dtstart).line, property: "VEVENT",
                           "the event ends after 9999-12-31, which iCalendar cannot express")
        }
        let uid = c["UID"]?.value.trimmingSpaces ?? ""
        var e = Event(title: text(c, "SUMMARY") ?? "", calendar: nil, start: start, end: end)
        e.externalIdentifier = uid.isEmpty ? Self.syntheticUID(c) : uid
        e.notes = text(c, "DESCRIPTION")
        e.location = text(c, "LOCATION")
        e.url = c["URL"]?.value.trimmingSpaces
        e.sequence = try c["SEQUENCE"].map { p throws(ICSError) in try values.integer(p, in: 0...Int(Int32.max)) } ?? 0
        e.alarms = try alarms(c, values)
        e.icsExtras = extras(c, known: Self.eventProperties)
        return e
    }

    // MARK: Todos

    func todo(_ c: ICSComponent, _ values: ValueReader) throws(ICSError) -> ICSItem {
        let uid = c["UID"]?.value.trimmingSpaces ?? ""
        var r = Reminder(title: text(c, "SUMMARY") ?? "", calendar: nil)
        r.externalIdentifier = uid.isEmpty ? Self.syntheticUID(c) : uid
        r.notes = text(c, "DESCRIPTION")
        r.location = text(c, "LOCATION")
        r.url = c["URL"]?.value.trimmingSpaces
        r.startDate = try c["DTSTART"].map(values.calendarDate)
        r.dueDate = try c["DUE"].map(values.calendarDate)
        r.priority = try c["PRIORITY"].map { p throws(ICSError) in try values.integer(p, in: 0...9) } ?? 0
        r.sequence = try c["SEQUENCE"].map { p throws(ICSError) in try values.integer(p, in: 0...Int(Int32.max)) } ?? 0
        let status = c["STATUS"]?.value.trimmingSpaces.uppercased()
        let percent = try c["PERCENT-COMPLETE"].map { p throws(ICSError) in try values.integer(p, in: 0...100) }
        r.completionDate = try c["COMPLETED"].map(values.instant)
        r.isCompleted = status == "COMPLETED" || percent == 100 || r.completionDate != nil
        for p in c.all("RRULE") {
            do { r.recurrenceRules.append(try RecurrenceRule(parsing: p.value.trimmingSpaces)) } catch { throw values.fail(p, "\(error)") }
        }
        r.alarms = try alarms(c, values)
        var extras = extras(c, known: Self.todoProperties)
        // STATUS values other than COMPLETED (NEEDS-ACTION, IN-PROCESS, CANCELLED) are kept as written.
        if let p = c["STATUS"], status != "COMPLETED" { extras.append(p.contentLine) }
        if let p = c["PERCENT-COMPLETE"], percent != 100 { extras.append(p.contentLine) }
        r.icsExtras = extras
        var check = r
        check.calendarIdentifier = check.calendarIdentifier ?? "-"
        do { try check.validate() } catch { throw ICSError(file: file, line: c.line, property: "VTODO", "\(error)") }
        return ICSItem(item: .reminder(r), uid: r.externalIdentifier, lastModified: try c["LAST-MODIFIED"].map(values.instant), line: c.line)
    }

    // MARK: Shared

    private func text(_ c: ICSComponent, _ name: String) -> String? {
        c[name].map { ICSText.unescape($0.value) }
    }

    /// Unknown properties and sub-components (other than VALARM), as unfolded content lines.
    private func extras(_ c: ICSComponent, known: Set<String>) -> [String] {
        var lines = c.properties.filter { !known.contains($0.name) }.map(\.contentLine)
        for sub in c.components where sub.name != "VALARM" { lines += sub.contentLines }
        return lines
    }

    private func alarms(_ c: ICSComponent, _ values: ValueReader) throws(ICSError) -> [Alarm] {
        var result: [Alarm] = []
        for a in c.components where a.name == "VALARM" {
            if let alarm = try AlarmReader.alarm(a, values) { result.append(alarm) }
        }
        return result
    }

    /// An instant or local time in the series' own terms.
    static func recurrenceDate(_ d: CalendarDate, start: CalendarDate) -> RecurrenceDate {
        switch d {
        case .allDay(let day): return .date(day)
        case .floating(let l): return .local(l)
        case .utc(let l): return .instant(Instant(secondsSince1970: l.localSeconds))
        case .zoned(let l, let z):
            if let own = start.timeZone, own == z { return .local(l) }
            return .instant(z.instant(for: l))
        }
    }

    /// A stable UID for a component without one (old files): from its summary and start.
    static func syntheticUID(_ c: ICSComponent) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for p in c.properties where p.name == "SUMMARY" || p.name == "DTSTART" || p.name == "DUE" {
            for b in p.contentLine.utf8 { hash = (hash ^ UInt64(b)) &* 0x100_0000_01b3 }
        }
        return "chime-generated-\(String(hash, radix: 16))"
    }
}
