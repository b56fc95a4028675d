import ChimeCore
import Foundation
import GRDB
import Glibc

/// Tells a full disk apart from other storage failures, so every store operation can say
/// "the disk is full" instead of SQLite's bare "disk I/O error".
///
/// SQLite reports a full disk as `SQLITE_FULL` when a write to the database or its WAL finds no
/// room, but as an I/O error (`SQLITE_IOERR_WRITE`, `…_SHMSIZE`, `…_TRUNCATE`, …) or a failed
/// open when the shared-memory index or a new file cannot grow; the errno behind those is gone
/// by the time GRDB throws. An I/O error counts as a full disk when the file system holding the
/// store has less than ``nearlyFull`` bytes available to us.
enum DiskSpace {
    /// Less room than this next to an I/O error means the disk is full (a WAL index page is 32 KiB).
    static let nearlyFull: UInt64 = 256 * 1024

    /// Bytes available to this user on the file system holding `path` (its folder), or nil.
    static func freeBytes(near path: String) -> UInt64? {
        let folder = (path as NSString).deletingLastPathComponent
        var info = statvfs()
        guard statvfs(folder.isEmpty ? "." : folder, &info) == 0 else { return nil }
        return UInt64(info.f_bavail) * UInt64(info.f_frsize)
    }

    /// ``StoreError/diskFull(path:freeBytes:)`` when `error` comes from a full disk, else nil.
    static func fullDiskError(_ error: any Error, path: String) -> StoreError? {
        guard let error = error as? DatabaseError else { return nil }
        switch error.resultCode {
        case .SQLITE_FULL:
            return .diskFull(path: path, freeBytes: freeBytes(near: path) ?? 0)
        case .SQLITE_IOERR, .SQLITE_CANTOPEN:
            guard let free = freeBytes(near: path), free < nearlyFull else { return nil }
            return .diskFull(path: path, freeBytes: free)
        default:
            return nil
        }
    }
}

extension StoreError {
    /// `error` as a ``StoreError``: itself, an item that failed validation, a full disk, or
    /// the database's own error (its SQLite result code kept, for callers that decide on it).
    static func from(_ error: any Error, path: String) -> StoreError {
        if let error = error as? StoreError { return error }
        if let error = error as? ItemValidationError { return .invalid(error) }
        if let full = DiskSpace.fullDiskError(error, path: path) { return full }
        if let db = error as? DatabaseError, db.resultCode == .SQLITE_READONLY { return .readOnly(at: path) }
        return .database(path: path, resultCode: (error as? DatabaseError)?.extendedResultCode.rawValue, message: "\(error)")
    }
}

extension StoreError {
    /// ``readOnly(path:)``, or ``readOnlyFileSystem(path:)`` when the mount is what refuses (the
    /// advice differs: chmod cannot help there).
    static func readOnly(at path: String) -> StoreError {
        var info = statvfs()
        // The folder by hand: Foundation's deletingLastPathComponent traps on some paths.
        let folder = path.lastIndex(of: "/").map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        if statvfs(folder, &info) == 0, info.f_flag & UInt(ST_RDONLY) != 0 { return .readOnlyFileSystem(path: path) }
        return .readOnly(path: path)
    }
}
