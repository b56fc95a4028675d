import ArgumentParser
import ChimeCalDAV
import ChimeCore
import ChimeStore
import Foundation

extension AccountCommand {
    struct Conflicts: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "conflicts",
            abstract: "Show what lost in sync conflicts (the server's version won; yours is kept here).",
            discussion: "--clear forgets them once you have looked. `--full` prints each lost version as iCalendar text, to re-import by hand.")
        @OptionGroup var options: StoreOptions
        @Argument(help: "The account (default: every account).") var name: String?
        @Flag(help: "Print each lost version in full.") var full = false
        @Flag(help: "Forget the conflicts shown.") var clear = false

        func run() throws {
            let store = try options.open()
            if let name { _ = try AccountCommand.find(name, in: store) }
            let conflicts = try store.sync.conflicts(account: name)
            if options.json {
                print(
                    JSONText.document([
                        (
                            "conflicts",
                            JSONText.array(
                                conflicts.map { c in
                                    JSONText.object([
                                        ("id", "\(c.id)"), ("account", JSONText.string(c.account)), ("calendar", JSONText.string(c.collectionTitle)),
                                        ("uid", JSONText.string(c.uid)), ("at_utc", JSONText.string(c.at.description)),
                                        ("what", JSONText.string(c.what)), ("lost_copy", JSONText.string(c.lostCopy))
                                    ])
                                })
                        )
                    ]))
            } else if conflicts.isEmpty {
                print(CLIContext.messages("No conflicts."))
            } else {
                for c in conflicts {
                    let title = c.lostCopy.split(whereSeparator: \.isNewline).first { $0.hasPrefix("SUMMARY:") }.map { String($0.dropFirst(8)) }
                    print(
                        "\(c.at.description)  \(c.account)/\(DisplayText.singleLine(c.collectionTitle))  "
                            + (title.map { "\"\(DisplayText.singleLine($0))\" " } ?? "") + "(UID \(DisplayText.singleLine(c.uid)))")
                    print("  \(DisplayText.singleLine(c.what))")
                    if full { print(c.lostCopy) }
                }
            }
            if clear { try store.sync.clearConflicts(conflicts.map(\.id)) }
        }
    }
}
