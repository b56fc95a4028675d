import Foundation
import Glibc

/// A child process with standard input from /dev/null and standard output and error on pipes,
/// each read and timestamped line by line by a ``LineCollector``.
final class PipedChild {
    let pid: pid_t
    /// CLOCK_REALTIME (ns) just before `posix_spawn`.
    let spawnedAt: Int64
    let stdout: LineCollector
    let stderr: LineCollector
    private(set) var exitStatus: Int32?

    private init(pid: pid_t, spawnedAt: Int64, stdout: LineCollector, stderr: LineCollector) {
        self.pid = pid
        self.spawnedAt = spawnedAt
        self.stdout = stdout
        self.stderr = stderr
    }

    /// Starts `path` with `args`, or says why it could not.
    static func start(_ path: String, _ args: [String], environment: [String: String]) -> Result<PipedChild, DaemonBenchError> {
        // Close-on-exec everywhere (set right away: this process spawns from one thread only).
        var out: [Int32] = [-1, -1], err: [Int32] = [-1, -1]
        guard pipe(&out) == 0 else { return .failure(DaemonBenchError("pipe: errno \(errno)")) }
        guard pipe(&err) == 0 else {
            close(out[0]); close(out[1])
            return .failure(DaemonBenchError("pipe: errno \(errno)"))
        }
        for fd in out + err { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, out[1], 1)  // dup2 clears close-on-exec on 1 and 2
        posix_spawn_file_actions_adddup2(&actions, err[1], 2)
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + args).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for p in argv + envp { free(p) } }
        var pid: pid_t = 0
        let spawnedAt = realtimeNanos()
        let rc = posix_spawn(&pid, path, &actions, nil, argv, envp)
        close(out[1])
        close(err[1])
        if rc != 0 {
            close(out[0]); close(err[0])
            return .failure(DaemonBenchError("posix_spawn \(path): error \(rc)"))
        }
        return .success(
            PipedChild(
                pid: pid, spawnedAt: spawnedAt,
                stdout: LineCollector(fd: out[0], name: "bench-stdout-\(pid)"),
                stderr: LineCollector(fd: err[0], name: "bench-stderr-\(pid)")))
    }

    /// Reaps the child if it has exited, waiting up to `timeout` seconds; its status (128 +
    /// signal when killed), or nil while it still runs.
    @discardableResult
    func waitExit(timeout: Double) -> Int32? {
        if let exitStatus { return exitStatus }
        let deadline = realtimeNanos() + Int64(timeout * 1e9)
        while true {
            var status: Int32 = 0
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid {
                exitStatus = status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
                return exitStatus
            }
            if r < 0 && errno != EINTR { exitStatus = -1; return exitStatus }
            if realtimeNanos() >= deadline { return nil }
            sleepFor(0.002)
        }
    }

    /// Blocks in `waitpid` until the child exits (no polling delay in the exit instant).
    func waitExit() -> Int32 {
        if let exitStatus { return exitStatus }
        var status: Int32 = 0
        var r: pid_t
        repeat { r = waitpid(pid, &status, 0) } while r < 0 && errno == EINTR
        exitStatus = r != pid ? -1 : status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return exitStatus!
    }

    var isRunning: Bool { waitExit(timeout: 0) == nil }

    /// SIGTERM (graceful stop), then SIGKILL if it has not exited within `timeout` seconds.
    /// Returns the exit status and the milliseconds from SIGTERM to the reaped exit.
    @discardableResult
    func stop(timeout: Double = 10) -> (status: Int32, milliseconds: Double) {
        if let exitStatus { return (exitStatus, 0) }
        let sent = realtimeNanos()
        kill(pid, SIGTERM)
        if let status = waitExit(timeout: timeout) { return (status, Double(realtimeNanos() - sent) / 1e6) }
        kill(pid, SIGKILL)
        let status = waitExit(timeout: 10) ?? -1
        return (status, Double(realtimeNanos() - sent) / 1e6)
    }

    /// The last `n` lines of standard error, for error messages.
    func stderrTail(_ n: Int = 5) -> String {
        stderr.lines().suffix(n).map(\.text).joined(separator: " | ")
    }
}

/// Sleeps `seconds` on the monotonic clock (nanosleep, resumed after signals).
func sleepFor(_ seconds: Double) {
    guard seconds > 0 else { return }
    var request = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - Double(Int(seconds))) * 1e9))
    var left = timespec()
    while nanosleep(&request, &left) != 0 && errno == EINTR { request = left }
}

/// Why a part of the daemon benchmark could not be measured.
struct DaemonBenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
