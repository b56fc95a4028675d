import Foundation
import Glibc

/// Copies a store into a folder of its own. The daemon watches its store's folder (inotify), so
/// it gets one where nothing but the store is written: the benchmark's other files (agenda
/// output, calcurse data, config files) live elsewhere and cannot wake it.
enum StoreCopy {
    /// Checkpoints `source` (no writer may be active), then copies the database and any WAL left
    /// to `folder/chime.sqlite`, replacing what was there; returns the copy's path.
    static func make(from source: String, into folder: String) throws(DaemonBenchError) -> String {
        let fm = FileManager.default
        do { try fm.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
            throw DaemonBenchError("creating \(folder): \(error)")
        }
        let target = folder + "/chime.sqlite"
        for suffix in ["", "-wal", "-shm"] { unlink(target + suffix) }
        if let problem = SQLiteCheckpoint.run(path: source) { throw DaemonBenchError("checkpoint of \(source): \(problem)") }
        for suffix in ["", "-wal"] where fm.fileExists(atPath: source + suffix) && (suffix.isEmpty || fileSize(source + suffix) > 0) {
            do { try fm.copyItem(atPath: source + suffix, toPath: target + suffix) } catch {
                throw DaemonBenchError("copying \(source + suffix): \(error)")
            }
        }
        return target
    }
}
