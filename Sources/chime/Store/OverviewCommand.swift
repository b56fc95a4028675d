import ArgumentParser
import ChimeCore
import ChimeStore
import Glibc

/// `chime` alone: today's agenda, what fires next, and where the rest is.
struct OverviewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "overview",
        abstract: "Today's agenda and the next alarm (what `chime` alone shows).",
        shouldDisplay: false)

    @OptionGroup var options: StoreOptions
    @OptionGroup var colorOption: ColorOption

    func run() throws {
        colorOption.apply()
        let zone = CLIContext.zone
        let now = CLIContext.now
        let store = try options.open()
        var agenda = try AgendaCommand.parse(["today"])
        agenda.options = options
        let today = zone.localTime(at: now).date
        print(Style.heading("Today, \(DisplayText.dayHeading(today))"))
        fflush(nil)   // the agenda's lines go straight to the file descriptor
        let (start, end) = try agenda.window(now: now, zone: zone)
        var out = OutputBuffer()
        var titles: [String: String] = [:]
        for c in try store.calendars(for: .event) { titles[c.identifier] = c.title }
        var writer = AgendaWriter(zone: zone, json: false, titles: titles, window: (start, end), color: Style.enabled, headings: false)
        var predicate = store.predicateForEvents(start: start, end: end, calendars: nil)
        predicate.includesAlarms = false
        try store.enumerateOccurrences(matching: predicate) { occurrence, _ in
            writer.write(occurrence, to: &out)
        }
        writer.finish(&out)
        out.flush()
        let due = try store.reminders(matching: store.predicateForIncompleteReminders(
            dueStart: nil, dueEnd: zone.instant(for: LocalDateTime(date: today.adding(days: 1))), calendars: nil))
        if !due.isEmpty { print("Reminders due: \(due.count) (chime reminders)") }
        let firings = AlarmAgenda.firings(of: try store.alarmSources(from: now).map { ($0.item, $0.replaced) }, zone: zone,
                                          from: now, to: now.adding(7 * 86_400), defaults: AlarmEcho.defaults)
        if let next = firings.min(by: { $0.fireAt < $1.fireAt }) {
            let at = zone.localTime(at: next.fireAt)
            print("Next alarm: \(DisplayText.dayHeading(at.date)) \(DisplayText.hhmm(at))  \(DisplayText.itemTitle(next.item.title))")
        } else {
            print("Next alarm: none in the next 7 days")
        }
        print("\nchime --help lists every command; chime agenda week shows the next 7 days.")
    }
}
