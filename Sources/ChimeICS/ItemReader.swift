import ChimeCore

/// Maps a VCALENDAR's components to events, reminders, alarms and overrides, reading every file
/// the way the best clients do: a fault in one property is repaired (and said, in ``RepairLog``)
/// without dropping its component; a component that cannot be an item at all (a VEVENT without
/// DTSTART) is dropped alone, with the reason in `skipped`. Strict reading throws instead.
struct ItemReader {
    /// The calendar; ``read()`` empties its components as it reads them.
    var calendar: ICSComponent
    let file: String
    let repairs: RepairLog
    /// Definitions already read by other files of the same pull (nil: this file's alone).
    var zoneDefinitions: ZoneDefinitions? = nil
    /// The rules read so far, by their text: a calendar's series repeat a few hundred rule texts
    /// (the 12,000-item export: 3,307 rules, 1,007 texts), and parsing one took about 29,000
    /// instructions.
    let parsedRules = ParsedRules()

    /// Properties read into the model; everything else is kept verbatim in `icsExtras`.
    /// DTSTAMP is dropped: an export writes a fresh one, as RFC 5545 asks.
    static let eventProperties = PropertyNameSet([
        "UID", "SUMMARY", "DESCRIPTION", "LOCATION", "URL", "DTSTART", "DTEND",
        "DURATION", "RRULE", "RDATE", "EXDATE", "RECURRENCE-ID", "SEQUENCE",
        "DTSTAMP"
    ])
    /// Properties read into the model whose parameters the model has no place for (Outlook's
    /// `SUMMARY;LANGUAGE=en-US`, `LOCATION;ALTREP=…`): such a line is also kept whole in
    /// `icsExtras`, and written back in place of Chime's own while its value is still the
    /// item's (``ItemWriter``). Not RRULE's: Evolution's `X-EVOLUTION-ENDDATE` caches where the
    /// series ends, which a moved start makes false, and Evolution computes it again.
    static let keptWithParameters = ["SUMMARY", "DESCRIPTION", "LOCATION"]
    /// VCALENDAR properties Chime writes itself (the name is the calendar's title).
    static let calendarProperties: Set<String> = ["VERSION", "PRODID", "CALSCALE", "METHOD", "X-WR-CALNAME"]
    static let todoProperties = PropertyNameSet([
        "UID", "SUMMARY", "DESCRIPTION", "LOCATION", "URL", "DTSTART", "DUE",
        "RRULE", "SEQUENCE", "DTSTAMP", "COMPLETED", "STATUS",
        "PERCENT-COMPLETE", "PRIORITY"
    ])

    mutating func read() throws(ICSError) -> ICSParseResult {
        var definitions: [String: ZoneRules] = [:]
        var skipped: [ICSError] = []
        var unreadable = ICSUnreadableItems()
        for tz in calendar.components where tz.name == "VTIMEZONE" {
            guard let tzid = tz["TZID"]?.value.trimmingSpaces else { continue }
            // A TZID tzdata knows by name is read by that name, never by its definition: building
            // the rules would be wasted (a third of the CPU of a CalDAV pull where every item
            // carries the same Europe/Berlin VTIMEZONE).
            if ZoneResolver.namedZone(tzid) != nil { continue }
            do { definitions[tzid] = try zoneRules(tz) } catch {
                // Reading strictly, a repair the definition needed refuses the file, as elsewhere.
                if repairs.strict, let error = error as? ICSError { throw error }
                skipped.append(ICSError(file: file, line: tz.line, property: "VTIMEZONE", "TZID \(tzid): \(error)"))
            }
        }
        let zones = ZoneResolver(
            definitions: definitions, floatingDefault: Self.floatingDefault(of: calendar), calendar: calendar, file: file,
            known: zoneDefinitions)
        // A zone kept as UTC instants: the file's times are right, its wall clock is not kept.
        for warning in zones.warnings { try repairs.record(warning) }
        let values = ValueReader(file: file, zones: zones)
        var items: [ICSItem] = []
        var overrides: [ICSOverride] = []
        // Each component is taken out as it is read, and freed once its item is made.
        var components = calendar.components
        calendar.components = []
        for index in components.indices {
            var c = ICSComponent(name: "")
            swap(&c, &components[index])
            if let item = try read(c, values, overrides: &overrides, skipped: &skipped, unreadable: &unreadable) { items.append(item) }
        }
        return try result(items: try oneItemPerUID(items), overrides: overrides, skipped: skipped, unreadable: unreadable)
    }

    /// X-WR-TIMEZONE: the zone of a calendar whose times are floating.
    static func floatingDefault(of calendar: ICSComponent) -> ZoneRules? {
        calendar["X-WR-TIMEZONE"].flatMap { ZoneResolver.named($0.value.trimmingSpaces) }
    }

    /// One component of the calendar: its event or reminder, or nil when it is an override (added
    /// to `overrides`), a VTIMEZONE, or a component that cannot be an item (added to `skipped`;
    /// what identifies it to `unreadable`).
    func read(
        _ c: ICSComponent, _ values: ValueReader, overrides: inout [ICSOverride], skipped: inout [ICSError],
        unreadable: inout ICSUnreadableItems
    ) throws(ICSError) -> ICSItem? {
        do {
            switch c.name {
            case "VEVENT":
                if c["RECURRENCE-ID"] != nil { overrides.append(try override(c, values)) } else { return try event(c, values) }
            case "VTODO": return try todo(c, values)
            case "VTIMEZONE": break
            default:
                skipped.append(
                    ICSError(file: file, line: c.line, property: c.name, MessageText("{component} is not supported; skipped", ["component": c.name])))
            }
        } catch {
            // A component that cannot be an item: dropped alone, the rest of the file is read. A
            // strict read refuses the file instead: said as the skip it refuses, not as one made.
            if repairs.strict { throw error.skipsComponent ? error.refused : error }
            skipped.append(error)
            // An event or to-do itself, or a changed occurrence by the date it changes (when that
            // can be read; its fault is said once). A feed that still has only an
            // unreadable occurrence of a series no longer has the series.
            guard let uid = c["UID"]?.value.trimmingSpaces, !uid.isEmpty else { return nil }
            if let rid = c["RECURRENCE-ID"] {
                // Read as the readable path reads it (an unknown TZID as floating), its repairs dropped.
                if c.name == "VEVENT", let date = try? values.calendarDate(rid, repairs: RepairLog(file: file, strict: false)) {
                    unreadable.occurrences[uid, default: []].append(date)
                }
            } else {
                unreadable.uids.insert(uid)
            }
        }
        return nil
    }

    /// The file's result once every component is read: one override per instance, the repairs in
    /// file order, the calendar's name and properties.
    func result(
        items: [ICSItem], overrides: [ICSOverride], skipped: [ICSError], unreadable: ICSUnreadableItems
    ) throws(ICSError) -> ICSParseResult {
        ICSParseResult(
            items: items, overrides: try oneOverridePerInstance(overrides), skipped: skipped, unreadable: unreadable,
            repairs: repairs.entries.enumerated().sorted { ($0.element.line, $0.offset) < ($1.element.line, $1.offset) }.map(\.element),
            calendarName: header.name, calendarProperties: header.properties)
    }

    /// The calendar's name (X-WR-CALNAME) and the properties Chime does not write itself.
    var header: ICSCalendarHeader {
        ICSCalendarHeader(
            name: calendar["X-WR-CALNAME"].map { ICSText.unescape($0.value) },
            properties: calendar.properties.filter { !Self.calendarProperties.contains($0.name) }.map(\.contentLine))
    }

    // MARK: One master per UID

    /// Several components with one UID and no RECURRENCE-ID (an edited event saved twice) are one
    /// item: the highest SEQUENCE, then the newest LAST-MODIFIED (or DTSTAMP), then the last one.
    /// The rules a VTIMEZONE defines, read once per distinct definition when files share them.
    private func zoneRules(_ tz: ICSComponent) throws -> ZoneRules {
        let file = file, repairs = repairs
        func make() throws -> (rules: ZoneRules, repaired: Bool) {
            let before = repairs.entries.count
            let rules = try ZoneRules(try TimeZoneReader.definition(tz, file: file, repairs: repairs))
            return (rules, repairs.entries.count != before)
        }
        guard let zoneDefinitions else { return try make().rules }
        return try zoneDefinitions.rules(of: tz, make: make)
    }

    private func oneItemPerUID(_ items: [ICSItem]) throws(ICSError) -> [ICSItem] {
        var chosen: [String: Int] = [:]
        var order: [String] = []
        for (index, entry) in items.enumerated() {
            let key = entry.item.kindName + " " + entry.uid
            guard let previous = chosen[key] else {
                chosen[key] = index
                order.append(key)
                continue
            }
            let keep = Self.isNewer(entry, than: items[previous]) ? index : previous
            let dropped = keep == index ? items[previous] : entry
            try repairs.note(
                line: dropped.line, property: "UID",
                MessageText(
                    "{uid} also appears at line {line}: kept that one (higher SEQUENCE, or newer, or later), dropped this one",
                    ["uid": entry.uid, "line": "\(items[keep == index ? index : previous].line)"]))
            chosen[key] = keep
        }
        // Most files hold each UID once: the list as it is, not a copy of a large file's items.
        if order.count == items.count { return items }
        return order.map { items[chosen[$0]!] }
    }

    private func oneOverridePerInstance(_ overrides: [ICSOverride]) throws(ICSError) -> [ICSOverride] {
        var chosen: [String: Int] = [:]
        var order: [String] = []
        for (index, o) in overrides.enumerated() {
            let key = o.uid + " " + o.recurrenceID.storageText
            guard let previous = chosen[key] else {
                chosen[key] = index
                order.append(key)
                continue
            }
            let keep =
                (o.event.sequence, o.stamp ?? Instant(secondsSince1970: .min)) >= (
                    overrides[previous].event.sequence, overrides[previous].stamp ?? Instant(secondsSince1970: .min)
                ) ? index : previous
            try repairs.note(
                line: overrides[keep == index ? previous : index].line, property: "RECURRENCE-ID",
                MessageText(
                    "the occurrence {occurrence} of {uid} is changed twice: kept the one at line {line}",
                    ["occurrence": o.recurrenceID.storageText, "uid": o.uid, "line": "\(overrides[keep].line)"]))
            chosen[key] = keep
        }
        if order.count == overrides.count { return overrides }
        return order.map { overrides[chosen[$0]!] }
    }

    private static func isNewer(_ a: ICSItem, than b: ICSItem) -> Bool {
        let (x, y) = (a.item.sequence, b.item.sequence)
        if x != y { return x > y }
        switch (a.stamp, b.stamp) {
        case let (l?, r?) where l != r: return l > r
        default: return true  // the later one in the file
        }
    }

    // MARK: Events

    func event(_ c: ICSComponent, _ values: ValueReader) throws(ICSError) -> ICSItem {
        let verdicts = Self.alarmVerdicts(c)
        var e = try eventBody(c, values, verdicts)
        e.recurrenceRules = try rules(c, values)
        e.recurrenceDates = try dateLists(c, "RDATE", values).map { Self.recurrenceDate($0, start: e.start) }
        e.exceptionDates = try dateLists(c, "EXDATE", values).map { Self.recurrenceDate($0, start: e.start) }
        // A lunar (RSCALE) rule Chime sent as dates to a server that refuses such rules.
        e = PortableRecurrence.restored(e)
        // The calendar is chosen by the importer; everything else must already be valid.
        do { try e.validate(requiringCalendar: false) } catch { throw ICSError(file: file, line: c.line, property: "VEVENT", "\(error)") }
        var item = ICSItem(
            item: .event(e), uid: e.externalIdentifier, lastModified: try lastModified(c, values), line: c.line,
            stamp: try stamp(c, values))
        item.unreadAlarms = Self.unreadAlarms(verdicts, read: e.alarms.count)
        return item
    }

    func override(_ c: ICSComponent, _ values: ValueReader) throws(ICSError) -> ICSOverride {
        let rid = c["RECURRENCE-ID"]!
        let e = try eventBody(c, values, Self.alarmVerdicts(c))
        // A TZID no zone matches is read floating and said, as on DTSTART: the series' DTSTART
        // in that zone is floating too, so the override still names one of its instances.
        return ICSOverride(
            uid: e.externalIdentifier, recurrenceID: try values.calendarDate(rid, repairs: repairs),
            thisAndFuture: rid.parameter("RANGE")?.asciiUppercased == "THISANDFUTURE",
            isCancelled: c["STATUS"]?.value.isKeyword("CANCELLED") == true, event: e, line: c.line,
            stamp: try stamp(c, values))
    }

    /// What a series, a single event and an override have in common.
    /// `verdicts`: ``alarmVerdicts(_:)`` of `c`.
    private func eventBody(_ c: ICSComponent, _ values: ValueReader, _ verdicts: [AlarmReader.Verdict?]) throws(ICSError) -> Event {
        guard let dtstart = c["DTSTART"] else {
            var skipped = ICSError(file: file, line: c.line, property: "VEVENT", MessageText("missing DTSTART: this event was skipped"))
            skipped.skipsComponent = true
            throw skipped
        }
        let start = try values.calendarDate(dtstart, repairs: repairs)
        let end = try self.end(of: c, start: start, values)
        // DATE-TIME values have four-digit years: an end after 9999 could not be written back.
        guard end.local.date.year <= 9999 else {
            throw ICSError(
                file: file, line: (c["DTEND"] ?? c["DURATION"] ?? dtstart).line, property: "VEVENT",
                "the event ends after 9999-12-31, which iCalendar cannot express")
        }
        let uid = c["UID"]?.value.trimmingSpaces ?? ""
        var e = Event(title: text(c, "SUMMARY") ?? "", calendar: nil, start: start, end: end)
        e.externalIdentifier = uid.isEmpty ? Self.syntheticUID(c) : uid
        e.notes = text(c, "DESCRIPTION")
        e.location = text(c, "LOCATION")
        e.url = c["URL"]?.value.trimmingSpaces
        e.sequence = try integer(c["SEQUENCE"], in: 0...Int(Int32.max), values) ?? 0
        e.alarms = try alarms(c, values, verdicts)
        e.icsExtras = extras(c, known: Self.eventProperties, verdicts)
        return e
    }

    /// DTEND, else DURATION, else RFC 5545 §3.6.1's default; faults repaired to the evident end.
    private func end(of c: ICSComponent, start: CalendarDate, _ values: ValueReader) throws(ICSError) -> CalendarDate {
        let defaultEnd: CalendarDate = if case .allDay(let d) = start { .allDay(d.adding(days: 1)) } else { start }
        if let dtend = c["DTEND"] {
            guard
                var end = try readOrRepair(
                    dtend, { p throws(ICSError) in try values.calendarDate(p, repairs: repairs) },
                    MessageText("the event ends where it starts (one day when all-day)"))
            else { return defaultEnd }
            switch (start, end) {
            case (.allDay(let s), let e) where !e.isAllDay:
                // A date-time end on an all-day event: the day it falls on (the next one unless at midnight).
                let local = e.local
                var day = local.date
                if local.hour != 0 || local.minute != 0 || local.second != 0 { day = day.adding(days: 1) }
                end = .allDay(max(day, s.adding(days: 1)))
                try repairs.note(
                    line: dtend.line, property: "DTEND", MessageText("a date-time on an all-day event: read as the date {date}", ["date": end.storageText]))
            case (let s, .allDay(let d)) where !s.isAllDay:
                end = s.with(local: LocalDateTime(date: d))
                try repairs.note(line: dtend.line, property: "DTEND", MessageText("a date on an event with a start time: read as midnight on that date"))
            default: break
            }
            if end.instant(floatingZone: .utc) < start.instant(floatingZone: .utc) {
                try repairs.note(
                    line: dtend.line, property: "DTEND",
                    "\(end.storageText) is before DTSTART \(start.storageText): the event ends where it starts (one day when all-day)")
                return defaultEnd
            }
            return end
        }
        if let duration = c["DURATION"] {
            guard var seconds = try readOrRepair(duration, values.duration, MessageText("the event has no duration")) else { return defaultEnd }
            if seconds < 0 {
                try repairs.note(
                    line: duration.line, property: "DURATION", MessageText("{value} is negative: read as no duration", ["value": duration.value.trimmingSpaces])
                )
                seconds = 0
            }
            if case .allDay(let d) = start { return .allDay(d.adding(days: max(1, Int(seconds / 86_400)))) }
            return start.with(local: LocalDateTime(localSeconds: start.local.localSeconds + seconds))
        }
        return defaultEnd
    }

    // MARK: Todos

    func todo(_ c: ICSComponent, _ values: ValueReader) throws(ICSError) -> ICSItem {
        let uid = c["UID"]?.value.trimmingSpaces ?? ""
        var r = Reminder(title: text(c, "SUMMARY") ?? "", calendar: nil)
        r.externalIdentifier = uid.isEmpty ? Self.syntheticUID(c) : uid
        r.notes = text(c, "DESCRIPTION")
        r.location = text(c, "LOCATION")
        r.url = c["URL"]?.value.trimmingSpaces
        if let p = c["DTSTART"] {
            r.startDate = try readOrRepair(p, { p throws(ICSError) in try values.calendarDate(p, repairs: repairs) }, MessageText("the to-do has no start"))
        }
        if let p = c["DUE"] {
            r.dueDate = try readOrRepair(p, { p throws(ICSError) in try values.calendarDate(p, repairs: repairs) }, MessageText("the to-do has no due date"))
        }
        if let s = r.startDate, let d = r.dueDate, d.instant(floatingZone: .utc) < s.instant(floatingZone: .utc) {
            try repairs.note(
                line: c["DUE"]!.line, property: "DUE",
                MessageText("{due} is before DTSTART {start}: the start was dropped", ["due": d.storageText, "start": s.storageText]))
            r.startDate = nil
        }
        r.priority = try integer(c["PRIORITY"], in: 0...9, values) ?? 0
        r.sequence = try integer(c["SEQUENCE"], in: 0...Int(Int32.max), values) ?? 0
        let status = c["STATUS"]?.value.trimmingSpaces.asciiUppercased
        let percent = try integer(c["PERCENT-COMPLETE"], in: 0...100, values)
        if let p = c["COMPLETED"] { r.completionDate = try readOrRepair(p, values.instant, MessageText("the completion time is unknown")) }
        r.isCompleted = status == "COMPLETED" || percent == 100 || r.completionDate != nil
        r.recurrenceRules = try rules(c, values)
        if !r.recurrenceRules.isEmpty && r.recurrenceAnchor == nil {
            try repairs.note(line: c["RRULE"]!.line, property: "RRULE", MessageText("a repeating to-do needs DUE or DTSTART: it does not repeat"))
            r.recurrenceRules = []
        }
        let verdicts = Self.alarmVerdicts(c)
        r.alarms = try alarms(c, values, verdicts)
        var extras = extras(c, known: Self.todoProperties, verdicts)
        // STATUS values other than COMPLETED (NEEDS-ACTION, IN-PROCESS, CANCELLED) are kept as written.
        if let p = c["STATUS"], status != "COMPLETED" { extras.append(p.contentLine) }
        if let p = c["PERCENT-COMPLETE"], let percent, percent != 100 { extras.append(p.contentLine) }
        r.icsExtras = extras
        do { try r.validate(requiringCalendar: false) } catch { throw ICSError(file: file, line: c.line, property: "VTODO", "\(error)") }
        var item = ICSItem(
            item: .reminder(r), uid: r.externalIdentifier, lastModified: try lastModified(c, values), line: c.line,
            stamp: try stamp(c, values))
        item.unreadAlarms = Self.unreadAlarms(verdicts, read: r.alarms.count)
        return item
    }

    // MARK: Shared

    /// Reads a property; a value that cannot be read is a repair (`done` says what the item does
    /// without it) and nil, never the end of the component.
    private func readOrRepair<T>(
        _ p: ICSProperty, _ read: (ICSProperty) throws(ICSError) -> T,
        _ done: MessageText
    ) throws(ICSError) -> T? {
        do { return try read(p) } catch { try repairs.note(error, done); return nil }
    }

    private func integer(_ p: ICSProperty?, in range: ClosedRange<Int>, _ values: ValueReader) throws(ICSError) -> Int? {
        guard let p else { return nil }
        return try readOrRepair(p, { p throws(ICSError) in try values.integer(p, in: range) }, MessageText("ignored"))
    }

    /// LAST-MODIFIED, else DTSTAMP: which of two copies of an item in one file is newer.
    private func stamp(_ c: ICSComponent, _ values: ValueReader) throws(ICSError) -> Instant? {
        if let modified = try lastModified(c, values) { return modified }
        guard let p = c["DTSTAMP"] else { return nil }
        return try readOrRepair(p, values.instant, MessageText("ignored"))
    }

    private func lastModified(_ c: ICSComponent, _ values: ValueReader) throws(ICSError) -> Instant? {
        guard let p = c["LAST-MODIFIED"] else { return nil }
        return try readOrRepair(p, values.instant, MessageText("ignored"))
    }

    /// RRULEs, each repaired to its evident meaning or dropped (the item keeps its first occurrence).
    private func rules(_ c: ICSComponent, _ values: ValueReader) throws(ICSError) -> [RecurrenceRule] {
        var result: [RecurrenceRule] = []
        for p in c.all("RRULE") {
            let (text, changes) = RRuleRepair.normalize(p.value)
            if !changes.isEmpty {
                // `"FREQ=WEEKLY; BYDAY=MO": removed spaces; read names in upper case`, each change translated.
                var said = changes.last!
                for change in changes.dropLast().reversed() {
                    said = MessageText("{first}; {rest}", context: "list of repairs", parts: ["first": change, "rest": said])
                }
                try repairs.note(
                    line: p.line, property: "RRULE",
                    MessageText("{rule}: {changes}", context: "repair", ["rule": ContentLines.excerpt(p.value)], parts: ["changes": said]))
            }
            guard let text else { continue }
            if let known = parsedRules.byText[text] {
                result.append(known)
                continue
            }
            do {
                let rule = try RecurrenceRule(parsing: text)
                parsedRules.remember(rule, for: text)
                result.append(rule)
            } catch {
                try repairs.note(values.fail(p, "\(error)"), MessageText("the rule was dropped: only the first occurrence is kept"))
            }
        }
        return result
    }

    /// RDATE or EXDATE values; an unreadable property is dropped alone.
    private func dateLists(_ c: ICSComponent, _ name: String, _ values: ValueReader) throws(ICSError) -> [CalendarDate] {
        var result: [CalendarDate] = []
        for p in c.all(name) {
            if let dates = try readOrRepair(
                p, { p throws(ICSError) in try values.dates(p, repairs: repairs) }, MessageText("this {property} was dropped", ["property": name]))
            {
                result += dates
            }
        }
        return result
    }

    private func text(_ c: ICSComponent, _ name: String) -> String? {
        c[name].map { ICSText.unescape($0.value) }
    }

    /// Unknown properties and sub-components (other than VALARMs Chime reads), as unfolded
    /// content lines. Apple's placeholder VALARM (`ACTION:NONE`, the 1976 trigger) is one: it
    /// never fires and is written back as it was.
    /// A LAST-MODIFIED that cannot be read (a repair said so) is not kept: an export must never
    /// write a value Chime itself refuses.
    private func extras(_ c: ICSComponent, known: PropertyNameSet, _ verdicts: [AlarmReader.Verdict?]) -> [String] {
        // Lines kept for their parameters come first, in the order an export writes them, so an
        // item reads the same from its own export as from the file it came from.
        let hasKept = c.properties.contains { !$0.parameters.isEmpty && Self.keptWithParameters.contains($0.name) }
        let withParameters =
            !hasKept
            ? []
            : Self.keptWithParameters.flatMap { name in
                c.properties.filter { $0.name == name && !$0.parameters.isEmpty }.map(\.contentLine)
            }
        var lines =
            withParameters
            + c.properties.filter { p in
                !known.contains(p.name) && !(p.name == "LAST-MODIFIED" && BasicDateTime.parse(p.value.trimmingSpaces) == nil)
            }.map(\.contentLine)
        for (sub, verdict) in zip(c.components, verdicts) where verdict?.isKeptVerbatim ?? true { lines += sub.contentLines }
        return lines
    }

    /// For each sub-component of `c`, in order, its ``AlarmReader/Verdict`` if it is a VALARM.
    static func alarmVerdicts(_ c: ICSComponent) -> [AlarmReader.Verdict?] {
        c.components.map { $0.name == "VALARM" ? AlarmReader.Verdict($0) : nil }
    }

    /// How many of a component's VALARMs did not become alarms, leaving out the ones kept verbatim
    /// on purpose (EMAIL, command and unknown actions). `verdicts`: ``alarmVerdicts(_:)``.
    static func unreadAlarms(_ verdicts: [AlarmReader.Verdict?], read: Int) -> Int {
        max(0, verdicts.count { $0?.isMeantAsAlarm == true } - read)
    }

    /// VALARMs; one that cannot be read (no TRIGGER, an unreadable one) is dropped, the item kept.
    private func alarms(_ c: ICSComponent, _ values: ValueReader, _ verdicts: [AlarmReader.Verdict?]) throws(ICSError) -> [Alarm] {
        var result: [Alarm] = []
        for (a, verdict) in zip(c.components, verdicts) {
            guard let verdict else { continue }
            if let unshown = verdict.unshownWarning {
                try repairs.note(line: unshown.line, property: "ACTION", unshown.message)
                continue
            }
            do {
                if let alarm = try AlarmReader.alarm(a, values, repairs: repairs, verdict: verdict) { result.append(alarm) }
            } catch {
                try repairs.note(error, MessageText("this alarm was dropped, the item kept"))
            }
        }
        return result
    }

    /// An instant or local time in the series' own terms.
    static func recurrenceDate(_ d: CalendarDate, start: CalendarDate) -> RecurrenceDate {
        switch d {
        case .allDay(let day): return .date(day)
        case .floating(let l): return .local(l)
        case .utc(let l): return .instant(Instant(utc: l))
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

/// Rules parsed from their text, for one file's reading (`RecurrenceRule(parsing:)` depends on the
/// text alone). At most ``limit`` are kept, so a file whose every rule differs (an UNTIL each) holds
/// no more.
final class ParsedRules {
    static let limit = 4_096
    private(set) var byText: [String: RecurrenceRule] = [:]

    func remember(_ rule: RecurrenceRule, for text: String) {
        if byText.count < Self.limit { byText[text] = rule }
    }
}
