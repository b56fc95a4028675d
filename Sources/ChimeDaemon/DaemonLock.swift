import Foundation
import Glibc

/// One daemon per store: an exclusive `flock` on the store file itself, so a hard link or another
/// path to the same file is the same store. It creates and writes nothing: the owner's PID, for
/// the "already running" message, is read from `/proc/locks`. The kernel releases the lock when
/// the process dies, even by `kill -9`, so nothing stale ever blocks.
///
/// The descriptor is opened `O_RDONLY|O_NOFOLLOW` and never closed while the process lives:
/// closing any descriptor of an SQLite file drops every POSIX (fcntl) lock this process holds
/// on it, SQLite's included. `flock` and fcntl locks are independent on Linux, so this lock
/// does not disturb SQLite's.
///
/// ```swift
/// let store = try EventStore(path: "/home/me/.local/share/chime/chime.sqlite")   // checks the file first
/// let lock = try DaemonLock.acquire(forStore: store.path)
/// defer { lock.release() }
/// ```
public final class DaemonLock: Sendable {
    /// The store file the lock is on.
    public let path: String
    private let fd: Int32

    private init(path: String, fd: Int32) {
        self.path = path
        self.fd = fd
    }

    /// Locks the existing store file at `store`; open the store first (``EventStore`` checks it
    /// is a regular file of ours and not a symbolic link), so a refused path gains nothing.
    public static func acquire(forStore store: String) throws(DaemonError) -> DaemonLock {
        let fd = open(store, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { throw .cannotLock(path: store, reason: String(cString: strerror(errno))) }
        // From here on the descriptor stays open even on failure (see the type's comment); the
        // process is about to report the error and exit.
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            throw .cannotLock(path: store, reason: "not a regular file")
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            if errno == EWOULDBLOCK {
                throw .alreadyRunning(store: store, pid: Self.lockOwner(device: info.st_dev, inode: info.st_ino))
            }
            throw .cannotLock(path: store, reason: String(cString: strerror(errno)))
        }
        return DaemonLock(path: store, fd: fd)
    }

    /// Gives the lock up. The descriptor stays open (see the type's comment); the kernel closes it at exit.
    public func release() {
        _ = flock(fd, LOCK_UN)
    }

    /// Whether a daemon holds the lock on the store file at `store`, without taking it: read
    /// from `/proc/locks` only (nothing is opened, so no lock of this process is disturbed).
    /// `.held(pid: nil)` cannot happen: a lock whose holder is not listed is not seen at all.
    ///
    /// ```swift
    /// if case .held(let pid) = DaemonLock.holder(ofStore: path) { print("a daemon is running (pid \(pid))") }
    /// ```
    public static func holder(ofStore store: String, locks: String? = nil) -> Holder {
        var info = stat()
        guard stat(store, &info) == 0 else {
            return errno == ENOENT ? .free : .unknown(String(cString: strerror(errno)))
        }
        guard let text = locks ?? (try? String(contentsOfFile: "/proc/locks", encoding: .utf8)) else {
            return .unknown("/proc/locks cannot be read")
        }
        return lockOwner(device: UInt(info.st_dev), inode: UInt(info.st_ino), locks: text).map { .held(pid: $0) } ?? .free
    }

    /// Who holds a store's daemon lock (``holder(ofStore:locks:)``).
    public enum Holder: Hashable, Sendable {
        case free
        case held(pid: Int32)
        /// The lock table could not be read (the reason).
        case unknown(String)
    }

    /// The process holding an exclusive `flock` on the file (`/proc/locks` lists `FLOCK ADVISORY
    /// WRITE PID MAJOR:MINOR:INODE …`); nil when it cannot be told.
    static func lockOwner(device: UInt, inode: UInt, locks: String? = nil) -> Int32? {
        guard let text = locks ?? (try? String(contentsOfFile: "/proc/locks", encoding: .utf8)) else { return nil }
        let dev = UInt64(device)  // glibc's major()/minor() encoding
        let major = ((dev >> 8) & 0xfff) | ((dev >> 32) & ~0xfff), minor = (dev & 0xff) | ((dev >> 12) & ~0xff)
        func hex(_ n: UInt64) -> String { let h = String(n, radix: 16); return h.count < 2 ? "0" + h : h }
        let wantedDevice = hex(major) + ":" + hex(minor)
        var sameInode: [(device: Substring, pid: Int32)] = []
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard let kind = fields.firstIndex(of: "FLOCK"), fields.count > kind + 4, fields[kind + 2] == "WRITE",
                let pid = Int32(fields[kind + 3])
            else { continue }
            let id = fields[kind + 4].split(separator: ":")
            guard id.count == 3, UInt(id[2]) == inode else { continue }
            sameInode.append(("\(id[0]):\(id[1])", pid))
        }
        if let exact = sameInode.first(where: { $0.device == wantedDevice }) { return exact.pid }
        // Overlay and FUSE file systems can report another device number: an inode alone will do when unique.
        return sameInode.count == 1 ? sameInode[0].pid : nil
    }
}

/// Why the daemon cannot start.
public enum DaemonError: Error, Hashable, Sendable, CustomStringConvertible {
    case alreadyRunning(store: String, pid: Int32?)
    case cannotLock(path: String, reason: String)
    case notifierUnavailable(String)
    /// The location source cannot be used (an unreadable or broken replay track).
    case locationUnavailable(String)
    /// The configuration file cannot be used (unreadable, not TOML, a value out of range). The
    /// geofence commands read it too, for the same settings as the daemon.
    case configuration(ConfigurationError)
    /// The store file was deleted or replaced while the daemon ran.
    case storeReplaced(String)

    /// The exit status of `chime daemon` refused because another daemon holds the store: not 1,
    /// so a service manager can tell "already running" from a failure. Config/chime.service lists
    /// it in `RestartPreventExitStatus=`: restarting would only be refused again, every few seconds.
    public static let alreadyRunningExitStatus: Int32 = 3

    /// The exit status `chime daemon` ends with for this error.
    public var exitStatus: Int32 {
        if case .alreadyRunning = self { return Self.alreadyRunningExitStatus }
        return 1
    }

    public var description: String {
        switch self {
        case .alreadyRunning(let store, let pid):
            return
                "another chime daemon\(pid.map { " (pid \($0))" } ?? "") is already running for \(store); stop it first (kill \(pid.map(String.init) ?? "<pid>"), or systemctl --user stop chime)"
        case .cannotLock(let path, let reason): return "cannot take the daemon lock on \(path): \(reason)"
        case .notifierUnavailable(let message): return "--notifier libnotify: \(message)"
        case .locationUnavailable(let message): return "location: \(message)"
        case .configuration(let error): return "configuration: \(error)"
        case .storeReplaced(let why): return "\(why) while the daemon ran; start it again to follow the file now at that path"
        }
    }
}
