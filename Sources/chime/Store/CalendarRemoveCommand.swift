import ArgumentParser
import ChimeCore
import ChimeFormat
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
            let title = DisplayText.singleLine(calendar.title)
            let messages = CLIContext.messages
            if count > 0 && !yes {
                let question =
                    calendar.entityType == .event
                    ? messages.plural("Remove \"{title}\" and its {count} event?", "Remove \"{title}\" and its {count} events?", count: count, ["title": title])
                    : messages.plural(
                        "Remove \"{title}\" and its {count} reminder?", "Remove \"{title}\" and its {count} reminders?", count: count, ["title": title])
                // Said only at this terminal, so already in the user's language.
                let refusal =
                    calendar.entityType == .event
                    ? InputError(
                        messages.plural(
                            "this removes \"{title}\" and its {count} event; run it again with --yes to confirm",
                            "this removes \"{title}\" and its {count} events; run it again with --yes to confirm", count: count, ["title": title]))
                    : InputError(
                        messages.plural(
                            "this removes \"{title}\" and its {count} reminder; run it again with --yes to confirm",
                            "this removes \"{title}\" and its {count} reminders; run it again with --yes to confirm", count: count, ["title": title]))
                guard try Confirmation.ask(question, refusal: refusal) else {
                    print(messages("Kept \"{title}\".", ["title": title]))
                    return
                }
            }
            try store.removeCalendar(calendar)
            if !options.json {
                print(
                    calendar.entityType == .event
                        ? messages.plural(
                            "Removed \"{title}\" and its {count} event", "Removed \"{title}\" and its {count} events", count: count, ["title": title])
                        : messages.plural(
                            "Removed \"{title}\" and its {count} reminder", "Removed \"{title}\" and its {count} reminders", count: count, ["title": title]))
            }
        }
    }
}
