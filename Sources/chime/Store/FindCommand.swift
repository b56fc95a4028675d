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
        if matches.isEmpty { print("Nothing has \"\(DisplayText.singleLine(text))\" in its title."); return }
        for m in matches {
            let title = LineFit.title(DisplayText.itemTitle(m.title), rest: 8 + 2 + 2 + ItemReference.shortLength)
            print("\(m.kind == "event" ? "event   " : "reminder")  \(title)  \(Style.reference(ItemReference.short(m.identifier)))")
        }
    }
}
