import ArgumentParser
import ChimeCore
import ChimeStore

struct Agenda: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List event occurrences in a window, sorted by start.",
        discussion: """
            Every occurrence that overlaps the window is listed, grouped by day on the system \
            zone's clock ($TZ). Each line ends with the reference `chime show`, `chime edit` and \
            `chime remove` accept: ID for a single event, ID@YYYYMMDDTHHMMSSZ for one occurrence \
            of a recurring event.

            \(CLIContext.dateHelp)

            Examples:
              chime agenda                       # today and the next 6 days
              chime agenda --from 2026-12-01 --days 31 --calendar Work
              chime agenda --days 365 --json > year.json
            """)

    @OptionGroup var options: StoreOptions

    @Option(help: ArgumentHelp("Window start (default: today at 00:00).", valueName: "date"))
    var from: String?

    @Option(help: ArgumentHelp("Window end, exclusive.", valueName: "date"))
    var to: String?

    @Option(help: ArgumentHelp("Window length in days, when --to is not given.", valueName: "n"))
    var days: Int = 7

    @Option(name: .customLong("calendar"), help: ArgumentHelp("Only this calendar (name or ID); repeatable.", valueName: "name"))
    var calendars: [String] = []

    func validate() throws {
        if to != nil && days != 7 { throw ArgumentParser.ValidationError("use either --to or --days, not both") }
        try OptionBounds.check("--days", days, OptionBounds.days)
    }

    func run() throws {
        let zone = CLIContext.zone
        let start = try from.map { try CLIContext.instant($0, option: "--from") }
            ?? zone.instant(for: LocalDateTime(date: zone.localTime(at: CLIContext.now).date))
        let end = try to.map { try CLIContext.instant($0, option: "--to") }
            ?? zone.instant(for: LocalDateTime(date: zone.localTime(at: start).date.adding(days: days)))
        guard end > start else { throw InputError("the window is empty: --to must be after --from") }
        let store = try options.open()
        var titles: [String: String] = [:]
        for c in try store.calendars(for: .event) { titles[c.identifier] = c.title }
        var selected: [ChimeCore.Calendar]?
        if !calendars.isEmpty {
            selected = try calendars.map { name in
                guard let c = try store.calendar(named: name, for: .event) else {
                    throw InputError("--calendar: no event calendar \"\(name)\" (see `chime calendar list`)")
                }
                return c
            }
        }
        var out = OutputBuffer()
        var writer = AgendaWriter(zone: zone, json: options.json, titles: titles)
        try store.enumerateEvents(matching: store.predicateForEvents(start: start, end: end, calendars: selected)) { event, _ in
            writer.write(event, to: &out)
        }
        writer.finish(&out)
        out.flush()
    }
}

/// Writes agenda lines straight into bytes; this loop runs once per occurrence.
struct AgendaWriter {
    let zone: ZoneRules
    let json: Bool
    let titles: [String: String]
    private var currentDay: Int?
    private var count = 0

    init(zone: ZoneRules, json: Bool, titles: [String: String]) {
        self.zone = zone
        self.json = json
        self.titles = titles
    }

    mutating func write(_ e: Event, to out: inout OutputBuffer) {
        let startInstant = e.start.instant(floatingZone: zone)
        let endInstant = e.end.instant(floatingZone: zone)
        let start = e.isAllDay ? LocalDateTime(date: e.start.local.date) : zone.localTime(at: startInstant)
        let end = e.isAllDay ? LocalDateTime(date: e.end.local.date) : zone.localTime(at: endInstant)
        let calendar = e.calendarIdentifier.flatMap { titles[$0] } ?? ""
        if json {
            out.append(count == 0 ? "[\n" : ",\n")
            out.append("{\"ref\":\""); appendReference(e, &out); out.append(byte: 34)
            out.append(",\"id\":"); out.appendJSON(e.identifier)
            out.append(",\"title\":"); out.appendJSON(e.title)
            out.append(",\"calendar\":"); out.appendJSON(calendar)
            out.append(",\"all_day\":"); out.append(e.isAllDay ? "true" : "false")
            out.append(",\"start\":\""); appendLocal(start, allDay: e.isAllDay, &out)
            out.append("\",\"end\":\""); appendLocal(end, allDay: e.isAllDay, &out)
            out.append("\",\"start_utc\":\""); appendUTC(startInstant, &out)
            out.append("\",\"end_utc\":\""); appendUTC(endInstant, &out)
            out.append("\",\"occurrence\":\""); appendUTC(e.occurrenceDate ?? startInstant, &out)
            out.append("\",\"detached\":"); out.append(e.isDetached ? "true" : "false")
            if let location = e.location { out.append(",\"location\":"); out.appendJSON(location) }
            out.append(byte: UInt8(ascii: "}"))
        } else {
            let day = start.date.daysSinceEpoch
            if day != currentDay {
                if currentDay != nil { out.append(byte: 10) }
                out.append(DisplayText.weekdayNames[start.date.weekday.isoIndex])
                out.append(byte: 32)
                out.append(date: (start.date.year, start.date.month, start.date.day))
                out.append(byte: 10)
                currentDay = day
            }
            if e.isAllDay {
                out.append("  all day      ")
            } else {
                out.append("  ")
                out.append(hour: start.hour, minute: start.minute)
                out.append(byte: 45)
                out.append(hour: end.hour, minute: end.minute)
                out.append("  ")
            }
            out.append(DisplayText.itemTitle(e.title))
            out.append("  [")
            out.append(DisplayText.singleLine(calendar))
            out.append("]  ")
            appendReference(e, &out, human: true)
            out.append(byte: 10)
        }
        count += 1
    }

    mutating func finish(_ out: inout OutputBuffer) {
        if json { out.append(count == 0 ? "[]\n" : "\n]\n") } else if count == 0 { out.append("No events.\n") }
    }

    /// What `ItemReference.text` returns, without building a String per line.
    private func appendReference(_ e: Event, _ out: inout OutputBuffer, human: Bool = false) {
        out.append(human ? DisplayText.singleLine(e.identifier) : e.identifier)
        guard e.isRecurring || e.isDetached, let o = e.occurrenceDate else { return }
        let u = o.utc
        out.append(byte: UInt8(ascii: "@"))
        out.append(u.date.year, width: 4); out.append(u.date.month, width: 2); out.append(u.date.day, width: 2)
        out.append(byte: UInt8(ascii: "T"))
        out.append(u.hour, width: 2); out.append(u.minute, width: 2); out.append(u.second, width: 2)
        out.append(byte: UInt8(ascii: "Z"))
    }

    private func appendLocal(_ l: LocalDateTime, allDay: Bool, _ out: inout OutputBuffer) {
        out.append(date: (l.date.year, l.date.month, l.date.day))
        guard !allDay else { return }
        out.append(byte: UInt8(ascii: "T"))
        out.append(hour: l.hour, minute: l.minute)
        out.append(byte: 58)
        out.append(l.second, width: 2)
    }

    private func appendUTC(_ i: Instant, _ out: inout OutputBuffer) {
        appendLocal(i.utc, allDay: false, &out)
        out.append(byte: UInt8(ascii: "Z"))
    }
}
