import Foundation
import Glibc

/// Where the store lives and how its file is created.
public enum StoreLocation {
    /// `$CHIME_STORE`, else `$XDG_DATA_HOME/chime/chime.sqlite`, else `~/.local/share/chime/chime.sqlite`.
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let explicit = environment["CHIME_STORE"], !explicit.isEmpty { return explicit }
        let dataHome = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share"
        return dataHome + "/chime/chime.sqlite"
    }

    /// Creates the folder (0700) and an empty file (0600) when they do not exist yet, so that
    /// SQLite, which copies the database file's mode to `-wal` and `-shm`, never makes them
    /// readable by others. Existing folders and files are left as they are.
    static func prepare(path: String) throws(StoreError) {
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty && !FileManager.default.fileExists(atPath: folder) {
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                        attributes: [.posixPermissions: 0o700])
            } catch {
                throw .cannotCreate(path: folder, reason: error.localizedDescription)
            }
        }
        let fd = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        if fd >= 0 {
            close(fd)
        } else if errno != EEXIST {
            throw .cannotCreate(path: path, reason: String(cString: strerror(errno)))
        }
    }
}
