import ArgumentParser
import ChimeCalDAV
import ChimeCore
import ChimeFormat
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
            The password is never stored in plain text: it is kept in the desktop's Secret Service (typed \
            once at `account add`), or printed by a command of yours (--password-command).
              chime account add home --url https://dav.example.org --user ana \\
                --password-command 'pass show dav'
              chime account sync
              chime account conflicts
            """,
        subcommands: [List.self, Add.self, Sync.self, Conflicts.self, Remove.self],
        defaultSubcommand: List.self)

    static func find(_ name: String, in store: EventStore) throws -> SyncAccount {
        let accounts = try store.sync.accounts()
        guard let account = accounts.first(where: { $0.name == name }) else {
            let known = accounts.map(\.name)
            throw known.isEmpty
                ? InputError(
                    translatable: "no account \"{name}\"; add one with `{command}`", ["name": name, "command": "chime account add NAME --url URL --user USER"])
                : InputError(translatable: "no account \"{name}\" (accounts: {list})", ["name": name, "list": known.joined(separator: ", ")])
        }
        return account
    }

    /// Runs one sync of `account` (outcome recorded on it). `password`: one already asked for.
    static func sync(_ account: SyncAccount, store: EventStore, password: String? = nil) async throws -> CalDAVSyncReport {
        do {
            return try await CalDAVSync.sync(account, store: store, password: password, interactive: true, clock: CLIContext.clock)
        } catch {
            throw InputError(translatable: "account \"{name}\": {error}", ["name": account.name, "error": "\(error)"])
        }
    }

    static func printReport(_ report: CalDAVSyncReport, account: String, json: Bool) {
        if json { print(JSONText.versioned(jsonReport(report, account: account))) } else { printText(report, account: account) }
    }

    static func jsonReport(_ report: CalDAVSyncReport, account: String) -> String {
        for note in report.notes { FileHandle.standardError.write(Data("note: \(account): \(note)\n".utf8)) }
        return JSONText.object([
            ("account", JSONText.string(account)), ("pulled", "\(report.pulled)"), ("removed_here", "\(report.removedHere)"),
            ("pushed", "\(report.pushed)"), ("removed_there", "\(report.removedThere)"), ("refused", "\(report.refused)"),
            ("kept_here", "\(report.keptHere)"), ("new_calendars", JSONText.stringArray(report.newCollections)),
            ("conflicts", JSONText.stringArray(report.conflicts)), ("requests", "\(report.requests)")
        ])
    }

    static func printText(_ report: CalDAVSyncReport, account: String, messages: Messages = CLIContext.messages) {
        for note in report.notes { FileHandle.standardError.write(Data("note: \(account): \(note)\n".utf8)) }
        for name in report.newCollections {
            print(messages("{account}: new calendar \"{name}\"", ["account": account, "name": DisplayText.singleLine(name)]))
        }
        if report.collections == 0 {
            print(
                messages(
                    "{account}: the server has no calendars for this user yet; make one in its web interface, then `chime account sync`",
                    ["account": account]))
        }
        let requests = messages.plural("{count} request", "{count} requests", count: report.requests)
        let moved: KeyValuePairs<String, String> = [
            "account": account, "pulled": "\(report.pulled)", "removedHere": "\(report.removedHere)", "pushed": "\(report.pushed)",
            "removedThere": "\(report.removedThere)", "requests": requests, "failed": "\(report.failedCollections.count)",
            "total": "\(report.collections)"
        ]
        if !report.failedCollections.isEmpty {
            print(
                messages(
                    "{account}: {failed} of {total} calendars could not be synced (see the notes); from the others {pulled} from the server, {removedHere} removed here; {pushed} sent, {removedThere} removed on the server ({requests})",
                    moved))
        } else if report.movedNothing && report.refused == 0 {
            print(messages("{account}: in step, nothing to move ({requests})", ["account": account, "requests": requests]))
        } else {
            print(
                messages(
                    "{account}: {pulled} from the server, {removedHere} removed here; {pushed} sent, {removedThere} removed on the server ({requests})",
                    moved))
        }
        if report.keptHere > 0 {
            print(
                messages(
                    "{account}: {count} change(s) to invitations organised by others kept on this machine only (see the notes)",
                    ["account": account, "count": "\(report.keptHere)"]))
        }
        if report.refused > 0 {
            print(
                messages(
                    "{account}: the server refused {count} change(s) (see the notes); kept here and sent again on the next sync",
                    ["account": account, "count": "\(report.refused)"]))
        }
        for c in report.conflicts { print(messages("{account}: conflict: {what}", ["account": account, "what": DisplayText.singleLine(c)])) }
        if !report.conflicts.isEmpty { print(messages("`chime account conflicts` shows what lost; nothing was thrown away.")) }
    }

}
