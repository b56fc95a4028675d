import ArgumentParser
import ChimeCore
import ChimeStore

/// `--span`: which occurrences of a recurring event a change applies to.
enum SpanArgument: String, ExpressibleByArgument, CaseIterable {
    case this, future
    var span: Span { self == .this ? .thisEvent : .futureEvents }
}

struct Edit: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Change an event or a reminder.",
        discussion: """
            ID alone changes a whole event series or a reminder. ID@OCCURRENCE (as `chime agenda` \
            prints it) changes one occurrence of a recurring event with --span this (the \
            default), or it and all later ones with --span future (the series is split there).
            Options that are not given are left as they are; --alarm replaces the alarms.

            \(CLIContext.dateHelp)

            Examples:
              chime edit 6F1C…@20261203T080000Z --start "2026-12-03T14:00" --title "Stand-up (moved)"
              chime edit 6F1C…@20261210T080000Z --span future --start 2026-12-10T09:30
              chime edit 9A2B… --due "tomorrow 18:00" --priority 1
            """)

    @OptionGroup var options: StoreOptions
    @Argument(help: "ID or ID@YYYYMMDDTHHMMSSZ.") var id: String
    @Option(help: "New title.") var title: String?
    @Option(help: ArgumentHelp("New start (events; the end moves with it unless --end is given).", valueName: "date")) var start: String?
    @Option(help: ArgumentHelp("New end (events).", valueName: "date")) var end: String?
    @Option(help: ArgumentHelp("New due date (reminders).", valueName: "date")) var due: String?
    @Option(help: ArgumentHelp("Time zone for the new dates.", valueName: "zone")) var tz: String?
    @Option(help: "New priority, 0…9 (reminders).") var priority: Int?
    @Flag(help: "Stop repeating (drops every recurrence rule).") var noRepeat = false
    @Option(help: "For one occurrence of a recurring event: this one, or this and all later ones.") var span: SpanArgument = .this
    @OptionGroup var item: ItemOptions

    func validate() throws {
        if let priority { try OptionBounds.check("--priority", priority, OptionBounds.priority) }
    }

    func run() throws {
        let store = try options.open()
        let reference = try ItemReference(id)
        // Read, change and save in one transaction: a change another process makes at the same
        // moment is neither lost nor overwritten with a stale copy.
        switch try reference.kind(in: store) {
        case .event:
            // Without @OCCURRENCE the whole series changes: that is --span future on its first occurrence.
            let span = reference.occurrence == nil ? Span.futureEvents : self.span.span
            let saved = try store.modifyEvent(identifier: reference.identifier, occurrence: reference.occurrence, span: span) { e in
                try change(&e)
            }
            report(.event(saved), store: store)
        case .reminder:
            let saved = try store.modifyReminder(identifier: reference.identifier) { r in try change(&r) }
            report(.reminder(saved), store: store)
        }
    }

    private func change(_ e: inout Event) throws {
        if let title { e.title = title }
        let duration = e.durationSeconds(floatingZone: CLIContext.zone)
        if let start {
            e.start = try CLIContext.calendarDate(start, option: "--start", tz: tz ?? e.start.timeZone?.identifier)
            if e.isAllDay { e.end = .allDay(e.start.local.date.adding(days: max(1, Int(duration / 86_400)))) } else {
                e.end = e.start.with(instant: Instant(secondsSince1970: e.start.instant(floatingZone: CLIContext.zone).secondsSince1970 + duration),
                                     floatingZone: CLIContext.zone)
            }
        }
        if let end { e.end = try CLIContext.calendarDate(end, option: "--end", tz: tz ?? e.start.timeZone?.identifier) }
        if noRepeat { e.recurrenceRules = [] }
        try item.apply(to: &e, replacingAlarms: !item.alarms.isEmpty || item.at != nil)
    }

    private func change(_ r: inout Reminder) throws {
        if let title { r.title = title }
        if let due { r.dueDate = try CLIContext.calendarDate(due, option: "--due", tz: tz ?? r.dueDate?.timeZone?.identifier ?? "floating") }
        if let priority { r.priority = priority }
        if noRepeat { r.recurrenceRules = [] }
        try item.apply(to: &r, replacingAlarms: !item.alarms.isEmpty || item.at != nil)
    }

    private func report(_ item: AnyCalendarItem, store: EventStore) {
        if options.json {
            print(ItemFormat.json(item, calendarTitle: nil, zone: CLIContext.zone))
        } else if case .event(let e) = item {
            print("Saved \"\(DisplayText.itemTitle(e.title))\"\(e.isDetached ? " (this occurrence only)" : ""): \(ItemFormat.human(e.start, zone: CLIContext.zone))")
            print("ID \(ItemReference.text(e))")
        } else {
            print("Saved \"\(DisplayText.itemTitle(item.title))\"")
        }
    }
}

struct Remove: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Remove an event, some occurrences of one, or a reminder.",
        discussion: """
            ID alone removes the whole event series or the reminder. ID@OCCURRENCE removes one \
            occurrence (--span this, the default) or it and every later one (--span future).
            """)

    @OptionGroup var options: StoreOptions
    @Argument(help: "ID or ID@YYYYMMDDTHHMMSSZ.") var id: String
    @Option(help: "For one occurrence of a recurring event: this one, or this and all later ones.") var span: SpanArgument = .this

    func run() throws {
        let store = try options.open()
        let reference = try ItemReference(id)
        let item: AnyCalendarItem
        do { item = try reference.resolve(in: store) } catch StoreError.corruptRow(_, let rowID, _) where rowID == reference.identifier {
            // A row that cannot be read can still be removed: that is the way out the warning names.
            try store.removeUnreadableItem(identifier: rowID)
            if !options.json { print("Removed unreadable item \(rowID)") }
            return
        }
        switch item {
        case .event(var e):
            if reference.occurrence == nil { e.occurrenceDate = nil }
            try store.remove(e, span: span.span)
            if !options.json {
                let what = reference.occurrence == nil ? "" : (span == .this ? " (this occurrence)" : " (this and later occurrences)")
                print("Removed \"\(DisplayText.itemTitle(e.title))\"\(what)")
            }
        case .reminder(let r):
            try store.remove(r)
            if !options.json { print("Removed \"\(DisplayText.itemTitle(r.title))\"") }
        }
    }
}

struct Complete: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Mark a reminder done; a repeating one moves to its next occurrence.",
        discussion: """
            ID completes the current instance. ID@YYYYMMDDTHHMMSSZ names the instance due then: \
            when it is done already (by another process too), nothing changes and the command says so.
            """)

    @OptionGroup var options: StoreOptions
    @Argument(help: "Reminder ID, or ID@YYYYMMDDTHHMMSSZ.") var id: String

    func run() throws { try CompletionChange.set(true, id: id, options: options) }
}

struct Uncomplete: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Mark a completed reminder as not done (undoes the latest completion of a repeating one).")

    @OptionGroup var options: StoreOptions
    @Argument(help: "Reminder ID (of the completed copy, for a repeating reminder).") var id: String

    func run() throws { try CompletionChange.set(false, id: id, options: options) }
}

enum CompletionChange {
    /// Completes or reopens in one transaction, so that concurrent `chime complete` runs complete
    /// each instance of a repeating reminder once and advance it once per completion.
    static func set(_ done: Bool, id: String, options: StoreOptions) throws {
        let store = try options.open()
        let reference = try ItemReference(id)
        guard try reference.kind(in: store) == .reminder else {
            throw InputError("\(id) is an event; only reminders can be completed")
        }
        if done {
            switch try store.complete(reminderWithIdentifier: reference.identifier, dueAt: reference.occurrence) {
            case .alreadyCompleted(let r):
                throw InputError("\"\(DisplayText.itemTitle(r.title))\" is already completed\(instanceText(r))")
            case .completed(let r, let next):
                if options.json { print(ItemFormat.json(.reminder(r), calendarTitle: nil, zone: CLIContext.zone)); return }
                print("Completed \"\(DisplayText.itemTitle(r.title))\"\(instanceText(r))")
                if let next, !next.isCompleted, let due = next.dueDate ?? next.startDate {
                    print("Next: \(ItemFormat.human(due, zone: CLIContext.zone))")
                }
            }
        } else {
            switch try store.uncomplete(reminderWithIdentifier: reference.identifier) {
            case .alreadyIncomplete(let r):
                throw InputError("\"\(DisplayText.itemTitle(r.title))\" is already not completed")
            case .reopened(let saved):
                if options.json { print(ItemFormat.json(.reminder(saved), calendarTitle: nil, zone: CLIContext.zone)); return }
                print("\"\(DisplayText.itemTitle(saved.title))\" is not done\(saved.identifier != reference.identifier ? " (the series is back at this instance)" : "")")
            }
        }
    }

    /// " (due …)" for the instance of a repeating reminder a completion is about.
    private static func instanceText(_ r: Reminder) -> String {
        guard r.seriesIdentifier != nil, let due = r.dueDate ?? r.startDate else { return "" }
        return " (due \(ItemFormat.human(due, zone: CLIContext.zone)))"
    }
}
