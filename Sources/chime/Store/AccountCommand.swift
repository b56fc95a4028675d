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
            throw InputError(
                "no account \"\(name)\""
                    + (known.isEmpty
                        ? "; add one with `chime account add NAME --url URL --user USER`"
                        : " (accounts: \(known.joined(separator: ", ")))"))
        }
        return account
    }

    /// Runs one sync of `account` (outcome recorded on it). `password`: one already asked for.
    static func sync(_ account: SyncAccount, store: EventStore, password: String? = nil) async throws -> CalDAVSyncReport {
        do {
            return try await CalDAVSync.sync(account, store: store, password: password, interactive: true, clock: CLIContext.clock)
        } catch {
            throw InputError("account \"\(account.name)\": \(error)")
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
            ("kept_here", "\(report.keptHere)"), ("new_calendars", JSONText.array(report.newCollections.map(JSONText.string))),
            ("conflicts", JSONText.array(report.conflicts.map(JSONText.string))), ("requests", "\(report.requests)")
        ])
    }

    static func printText(_ report: CalDAVSyncReport, account: String) {
        for note in report.notes { FileHandle.standardError.write(Data("note: \(account): \(note)\n".utf8)) }
        for name in report.newCollections { print("\(account): new calendar \"\(DisplayText.singleLine(name))\"") }
        if report.collections == 0 {
            print("\(account): the server has no calendars for this user yet; make one in its web interface, then `chime account sync`")
        }
        let requests = report.requests == 1 ? "1 request" : "\(report.requests) requests"
        if !report.failedCollections.isEmpty {
            print(
                "\(account): \(report.failedCollections.count) of \(report.collections) calendars could not be synced (see the notes); "
                    + "from the others \(report.pulled) from the server, \(report.removedHere) removed here; "
                    + "\(report.pushed) sent, \(report.removedThere) removed on the server (\(requests))")
        } else if report.movedNothing && report.refused == 0 {
            print("\(account): in step, nothing to move (\(requests))")
        } else {
            print(
                "\(account): \(report.pulled) from the server, \(report.removedHere) removed here; "
                    + "\(report.pushed) sent, \(report.removedThere) removed on the server (\(requests))")
        }
        if report.keptHere > 0 {
            print("\(account): \(report.keptHere) change(s) to invitations organised by others kept on this machine only (see the notes)")
        }
        if report.refused > 0 {
            print("\(account): the server refused \(report.refused) change(s) (see the notes); kept here and sent again on the next sync")
        }
        for c in report.conflicts { print("\(account): conflict: \(DisplayText.singleLine(c))") }
        if !report.conflicts.isEmpty { print("`chime account conflicts` shows what lost; nothing was thrown away.") }
    }

}
