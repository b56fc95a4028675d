import ArgumentParser
import ChimeCore
import ChimeFormat
import ChimeStore

struct CompleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "complete",
        abstract: "Mark a reminder done; a repeating one moves to its next occurrence.",
        discussion: """
            ID completes the current instance. ID@YYYYMMDDTHHMMSSZ names the instance due then: \
            when it is done already (by another process too), nothing changes and the command says so.
            """)

    @OptionGroup var options: StoreOptions
    @OptionGroup var bus: ViaBusOption
    @Argument(help: "Reminder ID, or ID@YYYYMMDDTHHMMSSZ.", completion: .custom(ShellCompletion.items)) var id: String

    func run() throws {
        if bus.viaBus { let id = id; return try bus.run(needing: .reminder) { try await $0.complete(id) } }
        try CompletionChange.set(true, id: id, options: options)
    }
}

enum CompletionChange {
    /// Completes or reopens in one transaction, so that concurrent `chime complete` runs complete
    /// each instance of a repeating reminder once and advance it once per completion.
    static func set(_ done: Bool, id: String, options: StoreOptions) throws {
        let store = try options.open()
        let reference = try ItemReference(id)
        let identifier: String
        do { identifier = try reference.resolvedIdentifier(in: store) } catch {
            guard reference.occurrence == nil, let chosen = try byTitle(reference.identifier, done: done, in: store) else { throw error }
            identifier = chosen
        }
        guard case .reminder? = try store.calendarItem(withIdentifier: identifier) else {
            throw InputError(translatable: "\"{name}\" is an event; only reminders can be completed", ["name": DisplayText.singleLine(id)])
        }
        if done {
            switch try store.complete(reminderWithIdentifier: identifier, dueAt: reference.occurrence?.instant(in: store.floatingZone)) {
            case .alreadyCompleted(let r):
                throw Self.instanceDue(r).map {
                    InputError(translatable: "\"{title}\" is already completed (due {due})", ["title": DisplayText.itemTitle(r.title), "due": $0])
                } ?? InputError(translatable: "\"{title}\" is already completed", ["title": DisplayText.itemTitle(r.title)])
            case .completed(let r, let next):
                if options.json {
                    print(ItemFormat.document(.reminder(r), calendarTitle: nil, zone: CLIContext.zone, identity: AlarmEcho.defaults(for: store).identity));
                    return
                }
                let messages = CLIContext.messages
                let title = DisplayText.itemTitle(r.title)
                if r.seriesIdentifier != nil, let due = r.dueDate ?? r.startDate {
                    let when = ItemFormat.human(due, zone: CLIContext.zone, messages: messages)
                    print(messages("Completed \"{title}\" (due {when})", ["title": title, "when": when]))
                } else {
                    print(messages("Completed \"{title}\"", ["title": title]))
                }
                if let next, !next.isCompleted, let due = next.dueDate ?? next.startDate {
                    print(messages("Next: {when}", ["when": ItemFormat.human(due, zone: CLIContext.zone, messages: messages)]))
                }
            }
        } else {
            switch try store.uncomplete(reminderWithIdentifier: identifier) {
            case .alreadyIncomplete(let r):
                throw InputError(translatable: "\"{title}\" is already not completed", ["title": DisplayText.itemTitle(r.title)])
            case .reopened(let saved):
                if options.json {
                    print(ItemFormat.document(.reminder(saved), calendarTitle: nil, zone: CLIContext.zone, identity: AlarmEcho.defaults(for: store).identity));
                    return
                }
                let messages = CLIContext.messages, title = DisplayText.itemTitle(saved.title)
                print(
                    saved.identifier != identifier
                        ? messages("\"{title}\" is not done (the series is back at this instance)", ["title": title])
                        : messages("\"{title}\" is not done", ["title": title]))
            }
        }
    }

    /// A title a repeating reminder shares with its completed copies: `complete` takes the one
    /// reminder with it that is not done, `uncomplete` the one done last.
    private static func byTitle(_ title: String, done: Bool, in store: EventStore) throws -> String? {
        let reminders = try store.items(titleContaining: title)
            .filter { $0.kind == "reminder" && TitleMatch.same($0.title, title) }
            .compactMap { match -> Reminder? in
                if case .reminder(let r)? = try store.calendarItem(withIdentifier: match.identifier) { return r }
                return nil
            }
        if done {
            let open = reminders.filter { !$0.isCompleted }
            return open.count == 1 ? open[0].identifier : nil
        }
        return reminders.filter(\.isCompleted)
            .max { ($0.completionDate ?? Instant(secondsSince1970: 0)) < ($1.completionDate ?? Instant(secondsSince1970: 0)) }?.identifier
    }

    /// When the completed instance of a series was due; nil for a reminder that does not repeat.
    private static func instanceDue(_ r: Reminder) -> String? {
        guard r.seriesIdentifier != nil, let due = r.dueDate ?? r.startDate else { return nil }
        return ItemFormat.human(due, zone: CLIContext.zone, messages: CLIContext.messages)
    }
}
