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
            if accounts.isEmpty {
                print("No accounts. `chime account add NAME --url URL --user USER --password-command CMD` adds a CalDAV server.")
                return
            }
            for a in accounts {
                let state =
                    a.lastError.map { "last sync failed: \($0)" }
                    ?? a.lastSync.map { "last synced \($0.description)" } ?? "never synced"
                print("\(a.name)  \(a.username) at \(a.url)  (\(DisplayText.singleLine(state)))")
                for c in collections where c.account == a.name {
                    let kinds = [c.eventCalendar != nil ? "events" : nil, c.reminderList != nil ? "reminders" : nil].compactMap { $0 }
                    print("  \(DisplayText.singleLine(c.title))  \(kinds.joined(separator: "+"))  \(c.url)")
                }
            }
        }
    }
}
