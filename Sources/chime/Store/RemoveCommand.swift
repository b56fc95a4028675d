import ArgumentParser
import ChimeCore
import ChimeFormat
import ChimeStore

struct RemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Remove an event, some occurrences of one, or a reminder.",
        discussion: """
            ID alone removes the whole event series or the reminder. ID@OCCURRENCE removes one \
            occurrence (--span this, the default) or it and every later one (--span future).
            A repeating event named by its title is a guess: removing the whole series asks \
            first, and without a terminal to ask on needs --yes.
            """)

    @OptionGroup var options: StoreOptions
    @Argument(help: "ID (or its start), ID@OCCURRENCE, or a title.", completion: .custom(ShellCompletion.items)) var id: String
    @Option(help: "For one occurrence of a recurring event: this one, or this and all later ones.") var span: SpanArgument = .this
    @Flag(help: "Do not ask before removing a whole repeating series named by its title.") var yes = false

    func run() throws {
        let store = try options.open()
        let reference = try ItemReference(id)
        let item: AnyCalendarItem
        do { item = try reference.resolve(in: store) } catch StoreError.corruptRow(_, let rowID, _)
            where rowID.lowercased().hasPrefix(reference.identifier.lowercased())
        {
            // A row that cannot be read can still be removed: that is the way out the warning names.
            try store.removeUnreadableItem(identifier: rowID)
            if !options.json { print(CLIContext.messages("Removed unreadable item {id}", ["id": rowID])) }
            return
        }
        switch item {
        case .event(var e):
            if reference.occurrence == nil { e.occurrenceDate = nil }
            if reference.occurrence == nil, e.isRecurring, !yes, Self.isNamedByTitle(e, reference) {
                let messages = CLIContext.messages, title = DisplayText.itemTitle(e.title)
                let refusal = InputError(
                    messages(
                        "\"{title}\" repeats, and this removes the whole series; run it again with --yes to confirm, or remove one occurrence as ID@OCCURRENCE (see `chime agenda`)",
                        ["title": title]))
                guard try Confirmation.ask(messages("Remove every occurrence of \"{title}\", the whole series?", ["title": title]), refusal: refusal) else {
                    print(messages("Kept \"{title}\".", ["title": title]))
                    return
                }
            }
            // The user's own removal of occurrences keeps a command link that was current.
            try store.keepingAlarmCommandTiming(forItem: e.identifier) { try store.remove(e, span: span.span) }
            if !options.json {
                let messages = CLIContext.messages, title = DisplayText.itemTitle(e.title)
                print(
                    reference.occurrence == nil
                        ? (e.isRecurring
                            ? messages("Removed \"{title}\" (the whole series; ID@OCCURRENCE removes one)", ["title": title])
                            : messages("Removed \"{title}\"", ["title": title]))
                        : (span == .this
                            ? messages("Removed \"{title}\" (this occurrence)", ["title": title])
                            : messages("Removed \"{title}\" (this and later occurrences)", ["title": title])))
            }
        case .reminder(let r):
            try store.remove(r)
            if !options.json { print(CLIContext.messages("Removed \"{title}\"", ["title": DisplayText.itemTitle(r.title)])) }
        }
    }

    /// Whether the reference found the item by its title rather than by its ID, a prefix of it or
    /// its UID: a title can name another item than the one the user thinks of.
    private static func isNamedByTitle(_ event: Event, _ reference: ItemReference) -> Bool {
        let typed = reference.identifier.lowercased()
        return !event.identifier.lowercased().hasPrefix(typed) && event.externalIdentifier.lowercased() != typed
    }
}
