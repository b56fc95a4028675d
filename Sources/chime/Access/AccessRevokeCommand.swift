import ArgumentParser
import ChimeCore
import ChimeStore

extension AccessCommand {
    struct Revoke: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "revoke",
            abstract: "Refuse an app your events or reminders (both when not given); it is not asked again.")
        @OptionGroup var options: StoreOptions
        @Argument(help: "The app: flatpak:APP-ID, unit:NAME or exe:/PATH.") var app: String
        @Argument(help: "events or reminders (default: both).") var type: String?

        func run() throws {
            let decided = try AccessCommand.decide(.denied, app: app, type: type, options: options)
            print("\(decided.app.id) may no longer use your \(decided.types.map(\.plural).joined(separator: " and ")); its next call is refused.")
        }
    }
}
