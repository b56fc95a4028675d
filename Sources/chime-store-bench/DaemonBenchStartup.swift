import Foundation
import Glibc

/// Start-up and footprint: spawn → "scheduled, sleeping", `--runs` times, each run followed by
/// `calcurse -D DIR -Q --days 1` on the same events (load everything, list the next day), so
/// both see the same machine noise. Memory and CPU are read from /proc a moment after the line.
enum DaemonStartup {
    struct Result {
        var spawnToSleeping = Sample()
        var selfReported = Sample()
        var calcurse = Sample()
        var rssKiB = Sample()
        var hwmKiB = Sample()
        var anonKiB = Sample()
        var fileKiB = Sample()
        /// One start on an empty store: what the runtime and libraries cost without data.
        var emptyStartupMs = Double.nan
        var emptyMemory: ProcStats.Memory?
        var cpuMs = Sample()
        var stopMs = Sample()
        var threads: [Int] = []
        /// Notifications printed per run (catch-up at start of firings since the previous run).
        var catchUp: [Int] = []
        var next = "?"
        var calcurseError: String?
    }

    /// How long after "scheduled, sleeping" memory is read (the sleep's timer thread has started).
    static let settleSeconds = 0.25

    static func measure(
        launcher: DaemonLauncher, store: String, emptyFolder: String, runs: Int, calcurse: String?,
        calcurseDir: String, calcurseEnvironment: [String: String]
    ) throws(DaemonBenchError) -> Result {
        var result = Result()
        let calcurseArgs = ["-D", calcurseDir, "-Q", "--days", "1"]
        // Warm-up, untimed: the first start on the copy, and calcurse once.
        try launcher.start(store: store).child.stop()
        if let calcurse, timeProcess(calcurse, calcurseArgs, environment: calcurseEnvironment).status != 0 {
            result.calcurseError = "calcurse -Q exited with an error; not compared"
        }
        for _ in 0..<runs {
            let daemon = try launcher.start(store: store)
            result.spawnToSleeping.add(daemon.startupMilliseconds)
            if let own = daemon.selfReportedMilliseconds { result.selfReported.add(own) }
            result.next = daemon.nextText
            sleepFor(settleSeconds)
            if let m = ProcStats.memory(daemon.pid) {
                result.rssKiB.add(Double(m.rssKiB))
                result.hwmKiB.add(Double(m.hwmKiB))
                result.anonKiB.add(Double(m.anonKiB))
                result.fileKiB.add(Double(m.fileKiB))
                result.threads.append(m.threads)
            }
            if let ticks = ProcStats.cpuTicks(daemon.pid) { result.cpuMs.add(Double(ticks) / ProcStats.ticksPerSecond * 1e3) }
            let stopped = daemon.child.stop()
            daemon.child.stdout.waitClosed(timeout: 5)
            result.catchUp.append(daemon.child.stdout.count)
            result.stopMs.add(stopped.milliseconds)
            if stopped.status != 0 { throw DaemonBenchError("daemon exited with status \(stopped.status) after SIGTERM: \(daemon.child.stderrTail())") }

            if let calcurse, result.calcurseError == nil {
                let r = timeProcess(calcurse, calcurseArgs, environment: calcurseEnvironment)
                if r.status == 0 { result.calcurse.add(r.seconds * 1e3) } else { result.calcurseError = "calcurse -Q exited with status \(r.status)" }
            }
        }
        // The baseline: the same daemon on a store with no items (created by the daemon).
        try? FileManager.default.createDirectory(atPath: emptyFolder, withIntermediateDirectories: true)
        for suffix in ["", "-wal", "-shm"] { unlink(emptyFolder + "/chime.sqlite" + suffix) }
        try launcher.start(store: emptyFolder + "/chime.sqlite").child.stop()  // creates it
        let empty = try launcher.start(store: emptyFolder + "/chime.sqlite")
        result.emptyStartupMs = empty.startupMilliseconds
        sleepFor(settleSeconds)
        result.emptyMemory = ProcStats.memory(empty.pid)
        empty.child.stop()
        return result
    }
}
