import ArgumentParser
import ChimeCore
import ChimeStore

struct Add: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Add an event or a reminder.",
        subcommands: [AddEvent.self, AddReminder.self])
}

struct AddEvent: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "event",
        abstract: "Add an event.",
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
            """)

    @OptionGroup var options: StoreOptions
    @Argument(help: "The title.") var title: String
    @Option(help: ArgumentHelp("Start.", valueName: "date")) var start: String
    @Option(help: ArgumentHelp("End (exclusive for all-day events: the day after the last).", valueName: "date")) var end: String?
    @Option(help: ArgumentHelp("Length instead of --end: 45m, 1h30m, 2d (default 1h, or 1 day all-day).", valueName: "duration"))
    var duration: String?
    @Flag(help: "An all-day event (times are dropped).") var allDay = false
    @Option(help: ArgumentHelp("Time zone of --start/--end: an IANA name, UTC or floating.", valueName: "zone")) var tz: String?
    @Option(help: ArgumentHelp("Calendar name or ID (default: the default calendar).", valueName: "name")) var calendar: String?
    @OptionGroup var item: ItemOptions

    func validate() throws {
        // Imported items may be untitled (RFC 5545); one typed on the command line is a slip.
        guard !title.allSatisfy(\.isWhitespace) else { throw ValidationError("TITLE is empty: give it a name, e.g. chime add event \"Dentist\" …") }
        if end != nil && duration != nil { throw ArgumentParser.ValidationError("use either --end or --duration, not both") }
        if let duration, let seconds = try? Durations.seconds(duration, option: "--duration") {
            try OptionBounds.check("--duration", text: duration, seconds: seconds, OptionBounds.durationSeconds)
        }
    }

    func run() throws {
        let store = try options.open(creating: true)
        let target = try EventTarget.calendar(calendar, in: store)
        var startDate = try CLIContext.calendarDate(start, option: "--start", tz: tz)
        if allDay { startDate = .allDay(startDate.local.date) }
        var event: Event
        if let end {
            // `--start "mon 9:00" --end "wed 17:00"`: the end's words count from the start.
            let after = startDate.instant(floatingZone: CLIContext.zone)
            var endDate = try CLIContext.calendarDate(end, option: "--end", tz: tz, relativeTo: after)
            if startDate.isAllDay { endDate = .allDay(endDate.local.date) }
            event = Event(title: title, calendar: target.identifier, start: startDate, end: endDate)
        } else {
            let length = try duration.map { try Durations.seconds($0, option: "--duration") } ?? (startDate.isAllDay ? 86_400 : 3600)
            event = Event(title: title, calendar: target.identifier, start: startDate, duration: length)
        }
        try item.apply(to: &event, replacingAlarms: true)
        let saved = try store.save(event)
        let shown = try store.event(withIdentifier: saved.identifier) ?? saved
        if options.json {
            print(ItemFormat.json(.event(shown), calendarTitle: target.title, zone: CLIContext.zone))
        } else {
            print("Added event \"\(DisplayText.singleLine(title))\" to \(DisplayText.singleLine(target.title)): \(ItemFormat.human(shown.start, zone: CLIContext.zone))")
            for r in shown.recurrenceRules { print("Repeats: \(r.summary)") }
            for line in AlarmEcho.lines(for: .event(shown), now: CLIContext.now, zone: CLIContext.zone) { print(line) }
            print("ID \(saved.identifier)")
        }
    }
}

struct AddReminder: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reminder",
        abstract: "Add a reminder.",
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
            """)

    @OptionGroup var options: StoreOptions
    @Argument(help: "The title.") var title: String
    @Option(help: ArgumentHelp("Due date (a date alone: due that day).", valueName: "date")) var due: String?
    @Option(help: ArgumentHelp("Start date.", valueName: "date")) var start: String?
    @Option(help: ArgumentHelp("Time zone of --due/--start: an IANA name, UTC or floating (default: floating).", valueName: "zone"))
    var tz: String = "floating"
    @Option(help: "Priority: 0 none, 1 (highest) … 9 (lowest); 1–4 high, 5 medium, 6–9 low.") var priority: Int = 0
    @Option(help: ArgumentHelp("Reminder list name or ID (default: the default list).", valueName: "name")) var list: String?
    @OptionGroup var item: ItemOptions

    func validate() throws {
        // Imported items may be untitled (RFC 5545); one typed on the command line is a slip.
        guard !title.allSatisfy(\.isWhitespace) else { throw ValidationError("TITLE is empty: give it a name, e.g. chime add reminder \"Call the dentist\" …") }
        try OptionBounds.check("--priority", priority, OptionBounds.priority)
    }

    func run() throws {
        let store = try options.open(creating: true)
        let target = try ReminderTarget.list(list, in: store)
        var reminder = Reminder(title: title, calendar: target.identifier)
        reminder.dueDate = try due.map { try CLIContext.calendarDate($0, option: "--due", tz: tz) }
        reminder.startDate = try start.map { try CLIContext.calendarDate($0, option: "--start", tz: tz) }
        reminder.priority = priority
        try item.apply(to: &reminder, replacingAlarms: true)
        let saved = try store.save(reminder)
        if options.json {
            print(ItemFormat.json(.reminder(saved), calendarTitle: target.title, zone: CLIContext.zone))
        } else {
            let when = saved.dueDate.map { ", due \(ItemFormat.human($0, zone: CLIContext.zone))" } ?? ""
            print("Added reminder \"\(DisplayText.singleLine(title))\" to \(DisplayText.singleLine(target.title))\(when)")
            for r in saved.recurrenceRules { print("Repeats: \(r.summary)") }
            for line in AlarmEcho.lines(for: .reminder(saved), now: CLIContext.now, zone: CLIContext.zone) { print(line) }
            print("ID \(saved.identifier)")
        }
    }
}

enum EventTarget {
    static func calendar(_ name: String?, in store: EventStore) throws -> ChimeCore.Calendar {
        guard let name else { return try store.defaultCalendarForNewEvents() }
        guard let c = try store.calendar(named: name, for: .event) else {
            throw InputError("--calendar: no event calendar \"\(name)\" (create it with `chime calendar add \"\(name)\"`)")
        }
        return c
    }
}

enum ReminderTarget {
    static func list(_ name: String?, in store: EventStore) throws -> ChimeCore.Calendar {
        guard let name else { return try store.defaultCalendarForNewReminders() }
        guard let c = try store.calendar(named: name, for: .reminder) else {
            throw InputError("--list: no reminder list \"\(name)\" (create it with `chime calendar add \"\(name)\" --type reminders`)")
        }
        return c
    }
}
