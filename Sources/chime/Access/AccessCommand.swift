import ArgumentParser
import ChimeCore
import ChimeDesktop
import ChimeFormat
import ChimeStore

struct AccessCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "access",
        abstract: "Allow or refuse the apps that ask the daemon for your data over D-Bus.",
        discussion: """
            An app that asks the running daemon over D-Bus (io.github.chime.Chime) is asked about \
            once per entity type: a notification with Allow and Don't Allow. The answers are kept \
            here, under the app as the desktop knows it: flatpak:APP-ID for a Flatpak app, \
            unit:NAME for an app a desktop launcher started, else exe:PATH. For sandboxed apps this \
            is a real boundary; an unsandboxed program of yours can read the store file anyway, so \
            for those it is consent and a record (docs/dbus.md).

            Examples:
              chime access list
              chime access grant flatpak:org.example.Planner events
              chime access revoke exe:/usr/bin/python3.11 reminders
              chime access reset flatpak:org.example.Planner
            """,
        subcommands: [List.self, Grant.self, Revoke.self, Reset.self],
        defaultSubcommand: List.self)

    /// An app as `chime access list` prints it: `flatpak:ID`, `unit:NAME` or `exe:PATH`.
    static func app(_ text: String) throws -> AppIdentity {
        guard let app = AppIdentity(id: text) else {
            throw InputError(
                translatable: "\"{text}\" is not an app: give flatpak:APP-ID, unit:NAME or exe:/PATH, as chime access list prints them",
                ["text": DisplayText.singleLine(text)])
        }
        return app
    }

    /// `events`, `reminders`, or both when not given.
    static func types(_ text: String?) throws -> [EntityType] {
        switch text?.lowercased() {
        case nil, "all": return EntityType.allCases
        case "event", "events": return [.event]
        case "reminder", "reminders": return [.reminder]
        case let other?:
            throw InputError(
                translatable: "\"{text}\" is not an entity type: give events or reminders (or leave it out for both)", ["text": DisplayText.singleLine(other)])
        }
    }

    /// Records the user's own decision for an app, for the entity types given (both when none).
    static func decide(_ status: AuthorizationStatus, app text: String, type: String?, options: StoreOptions) throws
        -> (app: AppIdentity, types: [EntityType])
    {
        let identity = try app(text), types = try types(type)
        let store = try options.open(creating: true)
        for t in types { try store.access.setAuthorization(status, appID: identity.id, for: t, decidedBy: "command") }
        return (identity, types)
    }
}
