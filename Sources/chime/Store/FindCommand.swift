import ArgumentParser
import ChimeCore
import ChimeFormat
import ChimeStore

struct FindCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "find",
        abstract: "Find events and reminders by title.",
        discussion: """
            Lists the items whose title contains TEXT (ignoring case), newest change first, with \\
            the reference the other commands take. A title only one item has also works as \\
            a reference by itself.

            Examples:
              chime find dentist
              chime show "Call the dentist"
            """)

    @OptionGroup var options: StoreOptions
    @OptionGroup var colorOption: ColorOption
    @Argument(help: "Part of a title.") var text: String

    func run() throws {
        colorOption.apply()
        let store = try options.open()
        let matches = try store.items(titleContaining: text)
        if options.json {
            print(
                JSONText.document([
                    (
                        "matches",
                        JSONText.array(
                            matches.map {
                                JSONText.object(ItemFormat.head(ref: $0.identifier, id: $0.identifier, uid: $0.uid, kind: $0.kind, title: $0.title))
                            })
                    )
                ]))
            return
        }
        let messages = CLIContext.messages
        if matches.isEmpty { print(messages("Nothing has \"{text}\" in its title.", ["text": DisplayText.singleLine(text)])); return }
        let kinds = (event: messages("event", context: "find kind"), reminder: messages("reminder", context: "find kind"))
        let width = max(DisplayText.columns(kinds.event), DisplayText.columns(kinds.reminder))
        for m in matches {
            let title = LineFit.title(DisplayText.itemTitle(m.title), rest: width + 2 + 2 + ItemReference.shortLength)
            let kind = (m.kind == "event" ? kinds.event : kinds.reminder).padding(toLength: width)
            print("\(kind)  \(title)  \(Style.reference(ItemReference.short(m.identifier)))")
        }
    }
}
