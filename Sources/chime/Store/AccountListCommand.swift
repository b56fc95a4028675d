import ArgumentParser
import ChimeCalDAV
import ChimeCore
import ChimeStore
import Foundation

extension AccountCommand {
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List accounts, their calendars and how the last sync went.")
        @OptionGroup var options: StoreOptions

        func run() throws {
            let store = try options.open()
            let accounts = try store.sync.accounts()
            let collections = try store.sync.collections()
            if options.json {
                print(
                    JSONText.document([
                        (
                            "accounts",
                            JSONText.array(
                                accounts.map { a in
                                    JSONText.object([
                                        ("name", JSONText.string(a.name)), ("url", JSONText.string(a.url)), ("user", JSONText.string(a.username)),
                                        ("home", a.home.map(JSONText.string) ?? "null"),
                                        (
                                            "calendars",
                                            JSONText.array(
                                                collections.filter { $0.account == a.name }.map { c in
                                                    JSONText.object([
                                                        ("title", JSONText.string(c.title)), ("url", JSONText.string(c.url)),
                                                        ("event_calendar", c.eventCalendar.map(JSONText.string) ?? "null"),
                                                        ("reminder_list", c.reminderList.map(JSONText.string) ?? "null")
                                                    ])
                                                })
                                        ),
                                        ("last_sync_utc", a.lastSync.map { JSONText.string($0.description) } ?? "null"),
                                        ("last_error", a.lastError.map(JSONText.string) ?? "null")
                                    ])
                                })
                        )
                    ]))
                return
            }
            let messages = CLIContext.messages
            if accounts.isEmpty {
                print(messages("No accounts. `chime account add NAME --url URL --user USER --password-command CMD` adds a CalDAV server."))
                return
            }
            for a in accounts {
                let state =
                    a.lastError.map { messages("last sync failed: {error}", ["error": $0]) }
                    ?? a.lastSync.map { messages("last synced {time}", ["time": $0.description]) } ?? messages("never synced")
                print(
                    "\(a.name)  " + messages("{user} at {url}", ["user": a.username, "url": a.url]) + "  (\(DisplayText.singleLine(state)))")
                for c in collections where c.account == a.name {
                    let kinds = [
                        c.eventCalendar != nil ? messages("events", context: "calendar list") : nil,
                        c.reminderList != nil ? messages("reminders", context: "calendar list") : nil
                    ].compactMap { $0 }
                    print("  \(DisplayText.singleLine(c.title))  \(kinds.joined(separator: "+"))  \(c.url)")
                }
            }
        }
    }
}
