import ChimeCore

extension ICalendar {
    /// An RFC 5545 file (CRLF, 75-octet folding on character boundaries, a VTIMEZONE for every
    /// zone used, PRODID) with the items' preserved lines written back. Detached occurrences
    /// (`isDetached`) become RECURRENCE-ID components of their series' UID. Location alarms are
    /// written the Apple way and, alongside, the RFC 9074 way.
    ///
    /// ```swift
    /// let bytes = ICalendar.serialize([.event(standUp)], now: now, floatingZone: zone)
    /// ```
    /// - Parameter calendarProperties: calendar-level lines kept from an import
    ///   (``ChimeCore/Calendar/icsExtras``), written after the name.
    public static func serialize(
        _ items: [AnyCalendarItem], calendarName: String? = nil, calendarProperties: [String] = [],
        now: Instant, floatingZone: ZoneRules
    ) -> [UInt8] {
        var writer = ItemWriter(now: now, floatingZone: floatingZone)
        for case .event(let e) in items where !e.isDetached { writer.seriesStarts[e.externalIdentifier] = e.start }
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Chime//Chime 0.1//EN", "CALSCALE:GREGORIAN"]
        if let calendarName { lines.append("X-WR-CALNAME:" + ICSText.escape(calendarName)) }
        lines += calendarProperties
        var body: [String] = []
        for item in items {
            switch item {
            case .event(let e) where !e.isDetached && e.icsExtras.contains(ICalendar.standInSeriesMarker): continue
            case .event(let e): body += writer.event(e)
            case .reminder(let r): body += writer.todo(r)
            }
        }
        lines += writer.timeZones()
        lines += body
        lines.append("END:VCALENDAR")
        var out: [UInt8] = []
        out.reserveCapacity(lines.reduce(0) { $0 + $1.utf8.count + 4 })
        for line in lines { Folding.append(line, to: &out) }
        return out
    }
}

/// Writes components and remembers which zones they used.
struct ItemWriter {
    let now: Instant
    let floatingZone: ZoneRules
    private var zones: [String: (zone: ZoneRules, from: Instant)] = [:]
    /// Each series' DTSTART by UID: a RECURRENCE-ID takes its kind (a date for an all-day series,
    /// a date-time on the series' clock otherwise), whatever its occurrence was changed to.
    var seriesStarts: [String: CalendarDate] = [:]
    /// The TZID each zone is written under, by zone identifier (see ``tzid(for:)``).
    private var tzids: [String: String] = [:]

    init(now: Instant, floatingZone: ZoneRules) {
        self.now = now
        self.floatingZone = floatingZone
    }

    mutating func event(_ e: Event) -> [String] {
        var lines = ["BEGIN:VEVENT", "UID:" + e.externalIdentifier, "DTSTAMP:" + now.utcBasicFormat]
        if e.isDetached, let occurrence = e.occurrenceDate {
            let kind = seriesStarts[e.externalIdentifier] ?? e.start
            lines.append(date("RECURRENCE-ID", kind.with(instant: occurrence, floatingZone: floatingZone)))
        }
        if e.sequence > 0 { lines.append("SEQUENCE:\(e.sequence)") }
        var extras = e.icsExtras
        lines += Self.keepingParameters(texts(e.title, e.notes, e.location, e.url), of: Self.textPrefixes, in: &extras)
        lines.append(date("DTSTART", e.start))
        lines.append(date("DTEND", e.end))
        lines += e.recurrenceRules.map { rule($0, start: e.start) }
        lines += recurrenceDates("RDATE", e.recurrenceDates, start: e.start)
        lines += recurrenceDates("EXDATE", e.exceptionDates, start: e.start)
        lines += Self.propertiesFirst(extras)
        lines += e.alarms.flatMap { alarm($0, title: e.title) }
        lines.append("END:VEVENT")
        return lines
    }

    /// The kept texts' line starts (``ItemReader/keptWithParameters``, each with its `;`).
    private static let textPrefixes = ItemReader.keptWithParameters.map { $0 + ";" }

    /// Chime's own lines for modeled properties (`prefixes`: `NAME;`), each replaced by the line the item was read
    /// with (kept in `extras` for its parameters: ``ItemReader/keptWithParameters``) while that
    /// line's value still says the same; the kept lines are taken out of `extras` either way, so
    /// a title edited since is written fresh, without the old one's LANGUAGE.
    static func keepingParameters(_ generated: [String], of prefixes: [String], in extras: inout [String]) -> [String] {
        // Most items keep no such line: an export of thousands asks this of each.
        guard extras.contains(where: { line in prefixes.contains { line.hasPrefix($0) } }) else { return generated }
        // The item's own lines only: a VALARM or other component kept whole keeps its lines.
        let kept = ICalendarText.topLevelIndices(extras).filter { i in prefixes.contains { extras[i].hasPrefix($0) } }
        guard !kept.isEmpty else { return generated }
        var original = kept.compactMap { i in (try? ContentLines.property(Array(extras[i].utf8), line: 0, file: "")).map { (i, $0) } }
        var result: [String] = []
        for line in generated {
            guard let own = try? ContentLines.property(Array(line.utf8), line: 0, file: ""),
                let match = original.firstIndex(where: { $0.1.name == own.name && sameValue($0.1, own) })
            else {
                result.append(line)
                continue
            }
            result.append(extras[original[match].0])
            original.remove(at: match)
        }
        // Taken out whether used or stale: a property the item no longer has is not written.
        let taken = Set(kept)
        extras = extras.indices.filter { !taken.contains($0) }.map { extras[$0] }
        return result
    }

    /// Kept lines with the item's own properties before the components kept whole (an e-mail
    /// VALARM): RFC 5545 puts every property of a component before its subcomponents, and a line
    /// added later (an export's calendar name, an answered alarm's stamp) comes after them.
    static func propertiesFirst(_ extras: [String]) -> [String] {
        guard extras.contains(where: ICalendarText.beginsComponent) else { return extras }
        let top = ICalendarText.topLevelIndices(extras)
        guard top.count < extras.count, let last = top.last, last > top.count - 1 else { return extras }
        let topSet = Set(top)
        return top.map { extras[$0] } + extras.indices.filter { !topSet.contains($0) }.map { extras[$0] }
    }

    /// Whether a kept line still says what Chime's own line says: the same text.
    private static func sameValue(_ kept: ICSProperty, _ own: ICSProperty) -> Bool {
        ICSText.unescape(kept.value) == ICSText.unescape(own.value)
    }

    /// An RRULE whose UNTIL has DTSTART's value type, as RFC 5545 §3.3.10 requires: a day typed
    /// as the end of a timed series (`weekly until 2027-03-01`) is its last second there, in UTC
    /// for a zoned start; a time that ends an all-day series is its day.
    private func rule(_ r: RecurrenceRule, start: CalendarDate?) -> String {
        var end = r.end
        switch (r.end, start) {
        case (.until(.date(let d)), let start?) where !start.isAllDay:
            let last = LocalDateTime(date: d, hour: 23, minute: 59, second: 59)
            end = start.isFloating ? .until(.local(last)) : .until(.utc(start.zone(floatingZone: floatingZone).instant(for: last)))
        case (.until(.local(let l)), let start?) where start.isAllDay: end = .until(.date(l.date))
        case (.until(.utc(let i)), let start?) where start.isAllDay: end = .until(.date(floatingZone.localTime(at: i).date))
        default: break
        }
        return "RRULE:" + ((try? r.with(end: end)) ?? r).rfc5545
    }

    mutating func todo(_ r: Reminder) -> [String] {
        var lines = ["BEGIN:VTODO", "UID:" + r.externalIdentifier, "DTSTAMP:" + now.utcBasicFormat]
        if r.sequence > 0 { lines.append("SEQUENCE:\(r.sequence)") }
        var extras = r.icsExtras
        lines += Self.keepingParameters(texts(r.title, r.notes, r.location, r.url), of: Self.textPrefixes, in: &extras)
        if let s = r.startDate { lines.append(date("DTSTART", s)) }
        if let d = r.dueDate { lines.append(date("DUE", d)) }
        if r.priority > 0 { lines.append("PRIORITY:\(r.priority)") }
        if r.isCompleted {
            lines.append("STATUS:COMPLETED")
            if let c = r.completionDate { lines.append("COMPLETED:" + c.utcBasicFormat) }
        }
        lines += r.recurrenceRules.map { rule($0, start: r.startDate ?? r.dueDate) }
        lines += Self.propertiesFirst(extras)
        lines += r.alarms.flatMap { alarm($0, title: r.title) }
        lines.append("END:VTODO")
        return lines
    }

    /// A VTIMEZONE for each zone the items used, covering them from their earliest use.
    func timeZones() -> [String] {
        zones.keys.sorted().flatMap { id -> [String] in
            let (zone, from) = zones[id]!
            let to = Instant(secondsSince1970: max(from.secondsSince1970, now.secondsSince1970) + 3 * 366 * 86_400)
            var definition = zone.vTimeZone(from: from, to: to)
            definition.identifier = tzids[id] ?? id
            return definition.contentLines()
        }
    }

    private func texts(_ title: String, _ notes: String?, _ location: String?, _ url: String?) -> [String] {
        var lines = ["SUMMARY:" + ICSText.escape(title)]
        if let notes { lines.append("DESCRIPTION:" + ICSText.escape(notes)) }
        if let location { lines.append("LOCATION:" + ICSText.escape(location)) }
        if let url { lines.append("URL:" + url) }
        return lines
    }

    private mutating func date(_ name: String, _ d: CalendarDate) -> String {
        switch d {
        case .allDay(let day): return "\(name);VALUE=DATE:\(day.basicFormat)"
        case .floating(let l): return "\(name):\(l.basicFormat)"
        case .utc(let l): return "\(name):\(l.basicFormat)Z"
        case .zoned(let l, let z):
            use(z, at: z.instant(for: l))
            return "\(name);TZID=\(ICSProperty.parameterValue(tzids[z.identifier] ?? z.identifier)):\(l.basicFormat)"
        }
    }

    private mutating func recurrenceDates(_ name: String, _ dates: [RecurrenceDate], start: CalendarDate) -> [String] {
        dates.map { d in
            switch d {
            case .date(let day): return "\(name);VALUE=DATE:\(day.basicFormat)"
            case .instant(let i): return "\(name):\(i.utcBasicFormat)"
            case .local(let l):
                // On an all-day series a wall time stays a (floating) date-time, not a date.
                if start.isAllDay { return "\(name):\(l.basicFormat)" }
                return date(name, start.with(local: l))
            }
        }
    }

    private mutating func use(_ zone: ZoneRules, at instant: Instant) {
        if tzids[zone.identifier] == nil { tzids[zone.identifier] = tzid(for: zone) }
        if let known = zones[zone.identifier], known.from <= instant { return }
        zones[zone.identifier] = (zone, instant)
    }

    /// The TZID to write for a zone: its identifier, except that a `POSIX:` zone imported from a
    /// file is written under the file's TZID (`/Europe/CUSTOM`) when that names nothing else —
    /// no tzdata or Windows zone, no other zone of this export. Its VTIMEZONE carries the rules,
    /// so a reader (Chime included) gets the same zone back.
    private func tzid(for zone: ZoneRules) -> String {
        guard let imported = zone.importedTZID, ZoneResolver.namedZone(imported) == nil,
            !tzids.values.contains(imported)
        else { return zone.identifier }
        return imported
    }

    private func alarm(_ a: Alarm, title: String) -> [String] {
        var lines = ["BEGIN:VALARM"]
        let has = { (name: String) in a.icsExtras.contains { $0.hasPrefix(name + ":") || $0.hasPrefix(name + ";") } }
        switch a.trigger {
        case .relative(let offset, .start): lines.append("TRIGGER:" + ISODuration.format(offset))
        case .relative(let offset, .end): lines.append("TRIGGER;RELATED=END:" + ISODuration.format(offset))
        case .absolute(let i): lines.append("TRIGGER;VALUE=DATE-TIME:" + i.utcBasicFormat)
        case .location(let place, let proximity):
            let word = proximity == .enter ? "ARRIVE" : "DEPART"
            let geo = "geo:\(place.latitude),\(place.longitude)"
            lines.append("TRIGGER;VALUE=DATE-TIME:" + AlarmReader.applePlaceholderTrigger.description)
            var apple = "X-APPLE-STRUCTURED-LOCATION;VALUE=URI"
            if place.radius > 0 { apple += ";X-APPLE-RADIUS=\(place.radius)" }
            apple += ";X-TITLE=" + ICSProperty.parameterValue(place.title) + ":" + geo
            // Apple's own line (its address, its map's reference frame) while it names this place.
            if let kept = a.icsExtras.first(where: { AlarmReader.keptApplePlace($0) == place }) { apple = kept }
            lines += [
                apple, "X-APPLE-PROXIMITY:" + word, "PROXIMITY:" + word,
                "BEGIN:VLOCATION", "NAME:" + ICSText.escape(place.title), "URL:" + geo, "END:VLOCATION"
            ]
        }
        // The trigger first, then what the writer adds, then the kept lines: read back, the added
        // lines are kept lines in that same order, so a second export writes the same bytes.
        var added: [String] = []
        if !has("ACTION") { added.append("ACTION:DISPLAY") }
        if !has("DESCRIPTION") { added.append("DESCRIPTION:" + ICSText.escape(title)) }
        lines.insert(contentsOf: added, at: 2)
        // A kept Apple place line is written above, in place of Chime's, or not at all (stale).
        lines += a.icsExtras.filter { !ICalendarText.isLine($0, of: "X-APPLE-STRUCTURED-LOCATION") }
        lines.append("END:VALARM")
        return lines
    }
}
