import ChimeTestSupport
import Foundation

/// The daemon section of the report: one table (median, min, max, target, verdict) and notes
/// on how each number was taken.
struct DaemonBenchReport {
    let setup: DaemonBenchSetup
    let loadBefore: String
    var loadAfter = "?"
    var setupError: String?
    var startup: Result<DaemonStartup.Result, DaemonBenchError>?
    var reschedule: Result<DaemonReschedule.Result, DaemonBenchError>?
    var lateness: Result<DaemonLateness.Result, DaemonBenchError>?
    var idle: Result<DaemonIdle.Result, DaemonBenchError>?
    var grown: Result<DaemonGrown.Result, DaemonBenchError>?

    init(setup: DaemonBenchSetup, loadBefore: String) {
        self.setup = setup
        self.loadBefore = loadBefore
    }

    private static let widths = [48, 12, 12, 12, 13]

    private static func row(_ name: String, _ cells: [String], _ rest: String = "") -> String {
        var s = padRight(name, widths[0])
        for (i, c) in cells.enumerated() { s += padLeft(c, widths[i + 1] - 2) + "  " }
        s += rest
        while s.last == " " { s.removeLast() }
        return s
    }

    private static func ms(_ x: Double, _ digits: Int = 1) -> String { x.isNaN ? "n/a" : fixed(x, digits) + " ms" }

    /// median, min, max of a sample in ms.
    private static func spread(_ s: Sample, _ digits: Int = 1) -> [String] {
        [ms(s.median, digits), ms(s.min, digits), ms(s.values.max() ?? .nan, digits)]
    }

    private static func spread(_ xs: [Double], _ digits: Int = 1) -> [String] { spread(Sample(values: xs), digits) }

    private static func verdict(_ value: Double, below target: Double, unit: String, digits: Int = 1) -> String {
        if value.isNaN { return "not measured" }
        return value < target ? "target met" : "target MISSED by \(fixed(value - target, digits)) \(unit) (\(fixed(value / target, 2))× the target)"
    }

    private static func megabytes(_ kib: Double) -> String { fixed(kib * 1024 / 1e6, 1) + " MB" }

    func lines() -> [String] {
        var out: [String] = []
        out.append("Daemon: `chime daemon --notifier stdout` (release build \(setup.chime)) on a copy of the store above in a folder of its own;")
        out.append(
            "TZ=UTC, scratch HOME/XDG_CONFIG_HOME, --config with log level info (debug for the edit part); \(setup.runs) start-up runs interleaved with calcurse; load average before: \(loadBefore)"
        )
        if let setupError {
            out.append("not measured: \(setupError)")
            return out
        }
        out.append("")
        out.append(Self.row("", ["median", "min", "max", "target"], "verdict"))
        var notes: [String] = []
        startupRows(&out, &notes)
        idleRows(&out, &notes)
        latenessRows(&out, &notes)
        rescheduleRows(&out, &notes)
        grownRows(&out, &notes)
        out.append("")
        out += notes
        out.append("load average after the daemon part: \(loadAfter)")
        return out
    }

    private func startupRows(_ rows: inout [String], _ notes: inout [String]) {
        switch startup {
        case .success(let s)?:
            let versus = s.calcurse.values.isEmpty ? "" : "; daemon/calcurse \(fixed(s.spawnToSleeping.median / s.calcurse.median, 2))×"
            rows.append(
                Self.row(
                    "start-up: spawn → \"scheduled, sleeping\"", Self.spread(s.spawnToSleeping) + ["< 200 ms"],
                    Self.verdict(s.spawnToSleeping.median, below: 200, unit: "ms") + versus))
            rows.append(Self.row("  the daemon's own startup_ms (from Daemon.run)", Self.spread(s.selfReported)))
            if let error = s.calcurseError {
                rows.append(Self.row("  calcurse -D DIR -Q --days 1 (whole process)", ["n/a"], error))
            } else if setup.calcurse == nil {
                rows.append(Self.row("  calcurse -D DIR -Q --days 1 (whole process)", ["n/a"], "calcurse not installed"))
            } else {
                rows.append(
                    Self.row(
                        "  calcurse -D DIR -Q --days 1 (whole process)", Self.spread(s.calcurse) + [""],
                        "the peer, interleaved run by run (ratio above: medians)"))
            }
            rows.append(Self.row("  CPU used by then (utime+stime, 10 ms ticks)", Self.spread(s.cpuMs, 0)))
            rows.append(Self.row("  SIGTERM → reaped exit", Self.spread(s.stopMs)))
            let rss = s.rssKiB.median
            rows.append(
                Self.row(
                    "memory once sleeping: VmRSS",
                    [
                        Self.megabytes(rss), Self.megabytes(s.rssKiB.min),
                        Self.megabytes(s.rssKiB.values.max() ?? .nan), "< 40 MB"
                    ],
                    Self.verdict(rss * 1024 / 1e6, below: 40, unit: "MB")))
            rows.append(
                Self.row(
                    "  of which anonymous (RssAnon: heap, stacks)",
                    [
                        Self.megabytes(s.anonKiB.median), Self.megabytes(s.anonKiB.min),
                        Self.megabytes(s.anonKiB.values.max() ?? .nan)
                    ]))
            rows.append(
                Self.row(
                    "  of which file-backed (RssFile: binary, libs)",
                    [
                        Self.megabytes(s.fileKiB.median), Self.megabytes(s.fileKiB.min),
                        Self.megabytes(s.fileKiB.values.max() ?? .nan)
                    ]))
            rows.append(
                Self.row(
                    "  peak VmHWM",
                    [
                        Self.megabytes(s.hwmKiB.median), Self.megabytes(s.hwmKiB.min),
                        Self.megabytes(s.hwmKiB.values.max() ?? .nan)
                    ],
                    "threads: \(s.threads.map(String.init).joined(separator: ", "))"))
            if let e = s.emptyMemory {
                rows.append(
                    Self.row(
                        "  same daemon, empty store: VmRSS (1 run)", [Self.megabytes(Double(e.rssKiB))],
                        "anon \(Self.megabytes(Double(e.anonKiB))), file \(Self.megabytes(Double(e.fileKiB))); start-up \(Self.ms(s.emptyStartupMs))"))
            }
            notes.append(
                "Start-up: spawn is stamped just before posix_spawn, the line on arrival through the stderr pipe (reader thread, CLOCK_REALTIME); one untimed warm-up start first. Memory, CPU and threads read from /proc \(Int(DaemonStartup.settleSeconds * 1000)) ms after the line; MB = 10^6 bytes. Next deadline at start: \(s.next). Notifications printed per run (catch-up of firings since the previous run): \(s.catchUp.map(String.init).joined(separator: ", ")). calcurse runs with TZ=UTC on the same events and todos (its -Q lists appointments, events and todos for today)."
            )
        case .failure(let e)?: rows.append(Self.row("start-up and memory", ["n/a"], "not measured: \(e)"))
        case nil: break
        }
    }

    private func idleRows(_ rows: inout [String], _ notes: inout [String]) {
        switch idle {
        case .success(let i)?:
            let cpuOK = i.cpuMs <= 1000 / ProcStats.ticksPerSecond
            rows.append(
                Self.row(
                    "idle \(i.seconds) s, nothing due: CPU (utime+stime)", [Self.ms(i.cpuMs, 0), "", "", "≈ 0"],
                    cpuOK ? "target met (≤ 1 tick = \(fixed(1000 / ProcStats.ticksPerSecond, 0)) ms)" : "target MISSED: \(fixed(i.cpuMs, 0)) ms of CPU"))
            let woke = i.threads.filter { $0.switches != 0 }
                .map { "\($0.name)\($0.isNew ? " (new)" : "")\($0.exited ? " (exited)" : ""): \($0.switches)" }.joined(separator: ", ")
            let born = i.threads.filter(\.isNew).count, exited = i.threads.filter(\.exited).count
            let rate = Double(i.wakeups) / Double(i.seconds)
            rows.append(
                Self.row(
                    "  wake-ups (context switches, all threads)", ["\(i.wakeups)", "", "", "≈ 0"],
                    i.wakeups == 0 ? "target met" : "target MISSED: \(fixed(rate, 2)) per second; by thread: \(woke)"))
            rows.append(Self.row("  VmRSS after the idle stretch", [Self.megabytes(Double(i.rssAfterKiB))], "VmHWM \(Self.megabytes(Double(i.hwmAfterKiB)))"))
            notes.append(
                "Idle: one stretch of \(i.seconds) s, starting \(Int(DaemonIdle.settleSeconds)) s after \"scheduled, sleeping\", on a copy of the store from which the \(i.removedItems) items with a firing in the next \(DaemonIdle.startAllowanceSeconds + Int64(i.seconds)) s were removed (the generated store has alarms at almost every 5-minute mark); the daemon's next deadline was \(i.next), after the stretch (\(i.attempts) start\(i.attempts == 1 ? "" : "s")). \(i.threadsAtStart) threads at its start, \(born) born and \(exited) exited during it; lines written during the stretch: \(i.linesDuring). Wake-ups = voluntary + nonvoluntary context-switch deltas summed over /proc/PID/task/*/status, sampled every second (a thread born in the stretch counts all its switches; one that exits counts up to its last sample)."
            )
            let quiet = i.perSecond.filter { $0 == 0 }.count
            let busiest = i.perSecond.max() ?? 0
            notes.append(
                "Idle wake-ups second by second: \(quiet) of \(i.seconds) seconds had none, the busiest had \(busiest); per second: \(i.perSecond.map(String.init).joined(separator: " ")). CPU ticks moved in second(s): \(i.secondsWithCPU.isEmpty ? "none" : i.secondsWithCPU.map(String.init).joined(separator: ", "))."
            )
        case .failure(let e)?: rows.append(Self.row("idle stretch", ["n/a"], "not measured: \(e)"))
        case nil: break
        }
    }

    private func latenessRows(_ rows: inout [String], _ notes: inout [String]) {
        switch lateness {
        case .success(let l)?:
            let p50 = Statistics.percentile(l.daemonMs, 50), p99 = Statistics.percentile(l.daemonMs, 99)
            rows.append(
                Self.row(
                    "firing lateness (lateness_ms): p50 / p99 / max", [Self.ms(p50, 0), Self.ms(p99, 0), Self.ms(l.daemonMs.max() ?? .nan, 0), "p99 < 20 ms"],
                    Self.verdict(p99, below: 20, unit: "ms", digits: 0)))
            rows.append(
                Self.row(
                    "  line arrival here − fire: p50 / p99 / max",
                    [
                        Self.ms(Statistics.percentile(l.observedMs, 50)),
                        Self.ms(Statistics.percentile(l.observedMs, 99)),
                        Self.ms(l.observedMs.max() ?? .nan)
                    ]))
            rows.append(
                Self.row(
                    "  fire → scheduler step starts: p50 / p99 / max",
                    [
                        Self.ms(Statistics.percentile(l.wakeMs, 50), 0),
                        Self.ms(Statistics.percentile(l.wakeMs, 99), 0),
                        Self.ms(l.wakeMs.max() ?? .nan, 0)
                    ],
                    "timer wake-up, sleep teardown, task hop (ledger delivered_at)"))
            rows.append(
                Self.row(
                    "  step start → line written: p50 / p99 / max",
                    [
                        Self.ms(Statistics.percentile(l.stepMs, 50), 0),
                        Self.ms(Statistics.percentile(l.stepMs, 99), 0),
                        Self.ms(l.stepMs.max() ?? .nan, 0)
                    ],
                    "claim transaction, text, earlier lines of the same second"))
            for position in l.byPosition.keys.sorted() {
                let xs = l.byPosition[position]!
                rows.append(
                    Self.row(
                        "  \(position == 1 ? "1st" : position == 2 ? "2nd" : position == 3 ? "3rd" : "\(position)th") of its second: p50 / p99 / max",
                        [Self.ms(Statistics.percentile(xs, 50), 0), Self.ms(Statistics.percentile(xs, 99), 0), Self.ms(xs.max() ?? .nan, 0)],
                        "\(xs.count) alarms"))
            }
            notes.append(
                "Lateness: \(l.daemonMs.count) of \(l.expected) probe alarms delivered, \(DaemonLateness.perSecond) per whole second for \(DaemonLateness.spreadSeconds) s (2 events with a −10 min alarm, 1 event with an absolute alarm, 1 reminder with a −5 min alarm per second; same-second ones are delivered one after another), the first \(fixed(l.firstFireAfterReadyMs / 1000, 1)) s after \"scheduled, sleeping\"; \(l.others) other notification\(l.others == 1 ? "" : "s") (the store's own alarms) in the same window. lateness_ms is the daemon's delivered − fire at 1 ms resolution; the second row adds the pipe and this process's reader thread."
            )
        case .failure(let e)?: rows.append(Self.row("firing lateness", ["n/a"], "not measured: \(e)"))
        case nil: break
        }
    }

    private func rescheduleRows(_ rows: inout [String], _ notes: inout [String]) {
        switch reschedule {
        case .success(let r)?:
            rows.append(
                Self.row(
                    "edit → \"rescheduled\": from the edit's spawn", Self.spread(r.spawnToRescheduled) + ["< 100 ms"],
                    Self.verdict(Statistics.median(r.spawnToRescheduled), below: 100, unit: "ms")))
            rows.append(Self.row("  from the edit process's exit", Self.spread(r.exitToRescheduled)))
            rows.append(Self.row("  the `chime edit` process alone (spawn → exit)", Self.spread(r.editProcess)))
            let early = r.exitToRescheduled.filter { $0 < 0 }.count
            notes.append(
                "Edit → rescheduled: \(r.spawnToRescheduled.count) of \(r.requested) edits (`chime edit ID --start …` moving the probe event's −15 min alarm, each to a new time tomorrow) with the daemon sleeping, \(fixed(DaemonReschedule.gapSeconds * 1000, 0)) ms apart; the daemon logs at debug level here. In \(early) of them \"rescheduled\" arrived before the edit process had been reaped (negative exit → rescheduled).\(r.lost > 0 ? " \(r.lost) edits had no \"rescheduled\" within 5 s." : "")"
            )
        case .failure(let e)?: rows.append(Self.row("edit → rescheduled", ["n/a"], "not measured: \(e)"))
        case nil: break
        }
    }

    private func grownRows(_ rows: inout [String], _ notes: inout [String]) {
        switch grown {
        case .success(let g)?:
            let startRatio = g.grownStart.median / g.currentStart.median
            let memoryRatio = g.grownRSSKiB.median / g.currentRSSKiB.median
            rows.append(
                Self.row(
                    "grown store: start, \(grouped(setup.historyEvents)) past events added", Self.spread(g.grownStart) + ["≤ 1.3×"],
                    (startRatio <= 1.3 ? "target met" : "target MISSED") + ": \(fixed(startRatio, 2))× the current store's"))
            rows.append(Self.row("  the current events alone, same runs", Self.spread(g.currentStart)))
            rows.append(
                Self.row(
                    "grown store: resident",
                    [
                        Self.megabytes(g.grownRSSKiB.median), Self.megabytes(g.grownRSSKiB.min), Self.megabytes(g.grownRSSKiB.values.max() ?? .nan),
                        "≤ 1.3×, 40 MB"
                    ],
                    (memoryRatio <= 1.3 && g.grownRSSKiB.median * 1024 <= 40e6 ? "target met" : "target MISSED")
                        + ": \(fixed(memoryRatio, 2))× the current store's \(Self.megabytes(g.currentRSSKiB.median)); peak \(Self.megabytes(g.grownHWMKiB.median))"
                ))
            let r = g.reschedule
            let median = Sample(values: r.spawnToRescheduled).median
            rows.append(
                Self.row(
                    "grown store: edit → \"rescheduled\"", Self.spread(r.spawnToRescheduled) + ["≤ 20 ms"],
                    Self.verdict(median, below: 20, unit: "ms") + (r.lost > 0 ? "; \(r.lost) of \(r.requested) edits lost" : "")))
            rows.append(Self.row("  from the edit process's exit", Self.spread(r.exitToRescheduled)))
            rows.append(Self.row("  the `chime edit` process alone (spawn → exit)", Self.spread(r.editProcess)))
            notes.append(
                "grown store: the store above with \(grouped(setup.historyEvents)) past events (2016–2025, every series ended) and \(grouped(setup.historyEvents / 5)) completed reminders added; starts interleaved with the current store's, memory read \(DaemonStartup.settleSeconds) s after \"scheduled, sleeping\"."
            )
        case .failure(let e)?:
            rows.append(Self.row("grown store", ["n/a"], "not measured: \(e)"))
        case nil:
            break
        }
    }
}

func padLeft(_ s: String, _ width: Int) -> String { s.count >= width ? s : String(repeating: " ", count: width - s.count) + s }
