import ChimeDaemon
import ChimeStore

/// The one error type the commands throw, kept typed until the edge, where ArgumentParser prints
/// it as one `Error: …` line (exit status 1): a problem with what was typed, a store that refused,
/// or a daemon that could not start.
enum CLIError: Error, CustomStringConvertible {
    /// The command line: a bad date, an unknown item, a missing file. The text names what and where.
    case input(String)
    /// The store refused (not a store, read-only, disk full, a damaged row…). `note` says what
    /// that meant for the command, e.g. "nothing was imported"; it is printed in brackets after
    /// the store's own message.
    case store(StoreError, note: String? = nil)
    /// The daemon could not start (another one runs…), or its configuration file, which the
    /// geofence commands also read, is wrong.
    case daemon(DaemonError)

    var description: String {
        switch self {
        case .input(let text): return text
        case .store(let error, let note): return error.description + (note.map { " (\($0))" } ?? "")
        case .daemon(let error): return error.description
        }
    }
}

/// A problem with what was typed: `throw InputError("--days 0: must be 1…3660")`.
func InputError(_ text: String) -> CLIError { .input(text) }
