import ArgumentParser
import ChimeCalDAV
import ChimeCore
import ChimeFormat
import ChimeICS
import ChimeStore
import Foundation

extension CalendarCommand {
    struct Refresh: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "refresh", abstract: "Fetch subscribed calendars again now (all, or one by name).")
        @OptionGroup var options: StoreOptions
        @Argument(help: "The subscribed calendar (default: all of them).") var name: String?

        func run() async throws {
            let store = try options.open()
            var chosen = try store.subscriptions()
            if let name {
                chosen = chosen.filter { $0.title == name || $0.calendarIdentifier == name }
                if chosen.isEmpty { throw InputError(translatable: "no subscribed calendar \"{name}\" (see `chime calendar list`)", ["name": name]) }
            }
            if chosen.isEmpty { print(CLIContext.messages("No subscribed calendars; `chime calendar subscribe URL` adds one.")); return }
            try await BatchReport.run(chosen, json: options.json, key: "calendar", name: \.title) { s in
                let result = try await FeedRefresh.refresh(s, store: store, now: CLIContext.clock())
                if options.json {
                    return result.map { CalendarCommand.json($0, title: s.title) }
                        ?? JSONText.object([("calendar", JSONText.string(s.title)), ("unchanged", "true")])
                }
                if let result {
                    CalendarCommand.report(result, title: s.title, json: false)
                } else {
                    print(CLIContext.messages("{calendar}: unchanged", ["calendar": DisplayText.singleLine(s.title)]))
                }
                return nil
            }
        }
    }
}
