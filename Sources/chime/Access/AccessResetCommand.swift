import ArgumentParser
import ChimeCore
import ChimeStore

extension AccessCommand {
    struct Reset: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "reset", abstract: "Forget what was decided for an app: it is asked again next time.")
        @OptionGroup var options: StoreOptions
        @Argument(help: "The app: flatpak:APP-ID, unit:NAME or exe:/PATH.") var app: String
        @Argument(help: "events or reminders (default: both).") var type: String?

        func run() throws {
            let identity = try AccessCommand.app(app), types = try AccessCommand.types(type)
            let store = try options.open()
            let removed = try types.reduce(0) { $0 + (try store.access.resetAuthorization(appID: identity.id, for: $1)) }
            print(removed == 0 ? "Nothing was decided for \(identity.id)." : "\(identity.id) will be asked again.")
        }
    }
}
