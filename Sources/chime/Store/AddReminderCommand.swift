import ArgumentParser
import ChimeCore
import ChimeFormat
import ChimeStore

struct AddReminderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reminder",
        abstract: "Add a reminder.",
        // Written out, on one line (error messages repeat it): the parser's own would hide that the title is needed without --edit.
        usage: "chime add reminder [<options>] <title> | --edit [<title>]",
        discussion: """
            \(CLIContext.dateHelp) A reminder with a due time notifies at that time \
            (--no-alarm: never; --alarm 30m: half an hour before instead); one due on a day \
            notifies at 09:00 that day. A repeating reminder needs --due or --start; \
            completing it moves it to its next occurrence.

            Examples:
              chime add reminder "Call the dentist" --due "tomorrow 10am"
              chime add reminder "Water plants" --due "sat 10:00" --repeat weekly
              chime add reminder "Buy milk" --at "Grocery store@52.5208,13.4094"
              chime add reminder "Leave for the airport" --due "tomorrow 6:00" \\
                --alarm 30m --priority 1 --list Travel
              chime add reminder --edit     # a form in $EDITOR, as `chime edit` opens
            """)

    @OptionGroup var options: StoreOptions
    @Argument(help: "The title (with --edit: optional, filled into the form).") var title: String?
    @Option(help: ArgumentHelp("Due date (a date alone: due that day).", valueName: "date")) var due: String?
    @Option(help: ArgumentHelp("Start date.", valueName: "date")) var start: String?
    @Option(help: ArgumentHelp("Time zone of --due/--start: an IANA name, UTC or floating (default: floating).", valueName: "zone"))
    var tz: String = "floating"
    @Option(help: "Priority: 0 none, 1 (highest) … 9 (lowest); 1–4 high, 5 medium, 6–9 low.") var priority: Int = 0
    @Option(
        name: [.long, .customLong("calendar")],
        help: ArgumentHelp("Reminder list name or ID (default: the default list); --calendar says the same.", valueName: "name"),
        completion: .custom(ShellCompletion.calendars))
    var list: String?
    @OptionGroup var item: ItemOptions
    @Flag(help: "Write the reminder in $VISUAL or $EDITOR, in the form `chime edit` opens, filled with the options given.")
    var edit = false

    func validate() throws {
        if !edit, title == nil {
            throw ValidationError(CLIContext.messages("Missing expected argument '<title>' (or --edit to write the reminder in $EDITOR)"))
        }
        // Imported items may be untitled (RFC 5545); one typed on the command line is a slip.
        if let title, title.allSatisfy(\.isWhitespace) {
            throw ValidationError(
                CLIContext.messages("TITLE is empty: give it a name, e.g. {example}", ["example": "chime add reminder \"Call the dentist\" …"]))
        }
        try OptionBounds.check("--priority", priority, ValueBounds.priority)
    }

    func run() throws {
        guard !edit else {
            let store = try options.open(creating: true)
            return try addInEditor(store, target: try ReminderTarget.list(list, in: store))
        }
        // What was typed is read before the store is opened: a mistake makes no new store.
        var reminder = Reminder(title: title ?? "", calendar: "")
        reminder.dueDate = try due.map { try CLIContext.calendarDate($0, option: "--due", tz: tz) }
        reminder.startDate = try start.map { try CLIContext.calendarDate($0, option: "--start", tz: tz) }
        reminder.priority = priority
        try item.apply(to: &reminder, replacingAlarms: true)
        if reminder.dueDate == nil && reminder.startDate == nil, reminder.alarms.contains(where: { if case .relative = $0.trigger { true } else { false } }) {
            throw InputError(
                translatable:
                    "--alarm: an offset counts from the due time, and this reminder has none; give --due, or a date for the alarm (--alarm \"tomorrow 9am\")")
        }
        let store = try options.open(creating: true)
        let target = try ReminderTarget.list(list, in: store)
        reminder.calendarIdentifier = target.identifier
        let saved = try store.save(reminder)
        try item.finishSave(ofItem: saved.identifier, in: store)
        report(saved, target: target, store: store)
    }

    /// What `add` says of the saved reminder (or its JSON document).
    func report(_ saved: Reminder, target: ChimeCore.Calendar, store: EventStore) {
        let title = saved.title
        if options.json {
            print(ItemFormat.document(.reminder(saved), calendarTitle: target.title, zone: CLIContext.zone, identity: AlarmEcho.defaults(for: store).identity))
        } else {
            let messages = CLIContext.messages
            let shownTitle = DisplayText.singleLine(title), calendar = DisplayText.singleLine(target.title)
            if let due = saved.dueDate {
                let when = ItemFormat.human(due, zone: CLIContext.zone, messages: messages)
                print(messages("Added reminder \"{title}\" to {calendar}, due {when}", ["title": shownTitle, "calendar": calendar, "when": when]))
            } else {
                print(messages("Added reminder \"{title}\" to {calendar}", ["title": shownTitle, "calendar": calendar]))
            }
            for r in saved.recurrenceRules { print(messages("Repeats: {rule}", ["rule": ItemFormat.words(r, messages: messages)])) }
            for line in AlarmEcho.lines(for: .reminder(saved), now: CLIContext.now, zone: CLIContext.zone) { print(line) }
            print("ID \(saved.identifier)")
        }
    }
}
