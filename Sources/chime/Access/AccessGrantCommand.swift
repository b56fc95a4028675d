import ArgumentParser
import ChimeCore
import ChimeStore

extension AccessCommand {
    struct Grant: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Allow an app to use your events or reminders (both when not given).")
        @OptionGroup var options: StoreOptions
        @Argument(help: "The app: flatpak:APP-ID, unit:NAME or exe:/PATH.") var app: String
        @Argument(help: "events or reminders (default: both).") var type: String?

        func run() throws {
            let identity = try AccessCommand.app(app), types = try AccessCommand.types(type)
            let store = try options.open(creating: true)
            for t in types { try store.setAuthorization(.authorized, appID: identity.id, for: t, decidedBy: "command") }
            print("\(identity.id) may use your \(types.map(\.plural).joined(separator: " and ")).")
        }
    }
}
