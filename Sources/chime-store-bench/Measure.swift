import ChimeTestSupport
import Foundation
import Glibc

// Timing, statistics and child processes for the store benchmark.

func seconds(_ d: Duration) -> Double { Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18 }

/// Wall-clock time (CLOCK_REALTIME) in nanoseconds since 1970: comparable across processes.
func realtimeNanos() -> Int64 {
    var ts = timespec()
    clock_gettime(CLOCK_REALTIME, &ts)
    return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
}

func loadAverage() -> String {
    ((try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "?").trimmingCharacters(in: .whitespacesAndNewlines)
}

func fileSize(_ path: String) -> Int64 {
    var st = stat()
    return stat(path, &st) == 0 ? Int64(st.st_size) : 0
}

/// The first executable named `name` on $PATH.
func which(_ name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return path.split(separator: ":").map { "\($0)/\(name)" }.first { access($0, X_OK) == 0 }
}

/// Starts `path` with `args`; stdout goes to `stdout` (a file path, truncated), stderr is inherited.
func spawn(_ path: String, _ args: [String], environment: [String: String], stdout: String = "/dev/null", stderr: String? = nil) -> pid_t? {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    if let stderr { posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o644) }
    let argv: [UnsafeMutablePointer<CChar>?] = ([path] + args).map { strdup($0) } + [nil]
    let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { for p in argv + envp { free(p) } }
    var pid: pid_t = 0
    let rc = posix_spawn(&pid, path, &actions, nil, argv, envp)
    return rc == 0 ? pid : nil
}

/// Waits for `pid`; returns its exit status (128 + signal when killed).
func wait(_ pid: pid_t) -> Int32 {
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    return status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
}

/// Runs a whole process to completion; wall seconds from spawn to reaped exit.
func timeProcess(_ path: String, _ args: [String], environment: [String: String], stdout: String = "/dev/null") -> (seconds: Double, status: Int32) {
    let clock = ContinuousClock()
    let start = clock.now
    guard let pid = spawn(path, args, environment: environment, stdout: stdout) else { return (.nan, 127) }
    let status = wait(pid)
    return (seconds(clock.now - start), status)
}

/// A statistic over runs: median and minimum.
struct Sample {
    var values: [Double] = []
    mutating func add(_ x: Double) { values.append(x) }
    var median: Double { Statistics.median(values) }
    var min: Double { values.min() ?? .nan }
}

// Number formatting for the report.
func fixed(_ x: Double, _ digits: Int) -> String { String(format: "%.\(digits)f", x) }

func grouped(_ n: Int) -> String {
    let s = String(n.magnitude)
    var out = ""
    for (i, c) in s.enumerated() {
        if i > 0 && (s.count - i) % 3 == 0 { out.append(",") }
        out.append(c)
    }
    return (n < 0 ? "-" : "") + out
}

func padRight(_ s: String, _ width: Int) -> String { s.count >= width ? s : s + String(repeating: " ", count: width - s.count) }
