import ChimeCore
import Foundation
import Glibc
import GRDB
import Synchronization

/// Notices commits to the database file from any process and hands the new journal entries to
/// subscribers. One thread blocks in `poll` on an inotify watch of the database folder (every
/// commit writes the `-wal` file) and on a pipe this process pokes after its own commits; it
/// never wakes on a timer, except a few times after a burst of events (5, 25, 100 and 400 ms
/// after the last one): SQLite writes WAL frames before it updates the WAL index (shared memory,
/// which inotify cannot see), so a reader that wakes at once can still see the old snapshot, and
/// on a loaded machine the writer can be descheduled between the two for longer than one look
/// would wait.
final class ChangeWatcher: Sendable {
    private struct Subscriber {
        var after: Int64
        let continuation: AsyncStream<ChangeSet>.Continuation
    }

    private struct State {
        var subscribers: [Int: Subscriber] = [:]
        var nextToken = 0
        var thread: Thread?
        var stopped = false
        /// Told once when the store's file is deleted or replaced under this process.
        var replacementWatchers: [AsyncStream<String>.Continuation] = []
        /// Why the file was found replaced, once it was.
        var replaced: String?
    }

    private let pool: DatabasePool
    private let directory: String
    private let fileName: String
    private let path: String
    /// The file's identity (device, inode) when the store was opened.
    private let identity: (device: UInt64, inode: UInt64)?
    private let state = Mutex(State())
    /// pipe: [read end, write end]; the write end wakes the thread.
    private let wakeRead: Int32
    private let wakeWrite: Int32

    /// Taken around reads where the store takes its reads one at a time (see `EventStore(path:longLived:)`).
    private let readGate: NSLock?

    init(pool: DatabasePool, path: String, readGate: NSLock? = nil) {
        self.readGate = readGate
        self.pool = pool
        let url = URL(fileURLWithPath: path)
        self.directory = url.deletingLastPathComponent().path
        self.fileName = url.lastPathComponent
        self.path = path
        var info = stat()
        identity = stat(path, &info) == 0 ? (UInt64(info.st_dev), UInt64(info.st_ino)) : nil
        var fds: [Int32] = [-1, -1]
        _ = pipe(&fds)
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        wakeRead = fds[0]
        wakeWrite = fds[1]
    }

    deinit {
        close(wakeRead)
        close(wakeWrite)
    }

    func subscribe(after sequence: Int64, _ continuation: AsyncStream<ChangeSet>.Continuation) -> Int {
        let token = state.withLock { s -> Int in
            s.nextToken += 1
            s.subscribers[s.nextToken] = Subscriber(after: sequence, continuation: continuation)
            startThread(&s)
            return s.nextToken
        }
        poke()
        return token
    }

    private func startThread(_ s: inout State) {
        guard s.thread == nil && !s.stopped else { return }
        let thread = Thread { [self] in run() }
        thread.name = "chime.store-watcher"
        s.thread = thread
        thread.start()
    }

    /// The store's file deleted or replaced (another inode at its path) while this process has
    /// it open: the one event, with what happened, then the stream ends. SQLite goes on with the
    /// deleted file, so nothing written to it reaches anyone else.
    func fileReplacements() -> AsyncStream<String> {
        let (stream, continuation) = AsyncStream.makeStream(of: String.self)
        let already = state.withLock { s -> String? in
            if s.replaced == nil { s.replacementWatchers.append(continuation) }
            startThread(&s)
            return s.replaced
        }
        if let already {
            continuation.yield(already)
            continuation.finish()
        }
        poke()
        return stream
    }

    /// Why the file at the store's path is no longer the one opened, or nil while it is.
    private func replacement() -> String? {
        guard let identity else { return nil }
        var info = stat()
        guard stat(path, &info) == 0 else { return "\(path) was deleted" }
        return (UInt64(info.st_dev), UInt64(info.st_ino)) == identity ? nil : "\(path) was replaced by another file"
    }

    private func reportReplacement() {
        guard let why = replacement() else { return }
        let watchers = state.withLock { s -> [AsyncStream<String>.Continuation] in
            guard s.replaced == nil else { return [] }
            s.replaced = why
            defer { s.replacementWatchers.removeAll() }
            return s.replacementWatchers
        }
        for watcher in watchers {
            watcher.yield(why)
            watcher.finish()
        }
    }

    func unsubscribe(_ token: Int) {
        state.withLock { _ = $0.subscribers.removeValue(forKey: token) }
    }

    /// Wakes the thread (after a commit in this process, a new subscriber, or a stop).
    func poke() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    func stop() {
        let (subscribers, watchers) = state.withLock { s -> ([Subscriber], [AsyncStream<String>.Continuation]) in
            s.stopped = true
            defer { s.subscribers.removeAll(); s.replacementWatchers.removeAll() }
            return (Array(s.subscribers.values), s.replacementWatchers)
        }
        for s in subscribers { s.continuation.finish() }
        for w in watchers { w.finish() }
        poke()
    }

    private func run() {
        let inotify = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        defer { if inotify >= 0 { close(inotify) } }
        if inotify >= 0 {
            _ = inotify_add_watch(inotify, directory, UInt32(IN_MODIFY | IN_CREATE | IN_MOVED_TO | IN_CLOSE_WRITE | IN_DELETE | IN_MOVED_FROM))
        }
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        // Index into `Self.recheckDelays` of the next look after a burst; nil: sleep until an event.
        var recheckStep: Int? = nil
        while !state.withLock({ $0.stopped }) {
            var fds = [
                pollfd(fd: inotify, events: Int16(POLLIN), revents: 0),
                pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)
            ]
            let ready = poll(&fds, 2, recheckStep.map { Self.recheckDelays[$0] } ?? -1)
            if ready < 0 && errno == EINTR { continue }
            var relevant = false
            if fds[1].revents != 0 {
                while buffer.withUnsafeMutableBytes({ read(wakeRead, $0.baseAddress, $0.count) }) > 0 {}
                relevant = true
            }
            if fds[0].revents != 0 {
                var n = 0
                repeat {
                    n = buffer.withUnsafeMutableBytes { read(inotify, $0.baseAddress, $0.count) }
                    if n > 0 && mentionsDatabase(buffer, count: n) { relevant = true }
                } while n > 0
            }
            if relevant {
                recheckStep = 0
            } else if ready == 0, let step = recheckStep {
                recheckStep = step + 1 < Self.recheckDelays.count ? step + 1 : nil
            } else {
                continue
            }
            reportReplacement()
            deliver()
        }
    }

    /// Milliseconds between the looks after the last event of a burst.
    private static let recheckDelays: [Int32] = [5, 20, 75, 300]

    /// True when an event batch names the database file or its `-wal`/`-journal` companions.
    private func mentionsDatabase(_ buffer: [UInt8], count: Int) -> Bool {
        var offset = 0
        let header = MemoryLayout<inotify_event>.size
        while offset + header <= count {
            let length = buffer.withUnsafeBytes { Int($0.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self)) }
            let nameBytes = buffer[(offset + header)..<min(count, offset + header + length)].prefix { $0 != 0 }
            if let name = String(bytes: nameBytes, encoding: .utf8), name.hasPrefix(fileName) { return true }
            offset += header + length
        }
        return false
    }

    private func deliver() {
        let cursors = state.withLock { $0.subscribers.mapValues(\.after) }
        guard let oldest = cursors.values.min() else { return }
        readGate?.lock()
        let read = try? pool.read({ db in try Journal.entries(after: oldest, in: db) })
        readGate?.unlock()
        guard let (entries, _) = read else { return }
        guard let newest = entries.last?.sequence else { return }
        let truncationFloor = entries.first.map { $0.sequence - 1 } ?? newest
        state.withLock { s in
            for (token, var subscriber) in s.subscribers {
                let mine = entries.filter { $0.sequence > subscriber.after }
                guard !mine.isEmpty else { continue }
                let truncated = subscriber.after < truncationFloor
                subscriber.continuation.yield(ChangeSet(changes: mine, lastSequence: newest, isTruncated: truncated))
                subscriber.after = newest
                s.subscribers[token] = subscriber
            }
        }
    }
}
