import ArgumentParser
import ChimeCalDAV
import ChimeCore
import ChimeStore
import Foundation

struct AccountCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "account",
        abstract: "CalDAV accounts: calendars that live on a server, synced both ways.",
        discussion: """
            An account mirrors every calendar of a CalDAV server (Nextcloud, Fastmail, iCloud, Radicale, \
            Baïkal, SOGo …) as a local calendar or reminder list. `chime daemon` syncs them on start, a few \
            seconds after each local change and every 5 minutes; `chime account sync` runs one pass now. \
            The password is never stored: give a command that prints it (--password-command), or type it \
            when asked.
              chime account add home --url https://dav.example.org --user ana \\
                --password-command 'pass show dav'
              chime account sync
              chime account conflicts
            """,
        subcommands: [List.self, Add.self, Sync.self, Conflicts.self, Remove.self],
        defaultSubcommand: List.self)

    static func find(_ name: String, in store: EventStore) throws -> SyncAccount {
        let accounts = try store.syncAccounts()
        guard let account = accounts.first(where: { $0.name == name }) else {
            let known = accounts.map(\.name)
            throw InputError("no account \"\(name)\"" + (known.isEmpty ? "; add one with `chime account add NAME --url URL --user USER`"
                                                                       : " (accounts: \(known.joined(separator: ", ")))"))
        }
        return account
    }

    /// Runs one sync of `account` (outcome recorded on it). `password`: one already asked for.
    static func sync(_ account: SyncAccount, store: EventStore, password: String? = nil) async throws -> CalDAVSyncReport {
        do {
            return try await CalDAVSync.sync(account, store: store, password: password, interactive: true, clock: CLIContext.clock)
        } catch {
            throw InputError("account \"\(account.name)\": \(error)")
        }
    }

    static func printReport(_ report: CalDAVSyncReport, account: String, json: Bool) {
        if json { print(jsonReport(report, account: account)) } else { printText(report, account: account) }
    }

    static func jsonReport(_ report: CalDAVSyncReport, account: String) -> String {
        for note in report.notes { FileHandle.standardError.write(Data("note: \(account): \(note)\n".utf8)) }
        return JSONText.object([
                ("account", JSONText.string(account)), ("pulled", "\(report.pulled)"), ("removed_here", "\(report.removedHere)"),
                ("pushed", "\(report.pushed)"), ("removed_there", "\(report.removedThere)"),
                ("new_calendars", JSONText.array(report.newCollections.map(JSONText.string))),
                ("conflicts", JSONText.array(report.conflicts.map(JSONText.string))), ("requests", "\(report.requests)"),
            ])
    }

    static func printText(_ report: CalDAVSyncReport, account: String) {
        for note in report.notes { FileHandle.standardError.write(Data("note: \(account): \(note)\n".utf8)) }
        for name in report.newCollections { print("\(account): new calendar \"\(DisplayText.singleLine(name))\"") }
        if report.collections == 0 {
            print("\(account): the server has no calendars for this user yet; make one in its web interface, then `chime account sync`")
        }
        let requests = report.requests == 1 ? "1 request" : "\(report.requests) requests"
        if report.movedNothing {
            print("\(account): in step, nothing to move (\(requests))")
        } else {
            print("\(account): \(report.pulled) from the server, \(report.removedHere) removed here; "
                  + "\(report.pushed) sent, \(report.removedThere) removed on the server (\(requests))")
        }
        for c in report.conflicts { print("\(account): conflict: \(DisplayText.singleLine(c))") }
        if !report.conflicts.isEmpty { print("`chime account conflicts` shows what lost; nothing was thrown away.") }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List accounts, their calendars and how the last sync went.")
        @OptionGroup var options: StoreOptions

        func run() throws {
            let store = try options.open()
            let accounts = try store.syncAccounts()
            let collections = try store.syncCollections()
            if options.json {
                print(JSONText.array(accounts.map { a in
                    JSONText.object([
                        ("name", JSONText.string(a.name)), ("url", JSONText.string(a.url)), ("user", JSONText.string(a.username)),
                        ("home", a.home.map(JSONText.string) ?? "null"),
                        ("calendars", JSONText.array(collections.filter { $0.account == a.name }.map { c in
                            JSONText.object([("title", JSONText.string(c.title)), ("url", JSONText.string(c.url)),
                                             ("event_calendar", c.eventCalendar.map(JSONText.string) ?? "null"),
                                             ("reminder_list", c.reminderList.map(JSONText.string) ?? "null")])
                        })),
                        ("last_sync_utc", a.lastSync.map { JSONText.string($0.description) } ?? "null"),
                        ("last_error", a.lastError.map(JSONText.string) ?? "null"),
                    ])
                }))
                return
            }
            if accounts.isEmpty {
                print("No accounts. `chime account add NAME --url URL --user USER --password-command CMD` adds a CalDAV server.")
                return
            }
            for a in accounts {
                let state = a.lastError.map { "last sync failed: \($0)" }
                    ?? a.lastSync.map { "last synced \($0.description)" } ?? "never synced"
                print("\(a.name)  \(a.username) at \(a.url)  (\(DisplayText.singleLine(state)))")
                for c in collections where c.account == a.name {
                    let kinds = [c.eventCalendar != nil ? "events" : nil, c.reminderList != nil ? "reminders" : nil].compactMap { $0 }
                    print("  \(DisplayText.singleLine(c.title))  \(kinds.joined(separator: "+"))  \(c.url)")
                }
            }
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a CalDAV account, find its calendars and sync them once.",
            discussion: """
                --url may be the server's address (https://cloud.example.org; its /.well-known/caldav is tried), \
                the principal or the calendar home. Nextcloud: https://HOST/remote.php/dav ; Fastmail: \
                https://caldav.fastmail.com ; iCloud: https://caldav.icloud.com (an app-specific password).
                  chime account add home --url https://dav.example.org --user ana \\
                    --password-command 'pass show dav'
                """)
        @OptionGroup var options: StoreOptions
        @Argument(help: "A name for the account (used by `account sync NAME`).") var name: String
        @Option(help: ArgumentHelp("The server (http:// or https://).", valueName: "url")) var url: String
        @Option(help: ArgumentHelp("The user name.", valueName: "user")) var user: String
        @Option(help: ArgumentHelp("A shell command that prints the password, e.g. 'pass show dav' or 'secret-tool lookup service caldav user ana'. Without one, chime asks on the terminal each time.",
                                   valueName: "command"))
        var passwordCommand: String?

        func validate() throws {
            guard let u = URL(string: url), u.scheme == "http" || u.scheme == "https", u.host != nil else {
                throw ValidationError("--url: \"\(url)\" is not an http:// or https:// URL")
            }
            guard !name.isEmpty, !name.contains(where: \.isWhitespace) else { throw ValidationError("the account name must be one word") }
        }

        func run() async throws {
            let store = try options.open(creating: true)
            if try store.syncAccounts().contains(where: { $0.name == name }) {
                throw InputError("an account \"\(name)\" exists already (`chime account remove \(name)` first)")
            }
            let account = SyncAccount(name: name, url: url, username: user, passwordCommand: passwordCommand)
            // Nothing is kept until the server has answered: a typo leaves no account behind.
            let password = try PasswordSource.password(for: account, interactive: true)
            let client = DAVClient(user: user, password: password)
            let found: (principal: URL, home: URL)
            do {
                found = try await CalDAVServer(client: client).discover(URL(string: url)!)
            } catch {
                throw InputError("\(error)")
            }
            var saved = account
            saved.principal = found.principal.absoluteString
            saved.home = found.home.absoluteString
            try store.saveSyncAccount(saved)
            if !options.json { print("Added account \"\(name)\": calendar home \(found.home.absoluteString)") }
            let report = try await AccountCommand.sync(saved, store: store, password: password)
            AccountCommand.printReport(report, account: name, json: options.json)
        }
    }

    struct Sync: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Sync one account (or all) now and print what moved.")
        @OptionGroup var options: StoreOptions
        @Argument(help: "The account (default: every account).") var name: String?

        func run() async throws {
            let store = try options.open()
            let accounts = try name.map { [try AccountCommand.find($0, in: store)] } ?? store.syncAccounts()
            if accounts.isEmpty { throw InputError("no accounts to sync; add one with `chime account add NAME --url URL --user USER`") }
            try await BatchReport.run(accounts, json: options.json, single: name != nil, key: "account", name: \.name) { account in
                let report = try await AccountCommand.sync(account, store: store)
                if options.json { return AccountCommand.jsonReport(report, account: account.name) }
                AccountCommand.printText(report, account: account.name)
                return nil
            }
        }
    }

    struct Conflicts: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show what lost in sync conflicts (the server's version won; yours is kept here).",
            discussion: "--clear forgets them once you have looked. `--full` prints each lost version as iCalendar text, to re-import by hand.")
        @OptionGroup var options: StoreOptions
        @Argument(help: "The account (default: every account).") var name: String?
        @Flag(help: "Print each lost version in full.") var full = false
        @Flag(help: "Forget the conflicts shown.") var clear = false

        func run() throws {
            let store = try options.open()
            if let name { _ = try AccountCommand.find(name, in: store) }
            let conflicts = try store.syncConflicts(account: name)
            if options.json {
                print(JSONText.array(conflicts.map { c in
                    JSONText.object([("id", "\(c.id)"), ("account", JSONText.string(c.account)), ("calendar", JSONText.string(c.collectionTitle)),
                                     ("uid", JSONText.string(c.uid)), ("at_utc", JSONText.string(c.at.description)),
                                     ("what", JSONText.string(c.what)), ("lost_copy", JSONText.string(c.lostCopy))])
                }))
            } else if conflicts.isEmpty {
                print("No conflicts.")
            } else {
                for c in conflicts {
                    let title = c.lostCopy.split(whereSeparator: \.isNewline).first { $0.hasPrefix("SUMMARY:") }.map { String($0.dropFirst(8)) }
                    print("\(c.at.description)  \(c.account)/\(DisplayText.singleLine(c.collectionTitle))  "
                          + (title.map { "\"\(DisplayText.singleLine($0))\" " } ?? "") + "(UID \(DisplayText.singleLine(c.uid)))")
                    print("  \(DisplayText.singleLine(c.what))")
                    if full { print(c.lostCopy) }
                }
            }
            if clear { try store.clearSyncConflicts(conflicts.map(\.id)) }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove an account and its calendars from this machine (the server keeps them).")
        @OptionGroup var options: StoreOptions
        @Argument(help: "The account.") var name: String
        @Flag(help: "Remove it even though changes made here have not reached the server (they are lost).")
        var discardUnsent = false

        func run() throws {
            let store = try options.open()
            _ = try AccountCommand.find(name, in: store)
            if !discardUnsent, try store.hasUnsyncedChanges(account: name) {
                throw InputError("account \"\(name)\" has changes made here that the server does not have yet; "
                                 + "`chime account sync \(name)` sends them, --discard-unsent removes it anyway")
            }
            let calendars = try store.syncCollections(account: name).count
            try store.removeSyncAccount(named: name)
            print(options.json ? JSONText.object([("removed", JSONText.string(name))])
                               : "Removed account \"\(name)\" and its \(calendars) calendar(s) from this machine; the server still has them.")
        }
    }
}
