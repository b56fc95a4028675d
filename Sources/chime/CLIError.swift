import ChimeDaemon
import ChimeFormat
import ChimeStore

/// The errors the commands throw beside ``InputError`` (a problem with what was typed), kept typed
/// until the edge, where ArgumentParser prints each as one `Error: …` line (exit status 1): a store
/// that refused, or a daemon that could not start.
enum CLIError: Error, CustomStringConvertible {
    /// The store refused (not a store, read-only, disk full, a damaged row…). `note` says what
    /// that meant for the command, e.g. "nothing was imported"; it is printed in brackets after
    /// the store's own message.
    case store(StoreError, note: String? = nil)
    /// The daemon could not start (another one runs…), or its configuration file, which the
    /// geofence commands also read, is wrong.
    case daemon(DaemonError)

    var description: String {
        switch self {
        case .store(let error, let note): return error.description + (note.map { " (\($0))" } ?? "")
        case .daemon(let error): return error.description
        }
    }
}
