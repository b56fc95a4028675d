import Foundation
import Glibc

/// Where the store lives and how its file is created.
public enum StoreLocation {
    /// `$CHIME_STORE`, else `$XDG_DATA_HOME/chime/chime.sqlite`, else `~/.local/share/chime/chime.sqlite`.
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let explicit = environment["CHIME_STORE"], !explicit.isEmpty { return explicit }
        let dataHome =
            environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share"
        return dataHome + "/chime/chime.sqlite"
    }

    /// Creates the folder (0700) and an empty file (0600, `O_EXCL`, never through a symbolic
    /// link) when they do not exist yet, so that SQLite, which copies the database file's mode
    /// to `-wal` and `-shm`, never makes them readable by others. An existing path must be a
    /// regular file owned by the current user, not a symbolic link (SQLite would follow it);
    /// otherwise nothing is written and the error says why. Existing folders are left as they are.
    static func prepare(path: String) throws(StoreError) {
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty && !FileManager.default.fileExists(atPath: folder) {
            do {
                try FileManager.default.createDirectory(
                    atPath: folder, withIntermediateDirectories: true,
                    attributes: [.posixPermissions: 0o700])
            } catch {
                throw .cannotCreate(path: folder, reason: error.localizedDescription)
            }
        }
        // Checked with lstat, never by opening: closing any descriptor of a database file that
        // SQLite already has open in this process would drop SQLite's POSIX locks on it.
        if try check(path: path) { return }
        // A new file: O_EXCL|O_NOFOLLOW creates it or fails, it never opens what appeared meanwhile.
        let fd = open(path, O_CREAT | O_EXCL | O_NOFOLLOW | O_WRONLY | O_CLOEXEC, 0o600)
        if fd >= 0 {
            close(fd)  // a brand-new inode: no SQLite connection of this process holds locks on it
        } else if errno == EEXIST {
            _ = try check(path: path)  // created by someone else in between: the same rules apply
        } else {
            throw .cannotCreate(path: path, reason: String(cString: strerror(errno)))
        }
    }

    /// True when `path` is an acceptable existing store file, false when nothing is there;
    /// throws for a symbolic link, something that is not a regular file, or another user's file.
    static func check(path: String) throws(StoreError) -> Bool {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            if errno == ENOENT { return false }
            throw .cannotCreate(path: path, reason: String(cString: strerror(errno)))
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFLNK: throw .symbolicLink(path: path, target: linkTarget(path))
        case S_IFDIR: throw .notAFile(path: path, kind: "a folder")
        default: throw .notAFile(path: path, kind: "a device, socket or pipe")
        }
        if info.st_uid != geteuid() { throw .notOwned(path: path, owner: info.st_uid) }
        if info.st_nlink > 1 { throw .hardLinked(path: path, links: Int(info.st_nlink)) }
        return true
    }

    /// Where the link at `path` leads, as an absolute path (resolved fully when it exists).
    static func linkTarget(_ path: String) -> String {
        if let resolved = realpath(path, nil) {
            defer { free(resolved) }
            return String(cString: resolved)
        }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink(path, &buffer, buffer.count - 1)
        guard n > 0 else { return "?" }
        let target = String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if target.hasPrefix("/") { return target }
        let folder = (path as NSString).deletingLastPathComponent
        return ((folder.isEmpty ? "." : folder) as NSString).appendingPathComponent(target)
    }
}
