import ArgumentParser
import ChimeCore
import ChimeFormat
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
        let messages = CLIContext.messages
        let today = zone.localTime(at: now).date
        print(Style.heading(messages("Today, {day}", ["day": messages.dayHeading(today)])))
        fflush(nil)  // the agenda's lines go straight to the file descriptor
        let window = try AgendaCommand.parse(["today"]).window(now: now, zone: zone)
        try AgendaCommand.write(
            store, window: window, calendars: nil, json: false, headings: false,
            hidesDeclined: AlarmEcho.configuration?.agendaHidesDeclined ?? false)
        let due = try store.reminders(
            matching: store.predicateForIncompleteReminders(
                dueStart: nil, dueEnd: zone.instant(for: LocalDateTime(date: today.adding(days: 1))), calendars: nil))
        if !due.isEmpty { print(messages("Reminders due: {count} (chime reminders)", ["count": "\(due.count)"])) }
        // Only the first firing is wanted: peek at the merged stream instead of listing a week of them.
        var alarms = AlarmAgenda(zone: zone, from: now, defaults: AlarmEcho.defaults)
        for source in try store.alarmSources(from: now) { alarms.add(source.item, replaced: source.replaced) }
        if let next = alarms.peek(), next.fireAt <= now.adding(7 * 86_400) {
            let at = zone.localTime(at: next.fireAt)
            print(
                messages(
                    "Next alarm: {day} {time}  {title}",
                    ["day": messages.dayHeading(at.date), "time": DisplayText.hhmm(at), "title": DisplayText.itemTitle(next.item.title)]))
        } else {
            print(messages("Next alarm: none in the next 7 days"))
        }
        print("\n" + messages("chime --help lists every command; chime agenda week shows the next 7 days."))
    }
}
