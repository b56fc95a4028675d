import ArgumentParser
import ChimeCore
import ChimeFormat
import ChimeStore

extension SpanArgument: ExpressibleByArgument {}

struct EditCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Change an event or a reminder.",
        discussion: """
            ID alone changes a whole event series or a reminder. ID@OCCURRENCE (as `chime agenda` \
            prints it) changes one occurrence of a recurring event with --span this (the \
            default), or it and all later ones with --span future (the series is split there).
            Without options the item opens in $VISUAL or $EDITOR as a short form; a form that \
            does not read comes back with the error on top, and one saved unchanged changes \
            nothing. Options that are not given are left as they are; --alarm replaces the alarms, \
            --remove-alarm drops one, --no-alarm drops all. ID may be any unique start of \
            the ID, or a title only one item has. Every edit raises the item's iCalendar \
            SEQUENCE, so other calendar clients and CalDAV servers see the change.

            \(CLIContext.dateHelp)

            Examples:
              chime edit 6f1c2a9e@20261203T080000Z --start "dec 3 2pm"
              chime edit 6f1c2a9e@20261210T080000Z --span future --start "9:30"
              chime edit "Call the dentist" --due "tomorrow 6pm" --priority 1
              chime edit 9a2b41c0 --calendar Work --remove-alarm 15m
              chime edit 9a2b41c0                # in $EDITOR
            """)

    @OptionGroup var options: StoreOptions
    @Argument(help: "ID (or its start), ID@OCCURRENCE, or a title.", completion: .custom(ShellCompletion.items)) var id: String
    @Option(help: "New title.") var title: String?
    @Option(parsing: .unconditional, help: ArgumentHelp("New start (events; the end moves with it unless --end is given).", valueName: "date")) var start:
        String?
    @Option(parsing: .unconditional, help: ArgumentHelp("New end (events).", valueName: "date")) var end: String?
    @Option(parsing: .unconditional, help: ArgumentHelp("New due date (reminders).", valueName: "date")) var due: String?
    @Option(help: ArgumentHelp("Time zone of the new dates (default: the item's own zone).", valueName: "zone")) var tz: String?
    @Option(help: "New priority, 0…9 (reminders).") var priority: Int?
    @Option(
        help: ArgumentHelp("Move to this calendar (events) or list (reminders), by name or ID.", valueName: "name"),
        completion: .custom(ShellCompletion.calendars)) var calendar: String?
    @Flag(help: "Stop repeating (drops every recurrence rule).") var noRepeat = false
    @Option(help: "For one occurrence of a recurring event: this one, or this and all later ones; 'all' confirms moving a whole series to another day.")
    var span: SpanArgument = .this
    @OptionGroup var item: ItemOptions

    func validate() throws {
        if let priority { try OptionBounds.check("--priority", priority, ValueBounds.priority) }
    }

    func run() throws {
        let store = try options.open()
        let reference = try ItemReference(id)
        let identifier = try reference.resolvedIdentifier(in: store)
        if !changesSomething {
            try editInEditor(reference, identifier: identifier, store: store)
            return
        }
        // Read, change and save in one transaction: a change another process makes at the same
        // moment is neither lost nor overwritten with a stale copy.
        switch try reference.kind(in: store) {
        case .event:
            let target = try calendar.map { try EventTarget.calendar($0, in: store) }
            if self.span == .all && reference.occurrence != nil {
                throw InputError(translatable: "--span all changes a whole series: name it without @…, or use --span this or future")
            }
            // Without @OCCURRENCE the whole series changes: that is --span future on its first occurrence.
            let span = reference.occurrence == nil ? Span.futureEvents : self.span.span
            var dropped: [Event] = []
            if reference.occurrence == nil, start != nil || end != nil || tz != nil {
                guard let lost = try seriesMoveLosses(identifier, store: store) else {
                    print(CLIContext.messages("Kept \"{id}\" as it was.", ["id": id]))
                    return
                }
                dropped = lost
            }
            let saved = try store.modifyEvent(
                identifier: identifier, occurrence: reference.occurrence?.instant(in: store.floatingZone),
                span: span
            ) { e in
                try change(&e)
                if let target { e.calendarIdentifier = target.identifier }
                e.sequence += 1
            }
            // The command belongs to the whole item (series), as the alarms it runs with do.
            try item.finishSave(ofItem: identifier, in: store)
            report(.event(saved), store: store, wholeSeries: reference.occurrence == nil, movedTo: target?.title)
            if !dropped.isEmpty && !options.json {
                print(
                    CLIContext.messages.plural(
                        "Dropped the changed occurrence of {list}: no such day in the moved series",
                        "Dropped the {count} changed occurrences ({list}): no such day in the moved series", count: dropped.count,
                        ["list": Self.occurrenceList(dropped)]))
            }
        case .reminder:
            let target = try calendar.map { try ReminderTarget.list($0, in: store, option: "--calendar") }
            let saved = try store.modifyReminder(identifier: identifier) { r in
                try change(&r)
                if let target { r.calendarIdentifier = target.identifier }
                r.sequence += 1
            }
            try item.finishSave(ofItem: identifier, in: store)
            report(.reminder(saved), store: store, movedTo: target?.title)
        }
    }

    private func change(_ e: inout Event) throws {
        if let title { e.title = title }
        if let start {
            EventEnd.move(
                &e, to: try CLIContext.command.keepingDate(of: e.start, start, option: "--start", tz: tz ?? e.start.timeZone?.identifier),
                zone: CLIContext.zone)
        }
        if let end {
            e.end = try EventEnd.read(
                end, start: e.start, option: "--end", tz: tz ?? e.start.timeZone?.identifier ?? (e.start.isFloating ? "floating" : nil),
                context: CLIContext.command)
        }
        if noRepeat { e.recurrenceRules = [] }
        try item.apply(to: &e, replacingAlarms: !item.alarms.isEmpty || item.at != nil)
    }

    private func change(_ r: inout Reminder) throws {
        if let title { r.title = title }
        if let due {
            let tz = tz ?? r.dueDate?.timeZone?.identifier ?? "floating"
            r.dueDate =
                try r.dueDate.map { try CLIContext.command.keepingDate(of: $0, due, option: "--due", tz: tz) }
                ?? CLIContext.calendarDate(due, option: "--due", tz: tz)
        }
        if let priority { r.priority = priority }
        if noRepeat { r.recurrenceRules = [] }
        try item.apply(to: &r, replacingAlarms: !item.alarms.isEmpty || item.at != nil)
    }

    /// Whether any option asks for a change; without one the item opens in the editor.
    private var changesSomething: Bool {
        title != nil || start != nil || end != nil || due != nil || tz != nil || priority != nil || calendar != nil || noRepeat
            || item.notes != nil || item.location != nil || item.url != nil || !item.rules.isEmpty || !item.alarms.isEmpty
            || item.noAlarm || !item.removedAlarms.isEmpty || item.at != nil || item.sound != nil || item.changesCommand
    }

    /// The item as a form in $VISUAL/$EDITOR; a form that does not read is reopened with the
    /// error on top, an unchanged one saves nothing. The change is saved as the options would.
    private func editInEditor(_ reference: ItemReference, identifier: String, store: EventStore) throws {
        let zone = CLIContext.zone
        let original = EditForm(try reference.resolve(in: store), zone: zone)
        let changed = try EditForm.session(original) { form in
            switch try reference.kind(in: store) {
            case .event:
                let span = reference.occurrence == nil ? Span.futureEvents : self.span.span
                let stored = try store.modifyEvent(
                    identifier: identifier, occurrence: reference.occurrence?.instant(in: store.floatingZone),
                    span: span
                ) { e in
                    try form.apply(to: &e, original: original)
                    e.sequence += 1
                }
                // A whole series is named by its ID: its first occurrence may have moved.
                report(.event(stored), store: store, wholeSeries: reference.occurrence == nil)
            case .reminder:
                let stored = try store.modifyReminder(identifier: identifier) { r in
                    try form.apply(to: &r, original: original)
                    r.sequence += 1
                }
                report(.reminder(stored), store: store)
            }
        }
        if changed { try store.confirmAlarmCommandTiming(forItem: identifier) } else { print(CLIContext.messages("No change.")) }
    }

    /// What moving a whole series as the options say would lose: the changed occurrences with no
    /// place in the moved series (returned, named after saving) and, when its first day moves
    /// later, the occurrences before it. Anything lost is said and asked about (without a
    /// terminal: refused unless `--span all`); nil when the user said no.
    private func seriesMoveLosses(_ identifier: String, store: EventStore) throws -> [Event]? {
        guard let first = try store.event(withIdentifier: identifier), first.isRecurring else { return [] }
        var moved = first
        try change(&moved)
        let zone = store.floatingZone
        let detached = try store.detachedOccurrences(ofSeries: identifier)
        let dropped = detached.filter { d in d.occurrenceDate.map { first.placeOfOccurrence(at: $0, inMoved: moved, floatingZone: zone) == nil } ?? false }
        // Occurrences on days before the moved start's day are gone (a new time the same day is not a loss).
        let clock = moved.start.zone(floatingZone: zone)
        let firstDay = first.start.instant(floatingZone: zone)
        let newFirstDay = clock.instant(for: LocalDateTime(date: clock.localTime(at: moved.start.instant(floatingZone: zone)).date))
        let skipped =
            newFirstDay > firstDay
            ? try store.events(matching: store.predicateForEvents(start: firstDay, end: newFirstDay))
                .filter { $0.identifier == identifier && ($0.occurrenceDate ?? $0.start.instant(floatingZone: zone)) < newFirstDay }
            : []
        guard (!dropped.isEmpty || !skipped.isEmpty) && span != .all else { return dropped }
        let messages = CLIContext.messages
        var losses: [String] = []
        if !skipped.isEmpty {
            losses.append(
                messages.plural(
                    "the occurrence of {list} before it", "the {count} occurrences ({list}) before it", count: skipped.count,
                    ["list": Self.occurrenceList(skipped)]))
        }
        if !dropped.isEmpty {
            losses.append(
                messages.plural(
                    "the changed occurrence of {list}, which would have no day in it",
                    "the {count} changed occurrences ({list}), which would have no day in it", count: dropped.count,
                    ["list": Self.occurrenceList(dropped)]))
        }
        let what = messages(
            "\"{title}\" repeats ({rule}); moving it to start {start} drops {losses}",
            [
                "title": DisplayText.itemTitle(first.title), "rule": first.recurrenceRules.first.map { ItemFormat.words($0, messages: messages) } ?? "",
                "start": ItemFormat.human(moved.start, zone: CLIContext.zone, messages: messages),
                "losses": losses.count == 2 ? messages("{first} and {second}", ["first": losses[0], "second": losses[1]]) : losses[0]
            ])
        let refusal = messages(
            "{what}. To change the time only, give a time (--start 10:15); to change it from one day on: {command} --span future … (as `chime agenda` shows it); to move the whole series anyway: --span all",
            ["what": what, "command": "chime edit \(identifier.prefix(8))@OCCURRENCE"])
        return try Confirmation.ask(messages("{what}. Move the whole series?", ["what": what]), refusal: InputError(refusal)) ? dropped : nil
    }

    /// The first three occurrences as the user's language writes them: `Mon 2026-12-07 09:00, …`.
    static func occurrenceList(_ events: [Event]) -> String {
        let dates = events.prefix(3).map { e in
            ItemFormat.human(
                e.occurrenceDate.map { e.start.with(instant: $0, floatingZone: CLIContext.zone) } ?? e.start, zone: CLIContext.zone,
                messages: CLIContext.messages)
        }
        return dates.joined(separator: ", ") + (events.count > 3 ? ", …" : "")
    }

    private func report(_ item: AnyCalendarItem, store: EventStore, wholeSeries: Bool = false, movedTo calendar: String? = nil) {
        let zone = CLIContext.zone
        if options.json {
            print(ItemFormat.document(item, calendarTitle: nil, zone: zone, identity: AlarmEcho.defaults(for: store).identity))
            return
        }
        let messages = CLIContext.messages
        if case .event(let e) = item {
            let title = DisplayText.itemTitle(e.title), when = ItemFormat.human(e.start, zone: zone, messages: messages)
            print(
                e.isDetached
                    ? messages("Saved \"{title}\" (this occurrence only): {when}", ["title": title, "when": when])
                    : messages("Saved \"{title}\": {when}", ["title": title, "when": when]))
        } else if case .reminder(let r) = item {
            let title = DisplayText.itemTitle(r.title)
            if let due = r.dueDate {
                print(messages("Saved \"{title}\", due {when}", ["title": title, "when": ItemFormat.human(due, zone: zone, messages: messages)]))
            } else {
                print(messages("Saved \"{title}\"", ["title": title]))
            }
        }
        if let calendar { print(messages("Moved to {calendar}", ["calendar": DisplayText.singleLine(calendar)])) }
        // A new repeat is said back in words, as `add` says it: a phrase typed may read otherwise.
        if !self.item.rules.isEmpty {
            let rules: [RecurrenceRule] =
                switch item {
                case .event(let e): e.recurrenceRules
                case .reminder(let r): r.recurrenceRules
                }
            for r in rules { print(messages("Repeats: {rule}", ["rule": ItemFormat.words(r, messages: messages)])) }
        }
        for line in AlarmEcho.lines(for: item, now: CLIContext.now, zone: zone) { print(line) }
        // A whole series is named by its ID alone: its first occurrence's start may just have moved.
        if case .event(let e) = item, !wholeSeries { print("ID \(ItemReference.text(e, zone: zone))") } else { print("ID \(item.identifier)") }
    }
}
