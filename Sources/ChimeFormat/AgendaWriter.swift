import ChimeCore
import ChimeStore

/// Writes agenda lines straight into bytes; this loop runs once per occurrence. An occurrence
/// that spans several days is written under each of them (within the window): its first day
/// when it comes, the later days queued until the writer reaches them, ahead of that day's
/// own events (they started earlier).
public struct AgendaWriter {
    /// The agenda of `window` into `out` (which flushes to stdout when full, or keeps it all for the D-Bus service).
    /// `identity` tells which invitations the user declined: those, and cancelled events, are
    /// marked, or left out with `hidesDeclined`.
    public static func render(
        _ store: EventStore, window: (start: Instant, end: Instant), calendars: [ChimeCore.Calendar]?,
        json: Bool, headings: Bool = true, color: Bool = false, zone: ZoneRules,
        identity: Identity = Identity(), hidesDeclined: Bool = false, messages: Messages = .english,
        into out: inout OutputBuffer
    ) throws {
        var titles: [String: String] = [:]
        for c in try store.calendars(for: .event) { titles[c.identifier] = c.title }
        var writer = AgendaWriter(
            zone: zone, json: json, titles: titles, window: window, color: color,
            headings: headings, identity: identity, hidesDeclined: hidesDeclined, messages: messages)
        var predicate = store.predicateForEvents(start: window.start, end: window.end, calendars: calendars)
        predicate.includesAlarms = false
        predicate.includesDetails = false
        try store.enumerateOccurrences(matching: predicate) { occurrence, _ in
            writer.write(occurrence, to: &out)
        }
        writer.finish(&out)
    }

    let zone: ZoneRules
    let json: Bool
    let titles: [String: String]
    let color: Bool
    /// The window's first and last local day (days since 1970-01-01).
    let firstDay: Int
    let lastDay: Int
    private var currentDay: Int?
    private var count = 0
    /// Later days of multi-day occurrences: (order written, the line), written under their day.
    private var continuations: [(order: Int, line: Line)] = []

    /// Without `headings` (one day, under a heading of the caller's) no day heading is written.
    let headings: Bool
    /// Who the user is, for each occurrence's `answer` in JSON.
    let identity: Identity
    /// What marks an event (``AlarmDefaults/silence(of:)`` for this user, every answer but a
    /// decline counted as ringing).
    let marks: AlarmDefaults
    /// Whether cancelled and declined occurrences are left out instead of marked.
    let hidesDeclined: Bool
    /// The user's language: day headings, marks and "No events." (English: the byte path below).
    let messages: Messages
    /// The time column of an all-day line, `all day` padded to the 13 columns of `09:00–10:00  `.
    let allDayColumn: String
    let dayOfText: DayOfText

    init(
        zone: ZoneRules, json: Bool, titles: [String: String], window: (start: Instant, end: Instant), color: Bool = false,
        headings: Bool = true, identity: Identity = Identity(), hidesDeclined: Bool = false, messages: Messages = .english
    ) {
        self.zone = zone
        self.messages = messages
        let allDay = messages("all day", context: "agenda time")
        allDayColumn = allDay + String(repeating: " ", count: max(1, 13 - DisplayText.columns(allDay)))
        dayOfText = DayOfText(messages)
        self.identity = identity
        var marks = AlarmDefaults()
        marks.identity = identity
        self.marks = marks
        self.hidesDeclined = hidesDeclined
        self.json = json
        self.titles = titles
        self.color = color
        self.headings = headings
        firstDay = zone.localTime(at: window.start).date.daysSinceEpoch
        lastDay = max(firstDay, zone.localTime(at: window.end.adding(-1)).date.daysSinceEpoch)
    }

    /// ` (day 2/3)` after a line of an event over several days.
    private func dayOf(_ day: Int, _ total: Int) -> String { dayOfText.text(day: day, total: total) }

    /// ` (day {day}/{total})` in the user's language, looked up and cut around its two numbers
    /// once: a year of multi-day series asks it on thousands of lines, and filling the template
    /// each time was a fifteenth of a year's agenda.
    struct DayOfText {
        private var pieces: [String] = []
        /// The numbers between the pieces, in the translation's order: true for the day.
        private var slots: [Bool] = []

        init(_ messages: Messages) {
            let dayMark: Character = "\u{E000}", totalMark: Character = "\u{E001}"
            let filled = messages(" (day {day}/{total})", context: "agenda", ["day": String(dayMark), "total": String(totalMark)])
            var current = ""
            for c in filled {
                if c == dayMark || c == totalMark {
                    pieces.append(current)
                    slots.append(c == dayMark)
                    current = ""
                } else {
                    current.append(c)
                }
            }
            pieces.append(current)
        }

        func text(day: Int, total: Int) -> String {
            var out = pieces[0]
            for (i, isDay) in slots.enumerated() {
                out += String(isDay ? day : total)
                out += pieces[i + 1]
            }
            return out
        }
    }

    /// Per stored event, where the text its lines repeat lies in `arena`: built once, not once
    /// per occurrence, and plain ranges, so a line retains and releases nothing for it (with a
    /// class or strings here, reference counting was a sixth of a year's `--json`).
    private struct Labels {
        let title: Range<Int>
        let calendar: Range<Int>
        /// The short identifier as a line shows it (the reference before any `@…`).
        let shownID: Range<Int>
        /// ` (cancelled)`, ` (declined)`, ` (delegated)` after the title; empty for the others.
        let mark: Range<Int>
        /// Cancelled: the title is struck through on a terminal.
        let struck: Bool
        /// For `--json` (else empty): the parts of an occurrence's object that are the same for
        /// every occurrence of the event, escaped once (see ``JSONParts``).
        let ref: Range<Int>, item: Range<Int>, timeTail: Range<Int>, tail: Range<Int>
    }

    /// The bytes ``Labels`` point into.
    private var arena: [UInt8] = []

    private mutating func store(_ text: String) -> Range<Int> {
        let start = arena.count
        arena.append(contentsOf: text.utf8)
        return start..<arena.count
    }

    private func append(_ range: Range<Int>, _ out: inout OutputBuffer) {
        arena.withUnsafeBufferPointer { out.append(bytes: UnsafeBufferPointer(rebasing: $0[range])) }
    }

    private func text(_ range: Range<Int>) -> String { String(decoding: arena[range], as: UTF8.self) }

    /// An occurrence object of `--json`, cut where it varies by occurrence: `ref` then the
    /// occurrence date, `item` through `calendar_id`, the start and the end (the local and UTC
    /// times, then `timeTail`), the occurrence date, `tail` through `"days":[`.
    private struct JSONParts {
        /// `{"ref":"ID` (the identifier escaped, the string not closed).
        let ref: String
        /// `","id":…,"uid":…,"kind":"event","title":…,"calendar":…,"calendar_id":…` (closes `ref`).
        let item: String
        /// `Z","all_day":false,"time_zone":…}` after a timed start's or end's UTC time.
        let timeTail: String
        /// `Z","detached":…,"status":…,"answer":…,"location":…,"days":[` after the occurrence date (UTC).
        let tail: String

        init(_ event: Event, calendarTitle: String, identity: Identity) {
            // Once per event: JSONText.string escapes as OutputBuffer.appendJSON does.
            let json = JSONText.string
            let id = json(event.identifier)
            ref = "{\"ref\":" + id.dropLast()
            item =
                "\",\"id\":" + id + ",\"uid\":" + json(event.externalIdentifier) + ",\"kind\":\"event\",\"title\":" + json(event.title) + ",\"calendar\":"
                + json(calendarTitle)
                + ",\"calendar_id\":" + (event.calendarIdentifier.map(json) ?? "null")
            let zone = event.start.timeZone.map { json($0.identifier) } ?? (event.start.isFloating ? "null" : "\"UTC\"")
            timeTail = "Z\",\"all_day\":false,\"time_zone\":" + zone + "}"
            tail =
                "Z\",\"detached\":" + (event.isDetached ? "true" : "false")
                + ",\"status\":" + json(event.status.rawValue)
                + ",\"answer\":" + (event.answer(of: identity).map { json($0.rawValue) } ?? "null") + ",\"location\":"
                + (event.location.map(json) ?? "null") + ",\"days\":["
        }
    }
    /// Per stored event (by ``StoredEvent/ordinal``), its labels once built: a writer serves one
    /// query, whose ordinals these are.
    private var labels: [Labels?] = []
    /// Table slots of the agenda zone's offsets for starts and for ends (see ZoneRules.offset(at:hint:)):
    /// occurrences come in start order, so the next lookup mostly hits the same slot.
    private var startHint = -2, endHint = -2

    private mutating func label(_ o: EventOccurrence) -> Labels {
        let ordinal = o.source.ordinal
        if ordinal < labels.count, let known = labels[ordinal] { return known }
        let event = o.source.event
        let calendar = event.calendarIdentifier.flatMap { titles[$0] } ?? ""
        let parts = json ? JSONParts(event, calendarTitle: calendar, identity: identity) : nil
        let mark = marks.silence(of: .event(event))
        let label = Labels(
            title: store(DisplayText.itemTitle(event.title)), calendar: store(DisplayText.singleLine(calendar)),
            shownID: store(DisplayText.singleLine(ItemReference.short(event.identifier))),
            mark: store(mark.map { " (" + Self.markText($0, messages) + ")" } ?? ""), struck: mark == .cancelled,
            ref: store(parts?.ref ?? ""), item: store(parts?.item ?? ""),
            timeTail: store(parts?.timeTail ?? ""), tail: store(parts?.tail ?? ""))
        if ordinal >= labels.count { labels.append(contentsOf: repeatElement(nil, count: ordinal + 1 - labels.count)) }
        labels[ordinal] = label
        return label
    }

    mutating func write(_ o: EventOccurrence, to out: inout OutputBuffer) {
        let label = label(o)
        if hidesDeclined && !label.mark.isEmpty { return }
        // Fields are read through `o.source.event.…`; binding the Event to a local would copy it.
        // Times are wall-clock seconds on the agenda's clock (`start`, `end`); a date is made of
        // one only where it is written.
        let allDay = o.isAllDay
        let startInstant = o.start
        let endInstant = o.end
        let start: Int64, end: Int64, endDay: Int
        if allDay {
            let first = Int64(o.startDay.daysSinceEpoch)
            start = first * 86_400
            end = (first + o.source.duration / 86_400) * 86_400
            // An all-day end is exclusive.
            endDay = Int(end / 86_400) - 1
        } else {
            start = startInstant.secondsSince1970 + Int64(zone.offset(at: startInstant, hint: &startHint))
            end = endInstant.secondsSince1970 + Int64(zone.offset(at: endInstant, hint: &endHint))
            // A timed one ending at midnight does not reach into that day.
            let lastSecond = endInstant.adding(-1)
            endDay =
                endInstant > startInstant
                ? Self.day(lastSecond.secondsSince1970 + Int64(zone.offset(at: lastSecond, hint: &endHint))) : Self.day(start)
        }
        let startDay = Self.day(start)
        let coveredLast = max(startDay, endDay)
        let shownFirst = max(startDay, firstDay), shownLast = max(shownFirst, min(coveredLast, lastDay))
        if json {
            // The occurrence shape of docs/json.md; its times match ItemFormat.json(_:zone:), which
            // a test checks. What is the same for every occurrence of the event was escaped once.
            out.append(count == 0 ? JSONText.documentOpening + "\"occurrences\":[\n" : ",\n")
            append(label.ref, &out)
            appendOccurrenceSuffix(o, &out)
            append(label.item, &out)
            appendTime(",\"start\":{\"local\":\"", start, startInstant, allDay: allDay, tail: label.timeTail, &out)
            appendTime(",\"end\":{\"local\":\"", end, endInstant, allDay: allDay, tail: label.timeTail, &out)
            out.append(",\"occurrence\":\""); out.appendExtended(localSeconds: o.occurrenceDate.secondsSince1970)
            append(label.tail, &out)
            for day in shownFirst...shownLast {
                if day > shownFirst { out.append(byte: 44) }
                out.append(byte: 34); out.appendExtended(days: day)
                out.append(byte: 34)
            }
            out.append("]}")
        } else {
            flushContinuations(through: shownFirst, &out)
            heading(shownFirst, &out)
            let total = coveredLast - startDay + 1
            for day in shownFirst...shownLast {
                // The columns besides the title: the time (15), the day note, "  [calendar]  ", the
                // reference; measured only where the title is fitted (on a terminal).
                // Piped, the title is written whole from `arena`: no String per line.
                let title =
                    LineFit.width == nil
                    ? nil
                    : LineFit.title(
                        text(label.title),
                        rest: 15 + label.mark.count
                            + (total > 1 ? DisplayText.columns(dayOf(day - startDay + 1, total)) : 0)
                            + text(label.calendar).count + 6
                            + DisplayText.singleLine(
                                ItemReference.text(
                                    identifier: o.source.event.identifier, occurrence: o.isOccurrenceOfSeries ? o.occurrenceDate : nil,
                                    allDay: allDay, zone: zone, short: true)
                            ).count)
                let line = Line(
                    occurrence: o, day: day, startDay: startDay, coveredLast: coveredLast,
                    startMinute: Self.minuteOfDay(start), endMinute: Self.minuteOfDay(end), label: label, title: title)
                if day == shownFirst { append(line, &out) } else { continuations.append((count, line)) }
            }
        }
        count += 1
    }

    /// What the agenda says of an event that will not happen for the user, in their language:
    /// why its alarms are silent (``AlarmDefaults/silence(of:)``, every invitation counted as
    /// ringing unless declined): cancelled, declined or delegated.
    static func markText(_ silence: AlarmDefaults.Silence, _ messages: Messages) -> String {
        switch silence {
        case .cancelled: messages("cancelled", context: "agenda mark")
        case .declined: messages("declined", context: "agenda mark")
        case .delegated, .notAccepted: messages("delegated", context: "agenda mark")  // not-accepted: never with `marks`' `.all`
        }
    }

    private static func day(_ wall: Int64) -> Int { LocalDateTime.day(ofLocalSeconds: wall) }

    private static func minuteOfDay(_ wall: Int64) -> Int { Int(wall - Int64(day(wall)) * 86_400) / 60 }

    mutating func finish(_ out: inout OutputBuffer) {
        if json { out.append(count == 0 ? JSONText.documentOpening + "\"occurrences\":[]}\n" : "\n]}\n"); return }
        flushContinuations(through: .max, &out)
        if count == 0 { out.append(messages("No events.") + "\n") }
    }

    /// Writes the queued lines of every day up to and including `day`, under their headings.
    private mutating func flushContinuations(through day: Int, _ out: inout OutputBuffer) {
        guard continuations.contains(where: { $0.line.day <= day }) else { return }
        let due = continuations.filter { $0.line.day <= day }.sorted { ($0.line.day, $0.order) < ($1.line.day, $1.order) }
        continuations.removeAll { $0.line.day <= day }
        for entry in due {
            heading(entry.line.day, &out)
            append(entry.line, &out)
        }
    }

    private mutating func heading(_ day: Int, _ out: inout OutputBuffer) {
        guard day != currentDay else { return }
        guard headings else { currentDay = day; return }
        if currentDay != nil { out.append(byte: 10) }
        let d = CivilDate(daysSinceEpoch: day)
        if color { out.append("\u{1b}[1m") }
        if messages.language != nil {
            out.append(messages.dayHeading(d))
        } else {
            out.append(DisplayText.weekdayNames[d.weekday.isoIndex])
            out.append(byte: 32)
            out.append(date: (d.year, d.month, d.day))
        }
        if color { out.append("\u{1b}[0m") }
        out.append(byte: 10)
        currentDay = day
    }

    /// One line of the text agenda: an occurrence on one of the days it covers.
    private struct Line {
        let occurrence: EventOccurrence
        let day: Int, startDay: Int, coveredLast: Int
        /// The start's and end's minutes into their days.
        let startMinute: Int, endMinute: Int
        let label: Labels
        /// The title fitted to the terminal; nil when piped (the whole title from `arena`).
        let title: String?
    }

    /// Writes `line` and its newline, piece by piece into the buffer (no String per line).
    private func append(_ line: Line, _ out: inout OutputBuffer) {
        let (o, day, startDay, coveredLast, label) = (line.occurrence, line.day, line.startDay, line.coveredLast, line.label)
        let (startHour, startMinute) = line.startMinute.quotientAndRemainder(dividingBy: 60)
        let (endHour, endMinute) = line.endMinute.quotientAndRemainder(dividingBy: 60)
        let total = coveredLast - startDay + 1
        out.append(byte: 32); out.append(byte: 32)
        if o.isAllDay || (day != startDay && day != coveredLast) {
            out.append(allDayColumn)
        } else if total == 1 {
            out.append(hour: startHour, minute: startMinute, to: endHour, minute: endMinute)
        } else if day == startDay {
            out.append(hour: startHour, minute: startMinute); out.append(" →      ")
        } else {
            out.append("→ "); out.append(hour: endHour, minute: endMinute); out.append("      ")
        }
        if color && label.struck { out.append("\u{1b}[9m") }
        if let fitted = line.title { out.append(fitted) } else { append(label.title, &out) }
        if color && label.struck { out.append("\u{1b}[0m") }
        append(label.mark, &out)
        if total > 1 { out.append(dayOf(day - startDay + 1, total)) }
        out.append(byte: 32); out.append(byte: 32)
        if color { out.append("\u{1b}[36m") }
        out.append(byte: 91); append(label.calendar, &out); out.append(byte: 93)
        if color { out.append("\u{1b}[0m") }
        out.append(byte: 32); out.append(byte: 32)
        if color { out.append("\u{1b}[2m") }
        append(label.shownID, &out)
        appendOccurrenceSuffix(o, &out)
        if color { out.append("\u{1b}[0m") }
        out.append(byte: 10)
    }

    /// `@` and the occurrence, after an identifier, for an occurrence of a series (nothing
    /// otherwise): ReferenceText.occurrenceText's form, the date on the agenda's clock for all-day,
    /// else the UTC start.
    private func appendOccurrenceSuffix(_ o: EventOccurrence, _ out: inout OutputBuffer) {
        guard o.isOccurrenceOfSeries else { return }
        out.append(byte: 64)
        if o.isAllDay {
            out.appendBasic(days: zone.localTime(at: o.occurrenceDate).date.daysSinceEpoch)
        } else {
            out.appendBasic(localSeconds: o.occurrenceDate.secondsSince1970)
            out.append(byte: 90)
        }
    }

    /// A time: `{"local":…,"utc":…,"all_day":…,"time_zone":…}` (see ItemFormat.json(_:zone:)),
    /// after `opening` (its key and `{"local":"`); a timed one ends with its event's
    /// ``JSONParts/timeTail``. `wall` is its wall-clock seconds.
    private func appendTime(
        _ opening: StaticString, _ wall: Int64, _ instant: Instant, allDay: Bool, tail: Range<Int>,
        _ out: inout OutputBuffer
    ) {
        out.append(bytes: UnsafeBufferPointer(start: opening.utf8Start, count: opening.utf8CodeUnitCount))
        if allDay {
            out.appendExtended(days: Self.day(wall))
            out.append("\",\"utc\":null,\"all_day\":true,\"time_zone\":null}")
            return
        }
        out.appendExtended(localSeconds: wall)
        out.append("\",\"utc\":\""); out.appendExtended(localSeconds: instant.secondsSince1970)
        append(tail, &out)
    }
}
