import ArgumentParser
import ChimeCore
import ChimeStore
import Foundation

extension CalendarCommand {
    struct Rename: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "rename", abstract: "Rename a calendar or list.")
        @OptionGroup var options: StoreOptions
        @Argument(help: "Current title or ID.") var name: String
        @Argument(help: "New title.") var newTitle: String
        @Option(help: "Which kind, when a calendar and a list share the name.") var type: Kind?

        func run() throws {
            let store = try options.open()
            let calendar = try CalendarCommand.find(name, kind: type, in: store)
            // Only the title changes, read and written in one transaction: a colour or another
            // field another process changed meanwhile is kept.
            try store.renameCalendar(identifier: calendar.identifier, to: newTitle)
            if !options.json {
                print(
                    CLIContext.messages(
                        "Renamed \"{old}\" to \"{new}\"", ["old": DisplayText.singleLine(calendar.title), "new": DisplayText.singleLine(newTitle)]))
            }
        }
    }
}
