import ArgumentParser
import ChimeCalDAV
import ChimeCore
import ChimeFormat
import ChimeStore
import Foundation

extension AccountCommand {
    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Add a CalDAV account, find its calendars and sync them once.",
            discussion: """
                --url may be the server's address (https://cloud.example.org; its /.well-known/caldav is tried), \
                the principal or the calendar home. Nextcloud: https://HOST/remote.php/dav ; Fastmail: \
                https://caldav.fastmail.com ; iCloud: https://caldav.icloud.com (an app-specific password).
                Without --password-command the password is asked for once (or read from standard input with \
                --password-stdin) and kept in the desktop's Secret Service (GNOME Keyring, KeePassXC …); where \
                there is none, chime refuses to keep it in plain text: give a password command instead.
                  chime account add home --url https://dav.example.org --user ana
                  chime account add home --url https://dav.example.org --user ana \\
                    --password-command 'pass show dav'
                """)
        @OptionGroup var options: StoreOptions
        @Argument(help: "A name for the account (used by `account sync NAME`).") var name: String
        @Option(help: ArgumentHelp("The server (http:// or https://).", valueName: "url")) var url: String
        @Option(help: ArgumentHelp("The user name.", valueName: "user")) var user: String
        @Option(
            help: ArgumentHelp(
                "A shell command that prints the password, e.g. 'pass show dav'. Run each time a password is needed; nothing is kept in the Secret Service.",
                valueName: "command"))
        var passwordCommand: String?
        @Flag(help: "Read the password from the first line of standard input instead of asking (for scripts); it is kept in the Secret Service.")
        var passwordStdin = false

        func validate() throws {
            guard let u = URL(string: url), u.scheme == "http" || u.scheme == "https", u.host != nil else {
                throw ValidationError(CLIContext.messages("{option}: \"{value}\" is not an http:// or https:// URL", ["option": "--url", "value": url]))
            }
            guard !name.isEmpty, !name.contains(where: \.isWhitespace) else { throw ValidationError(CLIContext.messages("the account name must be one word")) }
            if passwordStdin && passwordCommand != nil {
                throw ValidationError(
                    CLIContext.messages(
                        "{first} and {second} exclude each other: the command is run at each sync instead",
                        ["first": "--password-stdin", "second": "--password-command"]))
            }
        }

        func run() async throws {
            let store = try options.open(creating: true)
            if try store.sync.accounts().contains(where: { $0.name == name }) {
                throw InputError(translatable: "an account \"{name}\" exists already (`chime account remove {name}` first)", ["name": name])
            }
            let account = SyncAccount(name: name, url: url, username: user, passwordCommand: passwordCommand)
            let secrets = SecretService()
            let password: String
            if passwordCommand != nil {
                password = try PasswordSource.password(for: account, interactive: true)
            } else {
                // Asked before the password is typed: never ask for one that could only be kept in plain text.
                do { _ = try secrets.lookup(account.secretKey) } catch {
                    throw InputError(
                        translatable:
                            "account \"{name}\" not added: {error}; chime does not keep passwords in plain text, so give a command that prints it instead, e.g. {first} or {second}",
                        [
                            "name": name, "error": "\(error)", "first": "--password-command 'pass show dav'",
                            "second": "--password-command 'secret-tool lookup …'"
                        ])
                }
                if !passwordStdin && isatty(0) != 1 {
                    throw InputError(translatable: "no terminal to ask for the password on: give it on standard input with --password-stdin")
                }
                password = try passwordStdin ? Self.readStdinPassword() : PasswordSource.prompt(for: account)
            }
            // Nothing is kept until the server has answered: a typo leaves no account behind.
            let client = DAVClient(user: user, password: password)
            let found: (principal: URL, home: URL, addresses: [String])
            do {
                found = try await CalDAVServer(client: client).discover(URL(string: url)!)
            } catch {
                throw InputError("\(error)")
            }
            var saved = account
            saved.principal = found.principal.absoluteString
            saved.home = found.home.absoluteString
            saved.addresses = found.addresses
            if passwordCommand == nil {
                do { try secrets.store(password, for: account.secretKey) } catch {
                    throw InputError(
                        translatable: "account \"{name}\" not added: the password could not be kept: {error}", ["name": name, "error": "\(error)"])
                }
            }
            do { try store.sync.saveAccount(saved) } catch {
                if passwordCommand == nil { _ = try? secrets.clear(account.secretKey) }
                throw error
            }
            if !options.json {
                let messages = CLIContext.messages
                print(messages("Added account \"{name}\": calendar home {url}", ["name": name, "url": found.home.absoluteString]))
                if passwordCommand == nil {
                    print(
                        messages(
                            "Password stored in the Secret Service (schema io.github.chime.CalDAV, account {name}); `chime account remove {name}` clears it.",
                            ["name": name]))
                }
            }
            let report = try await AccountCommand.sync(saved, store: store, password: password)
            AccountCommand.printReport(report, account: name, json: options.json)
            if try store.sync.accounts().count == 1 { try Self.useForNewItems(account: name, store: store, quiet: options.json) }
        }

        /// The first account: new events and reminders go to its first writable calendar of each
        /// kind from now on (not to a calendar on this machine only, which the other devices never
        /// see), and the user is told.
        static func useForNewItems(account: String, store: EventStore, quiet: Bool) throws {
            let collections = try store.sync.collections(account: account)
            for (kind, ids) in [("events", collections.compactMap(\.eventCalendar)), ("reminders", collections.compactMap(\.reminderList))] {
                let writable = try ids.compactMap { try store.calendar(withIdentifier: $0) }.filter(\.allowsModifications)
                guard let first = writable.sorted(by: { ($0.title.lowercased(), $0.identifier) < ($1.title.lowercased(), $1.identifier) }).first
                else { continue }
                try store.setDefaultCalendar(identifier: first.identifier)
                if !quiet {
                    let values: KeyValuePairs<String, String> = ["name": DisplayText.singleLine(first.title), "account": DisplayText.singleLine(account)]
                    print(
                        kind == "events"
                            ? CLIContext.messages(
                                "New events go to \"{name}\" on {account} from now on, so your other devices see them (`chime calendar default NAME` changes it)",
                                values)
                            : CLIContext.messages(
                                "New reminders go to \"{name}\" on {account} from now on, so your other devices see them (`chime calendar default NAME` changes it)",
                                values))
                }
            }
        }

        /// The first line of standard input, without its line end.
        static func readStdinPassword() throws -> String {
            let line = readLine(strippingNewline: true) ?? ""
            guard !line.isEmpty else { throw InputError(translatable: "--password-stdin: standard input has no password (an empty first line)") }
            return line
        }
    }
}
