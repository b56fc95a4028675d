import ChimeCore
import Foundation

/// CLI edit → "rescheduled": with the daemon sleeping (debug log level, so it logs each applied
/// change), `chime edit ID --start …` moves a probe event's alarm; the edit process is timed from
/// spawn to reaped exit, and the daemon's "rescheduled" line from its arrival here.
enum DaemonReschedule {
    struct Result {
        var spawnToRescheduled: [Double] = []
        /// Negative when the daemon rescheduled before the edit process had exited.
        var exitToRescheduled: [Double] = []
        var editProcess: [Double] = []
        var requested = 0
        /// Edits with no "rescheduled" line within 5 s.
        var lost = 0
    }

    /// Pause after the daemon is back asleep, so each edit meets an idle daemon.
    static let gapSeconds = 0.3

    static func measure(launcher: DaemonLauncher, store: String, edits: Int) throws(DaemonBenchError) -> Result {
        let daemon = try launcher.start(store: store, debug: true)
        defer { daemon.child.stop() }
        let log = daemon.child.stderr
        let tomorrow = Instant(secondsSince1970: nowSeconds()).utc.date.adding(days: 1)
        let noon = Int64(tomorrow.daysSinceEpoch) * 86_400 + 12 * 3600
        func stamp(_ s: Int64) -> String { Instant(secondsSince1970: s).utcBasicFormat }

        // The probe event, added through the CLI too; its own "rescheduled" is not counted.
        var mark = log.count
        let added = try launcher.cli(["add", "event", "Reschedule probe", "--start", stamp(noon), "--tz", "UTC", "--alarm", "-15m"], store: store)
        guard let idLine = added.stdout.last(where: { $0.hasPrefix("ID ") }) else {
            throw DaemonBenchError("chime add event printed no ID line: \(added.stdout)")
        }
        let id = String(idLine.dropFirst(3))
        guard let first = log.waitFor(from: mark, timeout: 5, { $0.contains("rescheduled") }) else {
            throw DaemonBenchError("no \"rescheduled\" after chime add: \(daemon.child.stderrTail())")
        }
        _ = log.waitFor(from: first.index + 1, timeout: 2) { $0.contains("sleeping") }
        sleepFor(gapSeconds)

        var result = Result()
        result.requested = edits
        for k in 1...edits {
            mark = log.count
            let edit = try launcher.cli(["edit", id, "--start", stamp(noon + Int64(k) * 300), "--tz", "UTC"], store: store)
            result.editProcess.append(Double(edit.exited - edit.spawned) / 1e6)
            guard let line = log.waitFor(from: mark, timeout: 5, { $0.contains("rescheduled") }) else {
                result.lost += 1
                continue
            }
            result.spawnToRescheduled.append(Double(line.line.nanos - edit.spawned) / 1e6)
            result.exitToRescheduled.append(Double(line.line.nanos - edit.exited) / 1e6)
            _ = log.waitFor(from: line.index + 1, timeout: 2) { $0.contains("sleeping") }
            sleepFor(gapSeconds)
        }
        return result
    }
}
