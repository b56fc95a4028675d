import ChimeCore
import ChimeStore
import Foundation
import Glibc

/// Cross-process change latency: a child process (this executable, `--writer PATH N`) commits N
/// reminders about 20 ms apart, each titled with CLOCK_REALTIME in ns taken just before
/// `save(…, commit: true)`; the parent consumes `store.changes` on the same file, reads every
/// inserted reminder and records now − that timestamp.
enum LatencyProbe {
    static let prefix = "latency-probe "
    static let gapNanos = 20_000_000

    /// The child: commits `count` probe reminders, then exits.
    static func writerMain(path: String, count: Int) -> Never {
        do {
            let store = try EventStore(path: path, floatingZone: .utc)
            let list = try store.defaultCalendarForNewReminders()
            for _ in 0..<count {
                var pause = timespec(tv_sec: 0, tv_nsec: gapNanos), left = timespec()
                while nanosleep(&pause, &left) != 0 && errno == EINTR { pause = left }
                var r = Reminder(title: prefix, calendar: list.identifier)
                r.title = prefix + String(realtimeNanos())
                try store.save(r, commit: true)
            }
            exit(0)
        } catch {
            FileHandle.standardError.write("writer: \(error)\n".data(using: .utf8)!)
            exit(1)
        }
    }

    /// One writer run; returns the latencies in ms (fewer than `count` if some never arrived
    /// within the time limit) and the writer's exit status.
    static func measure(
        store: EventStore, path: String, count: Int, executable: String,
        environment: [String: String]
    ) async -> (latencies: [Double], status: Int32) {
        let stream = store.changes  // subscribed from now on
        guard let pid = spawn(executable, ["--writer", path, String(count)], environment: environment) else { return ([], 127) }
        let consumer = Task { () -> [Double] in
            var latencies: [Double] = []
            for await set in stream {
                for id in set.inserted {
                    guard let r = try? store.reminder(withIdentifier: id), r.title.hasPrefix(prefix),
                        let sent = Int64(r.title.dropFirst(prefix.count))
                    else { continue }
                    latencies.append(Double(realtimeNanos() - sent) / 1e6)
                }
                if latencies.count >= count { break }
            }
            return latencies
        }
        let limit = Task {
            try? await Task.sleep(for: .milliseconds(count * gapNanos / 1_000_000 + 15_000))
            consumer.cancel()
        }
        let latencies = await consumer.value
        limit.cancel()
        return (latencies, wait(pid))
    }
}

/// `PRAGMA wal_checkpoint(TRUNCATE)` and `VACUUM INTO` through the SQLite library GRDB already
/// loaded into this process (the benchmark target does not depend on GRDB directly, so it is
/// reached by dlsym).
enum SQLiteCheckpoint {
    typealias Open = @convention(c) (UnsafePointer<CChar>?, UnsafeMutablePointer<OpaquePointer?>?) -> Int32
    typealias Exec =
        @convention(c) (
            OpaquePointer?, UnsafePointer<CChar>?, OpaquePointer?, UnsafeMutableRawPointer?,
            UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
        ) -> Int32
    typealias Close = @convention(c) (OpaquePointer?) -> Int32

    /// nil on success, else what went wrong.
    static func run(path: String) -> String? {
        execute("PRAGMA busy_timeout = 5000; PRAGMA wal_checkpoint(TRUNCATE);", on: path).map { "wal_checkpoint: \($0)" }
    }

    /// A consistent copy of the database at `source` written to `target` by SQLite itself
    /// (`VACUUM INTO`), committed WAL content included. Copying the file with descriptors of our
    /// own would be wrong while this process has the store open: closing any descriptor of a file
    /// drops every POSIX lock the process holds on it, SQLite's included, and another process
    /// then takes itself for the last user and deletes the -wal and -shm files under our open
    /// connections ("disk I/O error" on the next read).
    static func copy(from source: String, to target: String) -> String? {
        let quoted = target.replacingOccurrences(of: "'", with: "''")
        return execute("PRAGMA busy_timeout = 5000; VACUUM INTO '\(quoted)';", on: source).map { "VACUUM INTO: \($0)" }
    }

    private static func execute(_ sql: String, on path: String) -> String? {
        guard let lib = dlopen("libsqlite3.so.0", RTLD_NOW) else { return "dlopen libsqlite3.so.0 failed" }
        guard let o = dlsym(lib, "sqlite3_open"), let x = dlsym(lib, "sqlite3_exec"), let c = dlsym(lib, "sqlite3_close")
        else { return "sqlite3 symbols not found" }
        let open = unsafeBitCast(o, to: Open.self), exec = unsafeBitCast(x, to: Exec.self), close = unsafeBitCast(c, to: Close.self)
        var db: OpaquePointer?
        guard open(path, &db) == 0 else { _ = close(db); return "sqlite3_open failed" }
        defer { _ = close(db) }
        var message: UnsafeMutablePointer<CChar>?
        let rc = exec(db, sql, nil, nil, &message)
        return rc == 0 ? nil : "rc \(rc) \(message.map { String(cString: $0) } ?? "")"
    }
}
