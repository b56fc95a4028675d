import Foundation
import Glibc

/// One daemon per store: an exclusive `flock` on `STORE.daemon.lock`, holding the owner's PID.
/// The kernel releases it when the process dies, even by `kill -9`, so a stale file never blocks.
///
/// ```swift
/// let lock = try DaemonLock.acquire(forStore: "/home/me/.local/share/chime/chime.sqlite")
/// defer { lock.release() }
/// ```
public final class DaemonLock: Sendable {
    public let path: String
    private let fd: Int32

    private init(path: String, fd: Int32) {
        self.path = path
        self.fd = fd
    }

    public static func lockPath(forStore store: String) -> String { store + ".daemon.lock" }

    public static func acquire(forStore store: String) throws(DaemonError) -> DaemonLock {
        let path = lockPath(forStore: store)
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .cannotLock(path: path, reason: String(cString: strerror(errno))) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let owner = Self.readPID(fd)
            close(fd)
            throw .alreadyRunning(store: store, pid: owner)
        }
        let pid = "\(getpid())\n"
        _ = ftruncate(fd, 0)
        _ = pid.withCString { pwrite(fd, $0, strlen($0), 0) }
        return DaemonLock(path: path, fd: fd)
    }

    public func release() {
        _ = ftruncate(fd, 0)
        close(fd)
    }

    private static func readPID(_ fd: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let n = pread(fd, &buffer, buffer.count, 0)
        guard n > 0 else { return nil }
        return Int32(String(decoding: buffer[..<n], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }
}

/// Why the daemon cannot start.
public enum DaemonError: Error, Hashable, Sendable, CustomStringConvertible {
    case alreadyRunning(store: String, pid: Int32?)
    case cannotLock(path: String, reason: String)
    case notifierUnavailable(String)
    /// The location source cannot be used (an unreadable or broken replay track).
    case locationUnavailable(String)

    public var description: String {
        switch self {
        case .alreadyRunning(let store, let pid):
            return "another chime daemon\(pid.map { " (pid \($0))" } ?? "") is already running for \(store); stop it first (kill \(pid.map(String.init) ?? "<pid>"), or systemctl --user stop chime)"
        case .cannotLock(let path, let reason): return "cannot create the daemon lock \(path): \(reason)"
        case .notifierUnavailable(let message): return "--notifier libnotify: \(message)"
        case .locationUnavailable(let message): return "location: \(message)"
        }
    }
}
