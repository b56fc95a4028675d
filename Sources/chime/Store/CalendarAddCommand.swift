import ArgumentParser
import ChimeCalDAV
import ChimeCore
import ChimeFormat
import ChimeStore
import Foundation

extension CalendarCommand {
    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add", abstract: "Add a calendar, or a reminder list with --type reminders.",
            discussion: """
                Without --account the calendar is on this machine only. With --account NAME it is made on \
                that CalDAV account's server (MKCALENDAR), synced at once, and seen by every device and \
                client of the account.
                  chime calendar add Work
                  chime calendar add Work --account home
                  chime calendar add Errands --type reminders --account home
                """)
        @OptionGroup var options: StoreOptions
        @Argument(help: "The title.") var title: String
        @Option(help: "What it holds.") var type: Kind = .events
        @Option(help: ArgumentHelp("Colour, #RRGGBB.", valueName: "#rrggbb")) var color: String = "#3A87AD"
        @Option(
            help: ArgumentHelp(
                "Make it on this CalDAV account's server (see `chime account list`), so every device sees it.", valueName: "name"))
        var account: String?

        mutating func validate() throws {
            // " Work" beside "Work" would be two calendars that read the same in every listing.
            title = title.trimmingCharacters(in: .whitespacesAndNewlines)
            let hex = color.dropFirst()
            guard color.hasPrefix("#"), hex.count == 6, hex.allSatisfy(\.isHexDigit) else {
                throw ArgumentParser.ValidationError(CLIContext.messages("{option}: \"{value}\" is not #RRGGBB", ["option": "--color", "value": color]))
            }
        }

        func run() async throws {
            let store = try options.open(creating: true)
            let kind = type == .events ? "calendar" : "list"
            if let account { return try await addOnServer(account, store: store, kind: kind) }
            if try store.calendar(named: title, for: type.entityType) != nil {
                throw type == .events
                    ? InputError(translatable: "a calendar named \"{title}\" already exists", ["title": title])
                    : InputError(translatable: "a list named \"{title}\" already exists", ["title": title])
            }
            let calendar = ChimeCore.Calendar(title: title, entityType: type.entityType, color: color)
            try store.saveCalendar(calendar)
            let messages = CLIContext.messages, values: KeyValuePairs = ["title": DisplayText.singleLine(title), "id": calendar.identifier]
            print(
                options.json
                    ? JSONText.document([("id", JSONText.string(calendar.identifier))])
                    : type == .events ? messages("Added calendar \"{title}\" ({id})", values) : messages("Added list \"{title}\" ({id})", values))
        }

        /// MKCALENDAR in the account's calendar home, then one sync of the account, which finds
        /// the new collection and binds a calendar of this store to it. Nothing is made on this
        /// machine unless the server made it first.
        private func addOnServer(_ name: String, store: EventStore, kind: String) async throws {
            guard let account = try store.sync.accounts().first(where: { $0.name == name }) else {
                let known = try store.sync.accounts().map(\.name)
                throw known.isEmpty
                    ? InputError(translatable: "no account \"{name}\"; add one with `{command}`", ["name": name, "command": "chime account add"])
                    : InputError(translatable: "no account \"{name}\" (accounts: {list})", ["name": name, "list": known.joined(separator: ", ")])
            }
            // The same title on the account (either kind on the server) would be two entries
            // that look alike on every device: refuse before anything is made.
            if try store.sync.collections(account: name).contains(where: { $0.title == title }) {
                throw InputError(translatable: "account \"{name}\" has a calendar named \"{title}\" already", ["name": name, "title": title])
            }
            guard let homeText = account.home, let home = URL(string: homeText) else {
                throw InputError(translatable: "account \"{name}\" has no calendar home yet: run `chime account sync {name}` first", ["name": name])
            }
            let password = try PasswordSource.password(for: account, interactive: true)
            let server = CalDAVServer(client: DAVClient(user: account.username, password: password))
            let url: URL
            do {
                url = try await server.makeCalendar(
                    in: home, title: title, components: [type == .events ? "VEVENT" : "VTODO"], color: color)
            } catch {
                throw type == .events
                    ? InputError(translatable: "the calendar was not made on account \"{name}\": {error}", ["name": name, "error": "\(error)"])
                    : InputError(translatable: "the list was not made on account \"{name}\": {error}", ["name": name, "error": "\(error)"])
            }
            let report = try await AccountCommand.sync(account, store: store, password: password)
            let made = try store.sync.collections(account: name).first { $0.url == url.absoluteString }
            guard let made, let identifier = made.calendarIdentifiers.first else {
                throw InputError(
                    translatable: "the server made {url} but the sync that followed did not find it; run `chime account sync {name}` (nothing was lost)",
                    ["url": url.absoluteString, "name": name])
            }
            if options.json {
                print(
                    JSONText.document([("id", JSONText.string(identifier)), ("account", JSONText.string(name)), ("url", JSONText.string(url.absoluteString))]))
            } else {
                for note in report.notes { FileHandle.standardError.write(Data("note: \(name): \(note)\n".utf8)) }
                let messages = CLIContext.messages
                let values: KeyValuePairs = ["title": DisplayText.singleLine(title), "account": name, "id": identifier]
                print(
                    type == .events
                        ? messages("Added calendar \"{title}\" on account {account} ({id}); every device of the account sees it", values)
                        : messages("Added list \"{title}\" on account {account} ({id}); every device of the account sees it", values))
            }
        }
    }
}
