import ArgumentParser
import ChimeCalDAV
import ChimeCore
import ChimeFormat
import ChimeStore
import Foundation

extension AccountCommand {
    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove",
            abstract: "Remove an account and its calendars from this machine (the server keeps them).")
        @OptionGroup var options: StoreOptions
        @Argument(help: "The account.") var name: String
        @Flag(help: "Remove it even though changes made here have not reached the server (they are lost).")
        var discardUnsent = false

        func run() throws {
            let store = try options.open()
            let account = try AccountCommand.find(name, in: store)
            if !discardUnsent, try store.sync.hasUnsyncedChanges(account: name) {
                throw InputError(
                    translatable:
                        "account \"{name}\" has changes made here that the server does not have yet; `chime account sync {name}` sends them, --discard-unsent removes it anyway",
                    ["name": name])
            }
            let calendars = try store.sync.collections(account: name).count
            try store.sync.removeAccount(named: name)
            // An account added without a password command has its password in the Secret Service.
            var cleared = false
            if account.passwordCommand == nil {
                do { cleared = try SecretService().clear(account.secretKey) } catch {
                    let note = CLIContext.messages(
                        "note: the password of \"{name}\" may still be in the Secret Service ({error}); `{command}` removes it",
                        ["name": name, "error": "\(error)", "command": "secret-tool clear account \(name)"])
                    FileHandle.standardError.write(Data((note + "\n").utf8))
                }
            }
            print(
                options.json
                    ? JSONText.document([("removed", JSONText.string(name))])
                    : CLIContext.messages(
                        "Removed account \"{name}\" and its {count} calendar(s) from this machine; the server still has them.",
                        ["name": name, "count": "\(calendars)"]))
            if cleared && !options.json { print(CLIContext.messages("Its password was cleared from the Secret Service.")) }
        }
    }
}
