import Foundation
import Glibc

/// Copies a store into a folder of its own. The daemon watches its store's folder (inotify), so
/// it gets one where nothing but the store is written: the benchmark's other files (agenda
/// output, calcurse data, config files) live elsewhere and cannot wake it.
enum StoreCopy {
    /// Copies the database at `source` (committed WAL content included) to `folder/chime.sqlite`
    /// through SQLite, replacing what was there; returns the copy's path. Never a file copy: this
    /// process may have `source` open (see ``SQLiteCheckpoint/copy(from:to:)``).
    static func make(from source: String, into folder: String) throws(DaemonBenchError) -> String {
        do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
            throw DaemonBenchError("creating \(folder): \(error)")
        }
        let target = folder + "/chime.sqlite"
        for suffix in ["", "-wal", "-shm"] { unlink(target + suffix) }
        if let problem = SQLiteCheckpoint.copy(from: source, to: target) { throw DaemonBenchError("copying \(source): \(problem)") }
        return target
    }
}
