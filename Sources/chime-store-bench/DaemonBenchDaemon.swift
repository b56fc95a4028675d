import ChimeCore
import Foundation
import Glibc

/// Starts `chime daemon --notifier stdout` the way every part of the daemon benchmark does:
/// TZ=UTC, a scratch HOME and XDG_CONFIG_HOME (the developer's config is never read), an
/// explicit `--config` with the log level, and waits for its "scheduled, sleeping" line.
struct DaemonLauncher {
    let chime: String
    let environment: [String: String]
    let infoConfig: String
    let debugConfig: String

    /// Writes the two config files into `folder` (not a store's folder: the daemon watches that one).
    /// `extraEnvironment` is added to every process it starts (a private session bus's address).
    init(chime: String, folder: String, extraEnvironment: [String: String] = [:]) throws(DaemonBenchError) {
        self.chime = chime
        var env = ProcessInfo.processInfo.environment.merging(extraEnvironment) { $1 }
        env["TZ"] = "UTC"
        env["HOME"] = folder
        env["XDG_CONFIG_HOME"] = folder + "/xdg-config"
        env["XDG_DATA_HOME"] = folder + "/xdg-data"
        environment = env
        infoConfig = folder + "/daemon-info.toml"
        debugConfig = folder + "/daemon-debug.toml"
        do {
            try "[log]\nlevel = \"info\"\n".write(toFile: infoConfig, atomically: false, encoding: .utf8)
            try "[log]\nlevel = \"debug\"\n".write(toFile: debugConfig, atomically: false, encoding: .utf8)
        } catch {
            throw DaemonBenchError("writing the daemon's config files: \(error)")
        }
    }

    /// Spawns the daemon on `store` and waits (up to `timeout` s) for "scheduled, sleeping".
    func start(store: String, debug: Bool = false, timeout: Double = 60) throws(DaemonBenchError) -> RunningDaemon {
        var env = environment
        env["CHIME_STORE"] = store
        let child: PipedChild
        switch PipedChild.start(
            chime,
            [
                "daemon", "--store", store, "--notifier", "stdout",
                "--config", debug ? debugConfig : infoConfig
            ], environment: env)
        {
        case .success(let c): child = c
        case .failure(let e): throw e
        }
        guard let (index, line) = child.stderr.waitFor(from: 0, timeout: timeout, { $0.contains("scheduled, sleeping") }) else {
            let running = child.isRunning
            child.stop()
            throw DaemonBenchError("no \"scheduled, sleeping\" within \(Int(timeout)) s (\(running ? "still running" : "exited")): \(child.stderrTail())")
        }
        return RunningDaemon(child: child, ready: line, readyIndex: index)
    }

    /// Runs a chime CLI command to completion (stdout captured); its status, stdout lines, and
    /// spawn and reaped-exit instants (CLOCK_REALTIME ns).
    func cli(_ args: [String], store: String) throws(DaemonBenchError) -> (status: Int32, stdout: [String], spawned: Int64, exited: Int64) {
        var env = environment
        env["CHIME_STORE"] = store
        let child: PipedChild
        switch PipedChild.start(chime, args + ["--store", store], environment: env) {
        case .success(let c): child = c
        case .failure(let e): throw e
        }
        let status = child.waitExit()
        let exited = realtimeNanos()
        child.stdout.waitClosed(timeout: 5)
        child.stderr.waitClosed(timeout: 5)
        if status != 0 { throw DaemonBenchError("chime \(args.first ?? "") exited with status \(status): \(child.stderrTail())") }
        return (status, child.stdout.lines().map(\.text), child.spawnedAt, exited)
    }
}

/// A daemon that has logged "scheduled, sleeping".
struct RunningDaemon {
    let child: PipedChild
    /// The "scheduled, sleeping" line and its index among the stderr lines.
    let ready: TimedLine
    let readyIndex: Int

    var pid: pid_t { child.pid }
    /// Spawn → arrival of the line, ms.
    var startupMilliseconds: Double { Double(ready.nanos - child.spawnedAt) / 1e6 }
    /// The daemon's own `startup_ms=` (measured from the start of `Daemon.run`, after exec,
    /// runtime start-up and argument and config parsing).
    var selfReportedMilliseconds: Double? { LogLine.value("startup_ms", in: ready.text).flatMap(Double.init) }
    /// The deadline it sleeps until (seconds since 1970); nil for "none".
    var next: Int64? { LogLine.value("next", in: ready.text).flatMap(ISOTime.seconds) }
    var nextText: String { LogLine.value("next", in: ready.text) ?? "?" }
}

/// swift-log's `key=value` metadata in a StreamLogHandler line.
enum LogLine {
    static func value(_ key: String, in line: String) -> String? {
        for token in line.split(separator: " ") where token.hasPrefix(key + "=") {
            return String(token.dropFirst(key.count + 1))
        }
        return nil
    }
}

/// `2026-11-22T05:26:18Z` and `2026-11-22T05:26:18.001Z` (UTC) as numbers.
enum ISOTime {
    static func milliseconds(_ text: String) -> Int64? {
        let b = Array(text.utf8)
        guard b.count >= 20, b[4] == 45, b[7] == 45, b[10] == 84, b[13] == 58, b[16] == 58, b.last == 90 else { return nil }
        func number(_ r: Range<Int>) -> Int? {
            var n = 0
            for i in r { guard (48...57).contains(b[i]) else { return nil }; n = n * 10 + Int(b[i] - 48) }
            return n
        }
        guard let y = number(0..<4), let mo = number(5..<7), let d = number(8..<10),
            let h = number(11..<13), let mi = number(14..<16), let s = number(17..<19)
        else { return nil }
        var ms = 0
        if b[19] == 46 {  // ".mmm"
            guard b.count == 24, let f = number(20..<23) else { return nil }
            ms = f
        } else if b.count != 20 {
            return nil
        }
        let days = Int64(CivilDate(year: y, month: mo, day: d).daysSinceEpoch)
        return (days * 86_400 + Int64(h * 3600 + mi * 60 + s)) * 1000 + Int64(ms)
    }

    static func seconds(_ text: String) -> Int64? { milliseconds(text).map { $0 / 1000 } }
}

/// The current wall-clock second.
func nowSeconds() -> Int64 { realtimeNanos() / 1_000_000_000 }
