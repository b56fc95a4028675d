import ArgumentParser
import ChimeCore
import ChimeFormat
import ChimeStore

struct RemindersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reminders",
        abstract: "List reminders: incomplete ones by due date, or completed ones.",
        discussion: """
            A repeating reminder shows only its current instance. \(CLIContext.dateHelp)

            Examples:
              chime reminders
              chime reminders --due-before "tomorrow 0:00" --list Work
              chime reminders --completed --json
            """)

    @OptionGroup var options: StoreOptions
    @OptionGroup var colorOption: ColorOption
    @OptionGroup var bus: ViaBusOption
    @Flag(help: "Completed reminders, most recent first.") var completed = false
    @Option(help: ArgumentHelp("Only incomplete reminders due before this.", valueName: "date")) var dueBefore: String?
    @Option(
        name: .customLong("list"), help: ArgumentHelp("Only this list (name or ID); repeatable.", valueName: "name"),
        completion: .custom(ShellCompletion.calendars))
    var lists: [String] = []

    func validate() throws {
        if completed && dueBefore != nil {
            throw ArgumentParser.ValidationError(CLIContext.messages("--due-before applies to incomplete reminders, not with --completed"))
        }
    }

    func run() throws {
        colorOption.apply()
        if bus.viaBus {
            guard lists.isEmpty && dueBefore == nil else { throw InputError(translatable: "--list and --due-before do not go with --via-bus") }
            let completed = self.completed
            return try bus.run(needing: .reminder) { try await $0.reminders(completed: completed) }
        }
        let store = try options.open()
        let selected: [ChimeCore.Calendar]? = lists.isEmpty ? nil : try lists.map { try ReminderTarget.list($0, in: store) }
        let predicate =
            completed
            ? store.predicateForCompletedReminders(completionStart: nil, completionEnd: nil, calendars: selected)
            : store.predicateForIncompleteReminders(
                dueStart: nil, dueEnd: try dueBefore.map { try CLIContext.instant($0, option: "--due-before") },
                calendars: selected)
        let found = try store.reminders(matching: predicate)
        var titles: [String: String] = [:]
        for c in try store.calendars(for: .reminder) { titles[c.identifier] = c.title }
        if options.json {
            let identity = AlarmEcho.defaults(for: store).identity
            print(
                JSONText.document([
                    (
                        "reminders",
                        JSONText.array(
                            found.map {
                                ItemFormat.json(
                                    .reminder($0), calendarTitle: $0.calendarIdentifier.flatMap { titles[$0] }, zone: CLIContext.zone, identity: identity)
                            })
                    )
                ]))
            return
        }
        let messages = CLIContext.messages
        if found.isEmpty { print(completed ? messages("No completed reminders.") : messages("Nothing to do.")); return }
        for r in found {
            // The parts after the title, plain (`plain`) to measure them and as shown (`shown`, maybe coloured).
            var plain = "", shown = ""
            func add(_ text: String, styled: String? = nil) { plain += text; shown += styled ?? text }
            if r.priority > 0 { add("  !\(r.priority)") }
            if let due = r.dueDate {
                let overdue = !r.isCompleted && Self.isOverdue(due, now: CLIContext.now, zone: CLIContext.zone)
                if overdue {
                    let text = messages("overdue since {date}", ["date": Self.listed(due, zone: CLIContext.zone, messages: messages)])
                    add("  " + text, styled: "  " + Style.overdue(text))
                } else {
                    add("  " + messages("due {date}", ["date": Self.listed(due, zone: CLIContext.zone, messages: messages)]))
                }
            }
            if let done = r.completionDate {
                add("  " + messages("done {date}", ["date": ItemFormat.human(.utc(CLIContext.zone.localTime(at: done)), zone: .utc, messages: messages)]))
            }
            if !r.recurrenceRules.isEmpty { add("  " + messages("repeats", context: "reminder list")) }
            if r.alarms.contains(where: { $0.structuredLocation != nil }) { add("  📍") }
            add("  [\(DisplayText.singleLine(r.calendarIdentifier.flatMap { titles[$0] } ?? ""))]  ")
            let reference = DisplayText.singleLine(ItemReference.short(r.identifier))
            add(reference, styled: Style.reference(reference))
            let box = r.isCompleted ? "[x] " : "[ ] "
            print(box + LineFit.title(DisplayText.itemTitle(r.title), rest: box.count + plain.count) + shown)
        }
    }

    /// A due date in the list: `Tue 2026-11-24 10:00`, or the day alone for an all-day one, without
    /// the "(floating)" and "(all day)" that `show` adds, so a line fits 80 columns; a time in
    /// another zone is said as `show` says it.
    static func listed(_ due: CalendarDate, zone: ZoneRules, messages: Messages = .english) -> String {
        switch due {
        case .allDay(let d): return messages.dayHeading(d)
        case .floating(let l): return "\(messages.dayHeading(l.date)) \(DisplayText.hhmm(l))"
        case .utc, .zoned: return ItemFormat.human(due, zone: zone, messages: messages)
        }
    }

    /// Past its due time (a due date alone: once that day is over, on the display zone's clock).
    static func isOverdue(_ due: CalendarDate, now: Instant, zone: ZoneRules) -> Bool {
        if due.isAllDay { return due.local.date < zone.localTime(at: now).date }
        return due.instant(floatingZone: zone) < now
    }
}
