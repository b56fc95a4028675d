import ArgumentParser
import ChimeCalDAV
import ChimeCore
import ChimeStore
import Foundation

extension AccountCommand {
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
}
