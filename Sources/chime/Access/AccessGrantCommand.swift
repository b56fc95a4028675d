import ArgumentParser
import ChimeCore
import ChimeStore

extension AccessCommand {
    struct Grant: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "grant", abstract: "Allow an app to use your events or reminders (both when not given).")
        @OptionGroup var options: StoreOptions
        @Argument(help: "The app: flatpak:APP-ID, unit:NAME or exe:/PATH.") var app: String
        @Argument(help: "events or reminders (default: both).") var type: String?

        func run() throws {
            let decided = try AccessCommand.decide(.authorized, app: app, type: type, options: options)
            print("\(decided.app.id) may use your \(decided.types.map(\.plural).joined(separator: " and ")).")
        }
    }
}
