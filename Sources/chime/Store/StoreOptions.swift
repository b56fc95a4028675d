import ArgumentParser
import ChimeCore
import ChimeFormat
import ChimeStore
import Foundation
import Glibc
import Synchronization

/// `--store PATH`, declared once for every command that reads a store.
struct StorePathOption: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The store file (default: $CHIME_STORE, else $XDG_DATA_HOME/chime/chime.sqlite).", valueName: "path"))
    var store: String?
}

/// `--json`, declared once for every command with a text and a JSON form.
struct JSONOption: ParsableArguments {
    @Flag(name: .long, help: "Print JSON instead of text.")
    var json = false
}

/// Options every store command shares.
struct StoreOptions: ParsableArguments {
    @OptionGroup var path: StorePathOption
    @OptionGroup var output: JSONOption

    var store: String? { path.store }
    var json: Bool { output.json }

    @Flag(name: .long, help: "Create the store file if it does not exist (add, import and calendar add always do).")
    var create = false

    /// Opens the store. A path given with --store or $CHIME_STORE where nothing exists is an
    /// error unless `creating` (a command that adds things) or --create: a mistyped path must
    /// not show an empty new store. The default path is created on first use.
    func open(creating: Bool = false) throws -> EventStore {
        try Self.open(store, creating: creating || create)
    }

    /// The store file: `given` (--store), else $CHIME_STORE (`explicit` is whichever was set),
    /// else the default path.
    static func resolvedPath(_ given: String?) -> (path: String, explicit: String?) {
        let explicit = given ?? ProcessInfo.processInfo.environment["CHIME_STORE"].flatMap { $0.isEmpty ? nil : $0 }
        return (explicit ?? StoreLocation.defaultPath(), explicit)
    }

    /// ``open(creating:)`` for a command that declares its own `--store` (`export`).
    /// - Parameter keep: false for a store removed before the command ends (a dry run's own):
    ///   it is not folded at the end.
    static func open(_ given: String?, creating: Bool, keep: Bool = true) throws -> EventStore {
        let (path, explicit) = resolvedPath(given)
        var info = stat()
        if let explicit, !creating, lstat(explicit, &info) != 0, errno == ENOENT {
            let source = given != nil ? "--store" : "$CHIME_STORE"
            throw InputError(
                translatable: "no store at {path} (from {source}); check the path, or pass --create to start a new store there",
                ["path": explicit, "source": source])
        }
        do {
            let store = try EventStore(
                path: path, floatingZone: CLIContext.zone, clock: CLIContext.clock, newCalendarTitles: newCalendarTitles(CLIContext.messages))
            if keep { Self.opened.withLock { $0.append(store) } }
            return store
        } catch {
            throw CLIError.store(error)
        }
    }

    private static let opened = Mutex<[EventStore]>([])

    /// The names of the calendar and the list a new store starts with, in the user's language.
    static func newCalendarTitles(_ messages: Messages) -> EventStore.NewCalendarTitles {
        EventStore.NewCalendarTitles(
            events: messages("Calendar", context: "the calendar made on first use"),
            reminders: messages("Reminders", context: "the reminder list made on first use"))
    }

    /// As a command ends: its writes folded into the store file (a backup of the file alone holds
    /// them), then one warning per stored item its queries skipped, with the way to remove it.
    static func finish() {
        for store in opened.withLock({ $0 }) { store.foldWriteAheadLog() }
        reportUnreadableItems()
    }

    /// One warning per stored item that the command's queries skipped, with the way to remove it.
    static func reportUnreadableItems() {
        for store in opened.withLock({ $0 }) {
            for item in store.takeUnreadableItems() {
                let warning = CLIContext.messages(
                    "warning: {file}: {item}; `{command}` deletes it", ["file": store.path, "item": "\(item)", "command": "chime remove \(item.identifier)"])
                FileHandle.standardError.write(Data((warning + "\n").utf8))
            }
        }
    }
}
