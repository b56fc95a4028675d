import Foundation

/// The daemon on a store that grew over ten years (`--history N`: N past events beside the
/// current ones, same current weeks) against the same daemon on the current events alone: start
/// (spawn → "scheduled, sleeping") and resident memory, the two stores' starts interleaved run by
/// run; then CLI edit → "rescheduled" on the grown store. Nothing in the past can ring, so the
/// grown store should cost about what the current one does.
enum DaemonGrown {
    struct Result {
        var currentStart = Sample()
        var grownStart = Sample()
        var currentRSSKiB = Sample()
        var grownRSSKiB = Sample()
        var grownHWMKiB = Sample()
        var reschedule = DaemonReschedule.Result()
    }

    static func measure(
        launcher: DaemonLauncher, current: String, grown: String, runs: Int, edits: Int
    ) throws(DaemonBenchError) -> Result {
        var result = Result()
        // Warm-up, untimed: a first start on each copy.
        try launcher.start(store: current).child.stop()
        try launcher.start(store: grown).child.stop()
        for _ in 0..<runs {
            for (store, isGrown) in [(current, false), (grown, true)] {
                let daemon = try launcher.start(store: store)
                sleepFor(DaemonStartup.settleSeconds)
                let memory = ProcStats.memory(daemon.pid)
                if isGrown {
                    result.grownStart.add(daemon.startupMilliseconds)
                    if let memory {
                        result.grownRSSKiB.add(Double(memory.rssKiB))
                        result.grownHWMKiB.add(Double(memory.hwmKiB))
                    }
                } else {
                    result.currentStart.add(daemon.startupMilliseconds)
                    if let memory { result.currentRSSKiB.add(Double(memory.rssKiB)) }
                }
                let stopped = daemon.child.stop()
                if stopped.status != 0 {
                    throw DaemonBenchError("daemon exited with status \(stopped.status) after SIGTERM: \(daemon.child.stderrTail())")
                }
            }
        }
        result.reschedule = try DaemonReschedule.measure(launcher: launcher, store: grown, edits: edits)
        return result
    }
}
