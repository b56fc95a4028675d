import ArgumentParser
import ChimeCore
import ChimeFormat
import ChimeStore

struct AddEventCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "event",
        abstract: "Add an event.",
        // Written out, on one line (error messages repeat it): the parser's own would hide that the title and --start are needed without --edit.
        usage: "chime add event [<options>] <title> --start <date> | --edit [<title>]",
        discussion: """
            \(CLIContext.dateHelp) A wall time is read on --tz (default: the system zone; \
            'floating' keeps it floating). A date alone, or --all-day, makes an all-day event.

            An --alarm without a sign is that long before the start: --alarm 15m fires a \
            quarter of an hour before. Alarms of all-day events count from 09:00 (the \
            all_day_time setting), so --alarm 1d fires at 09:00 the day before.

            Examples:
              chime add event "Dentist" --start "fri 2pm" --duration 45m --alarm 1h
              chime add event "Stand-up" --start "mon 9:00" --duration 15m \\
                --repeat weekdays --alarm 5m --calendar Work
              chime add event "Holiday" --start "Dec 24" --end "Dec 27" --all-day
              chime add event --edit        # a form in $EDITOR, as `chime edit` opens
            """)

    @OptionGroup var options: StoreOptions
    @Argument(help: "The title (with --edit: optional, filled into the form).") var title: String?
    @Option(parsing: .unconditional, help: ArgumentHelp("Start (with --edit: optional).", valueName: "date")) var start: String?
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "End: a day word as in --start (\"tomorrow 10:00\"), or a time, offset (+90m) or weekday counted from the start; for all-day events the last day, included.",
            valueName: "date")) var end: String?
    @Option(help: ArgumentHelp("Length instead of --end: 45m, 1h30m, 2d (default 1h, or 1 day all-day).", valueName: "duration"))
    var duration: String?
    @Flag(help: "An all-day event (times are dropped).") var allDay = false
    @Option(help: ArgumentHelp("Time zone of --start/--end: an IANA name, UTC or floating.", valueName: "zone")) var tz: String?
    @Option(
        help: ArgumentHelp("Calendar name or ID (default: the default calendar).", valueName: "name"),
        completion: .custom(ShellCompletion.calendars)) var calendar: String?
    @OptionGroup var item: ItemOptions
    @Flag(help: "Write the event in $VISUAL or $EDITOR, in the form `chime edit` opens, filled with the options given.")
    var edit = false

    func validate() throws {
        if !edit {
            // The two things an event cannot do without; --edit asks for them in the form instead.
            guard title != nil else {
                throw ValidationError(CLIContext.messages("Missing expected argument '<title>' (or --edit to write the event in $EDITOR)"))
            }
            guard start != nil else { throw ValidationError(CLIContext.messages("Missing expected argument '{argument}'", ["argument": "--start <date>"])) }
        }
        // Imported items may be untitled (RFC 5545); one typed on the command line is a slip.
        if let title, title.allSatisfy(\.isWhitespace) {
            throw ValidationError(CLIContext.messages("TITLE is empty: give it a name, e.g. {example}", ["example": "chime add event \"Dentist\" …"]))
        }
        if end != nil && duration != nil {
            throw ArgumentParser.ValidationError(CLIContext.messages("use either {first} or {second}, not both", ["first": "--end", "second": "--duration"]))
        }
        if let duration, let seconds = try? Durations.seconds(duration, option: "--duration", phrases: CLIContext.durationPhrases) {
            try OptionBounds.check("--duration", text: duration, seconds: seconds, ValueBounds.durationSeconds)
        }
    }

    func run() throws {
        guard !edit else {
            let store = try options.open(creating: true)
            return try addInEditor(store, target: try EventTarget.calendar(calendar, in: store))
        }
        // What was typed is read before the store is opened: a mistake makes no new store.
        var event = try EventInput.event(
            title: title ?? "", start: start ?? "", end: end, duration: duration, tz: tz, allDay: allDay,
            calendar: "", context: CLIContext.command)
        try item.apply(to: &event, replacingAlarms: true)
        let store = try options.open(creating: true)
        let target = try EventTarget.calendar(calendar, in: store)
        event.calendarIdentifier = target.identifier
        let saved = try store.save(event)
        try item.finishSave(ofItem: saved.identifier, in: store)
        try report(saved, store: store, target: target)
    }

    /// What `add` says of the saved event (or its JSON document).
    func report(_ saved: Event, store: EventStore, target: ChimeCore.Calendar) throws {
        let shown = try store.event(withIdentifier: saved.identifier) ?? saved
        let title = saved.title
        if options.json {
            print(ItemFormat.document(.event(shown), calendarTitle: target.title, zone: CLIContext.zone, identity: AlarmEcho.defaults(for: store).identity))
        } else {
            let messages = CLIContext.messages
            let when =
                ItemFormat.human(shown.start, zone: CLIContext.zone, messages: messages) + ItemFormat.until(shown, zone: CLIContext.zone, messages: messages)
            print(
                messages(
                    "Added event \"{title}\" to {calendar}: {when}",
                    ["title": DisplayText.singleLine(title), "calendar": DisplayText.singleLine(target.title), "when": when]))
            for r in shown.recurrenceRules { print(messages("Repeats: {rule}", ["rule": ItemFormat.words(r, messages: messages)])) }
            if let note = ItemFormat.startOutsideRule(shown, messages: CLIContext.messages) { print(note) }
            for line in AlarmEcho.lines(for: .event(shown), now: CLIContext.now, zone: CLIContext.zone) { print(line) }
            print("ID \(saved.identifier)")
        }
    }
}
