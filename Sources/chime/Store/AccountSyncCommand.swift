import ArgumentParser
import ChimeCalDAV
import ChimeCore
import ChimeFormat
import ChimeStore
import Foundation

extension AccountCommand {
    struct Sync: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "sync", abstract: "Sync one account (or all) now and print what moved.")
        @OptionGroup var options: StoreOptions
        @Argument(help: "The account (default: every account).") var name: String?

        func run() async throws {
            let store = try options.open()
            let accounts = try name.map { [try AccountCommand.find($0, in: store)] } ?? store.sync.accounts()
            if accounts.isEmpty { throw InputError(translatable: "no accounts to sync; add one with `chime account add NAME --url URL --user USER`") }
            try await BatchReport.run(accounts, json: options.json, single: name != nil, key: "account", name: \.name) { account in
                let report = try await AccountCommand.sync(account, store: store)
                if options.json { return AccountCommand.jsonReport(report, account: account.name) }
                AccountCommand.printText(report, account: account.name)
                return nil
            }
        }
    }
}
