import ArgumentParser
import ChimeCore
import ChimeStore
import Foundation

extension CalendarCommand {
    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove",
            abstract: "Remove a calendar or list and everything in it.",
            discussion: """
                Says how many items go and asks first; without a terminal to ask on, --yes is needed.

                Examples:
                  chime calendar remove Work
                  chime calendar remove "Old list" --type reminders --yes
                """)
        @OptionGroup var options: StoreOptions
        @Argument(help: "Title or ID.") var name: String
        @Option(help: "Which kind, when a calendar and a list share the name.") var type: Kind?
        @Flag(help: "Do not ask: remove it and everything in it.") var yes = false

        func run() throws {
            let store = try options.open()
            let calendar = try CalendarCommand.find(name, kind: type, in: store)
            let count = try store.itemCount(calendar: calendar.identifier)
            let noun = calendar.entityType == .event ? (count == 1 ? "event" : "events") : (count == 1 ? "reminder" : "reminders")
            let what = "\"\(DisplayText.singleLine(calendar.title))\" and its \(count) \(noun)"
            if count > 0 && !yes {
                guard try Confirmation.ask("Remove \(what)?", refusal: "this removes \(what); run it again with --yes to confirm") else {
                    print("Kept \"\(DisplayText.singleLine(calendar.title))\".")
                    return
                }
            }
            try store.removeCalendar(calendar)
            if !options.json { print("Removed \(what)") }
        }
    }
}
