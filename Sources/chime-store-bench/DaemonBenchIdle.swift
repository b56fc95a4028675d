import ChimeCore
import ChimeStore
import Foundation

/// An idle stretch (default 60 s) with nothing due: CPU time (utime + stime from /proc/PID/stat)
/// and wake-ups (voluntary + involuntary context switches summed over /proc/PID/task/*/status).
///
/// The benchmark store has alarms at almost every 5-minute mark, so the measurement runs on a
/// copy of it from which the items with a firing between now and the end of the stretch (plus
/// an allowance for start-up) are removed. The daemon's own `next=` must then lie after the
/// stretch; if it does not, the next item is removed too and the daemon started again.
enum DaemonIdle {
    struct ThreadDelta {
        var name: String
        var switches: Int
        /// Born during the stretch (all its switches count) or gone by its end (switches after
        /// its last one-second sample are lost).
        var isNew: Bool
        var exited: Bool
    }

    struct Result {
        var seconds = 0
        var cpuMs = 0.0
        var wakeups = 0
        var threads: [ThreadDelta] = []
        var threadsAtStart = 0
        /// Wake-ups in each second of the stretch (threads sampled once a second).
        var perSecond: [Int] = []
        /// Seconds of the stretch in which the process's CPU tick count moved.
        var secondsWithCPU: [Int] = []
        var removedItems = 0
        var attempts = 0
        var next = "?"
        /// Lines the daemon wrote during the stretch (it should have nothing to say).
        var linesDuring = 0
        var rssAfterKiB = 0
        var hwmAfterKiB = 0
    }

    static let settleSeconds = 1.0
    static let startAllowanceSeconds: Int64 = 30

    static func measure(launcher: DaemonLauncher, source: String, folder: String, idleSeconds: Int) throws(DaemonBenchError) -> Result {
        let copy = try StoreCopy.make(from: source, into: folder)
        var result = Result()
        result.seconds = idleSeconds
        var horizon = nowSeconds() + startAllowanceSeconds + Int64(idleSeconds)
        for attempt in 1...4 {
            result.attempts = attempt
            result.removedItems += try removeItems(firingThrough: horizon, store: copy)
            let daemon = try launcher.start(store: copy)
            let stretchEnd = daemon.ready.nanos / 1_000_000_000 + Int64(settleSeconds) + Int64(idleSeconds) + 2
            result.next = daemon.nextText
            if let next = daemon.next, next <= stretchEnd {
                daemon.child.stop()
                horizon = max(horizon, stretchEnd) + 10
                continue
            }
            sleepFor(settleSeconds)
            let mark = (daemon.child.stdout.count, daemon.child.stderr.count)
            // Every thread's switches once a second (reading /proc wakes none of them), so a
            // thread that exits during the stretch still counts up to its last sample.
            let start = realtimeNanos()
            let cpu0 = ProcStats.cpuTicks(daemon.pid) ?? 0
            let first = ProcStats.threadSwitches(daemon.pid)
            var last = first
            var cpuLast = cpu0
            for second in 1...idleSeconds {
                let due = start + Int64(second) * 1_000_000_000
                sleepFor(Double(due - realtimeNanos()) / 1e9)
                let cpu = ProcStats.cpuTicks(daemon.pid) ?? cpuLast
                let now = ProcStats.threadSwitches(daemon.pid)
                var woke = 0
                for (tid, t) in now { woke += t.total - (last[tid]?.total ?? 0) }
                result.perSecond.append(woke)
                if cpu != cpuLast { result.secondsWithCPU.append(second) }
                cpuLast = cpu
                for (tid, t) in now { last[tid] = t }
            }
            let current = ProcStats.threadSwitches(daemon.pid)
            if let m = ProcStats.memory(daemon.pid) {
                result.rssAfterKiB = m.rssKiB
                result.hwmAfterKiB = m.hwmKiB
            }
            result.linesDuring = daemon.child.stdout.count - mark.0 + daemon.child.stderr.count - mark.1
            daemon.child.stop()

            result.cpuMs = Double(cpuLast - cpu0) / ProcStats.ticksPerSecond * 1e3
            result.threadsAtStart = first.count
            for (tid, t) in last.sorted(by: { $0.key < $1.key }) {
                result.threads.append(
                    ThreadDelta(
                        name: t.name, switches: t.total - (first[tid]?.total ?? 0),
                        isNew: first[tid] == nil, exited: current[tid] == nil))
            }
            result.wakeups = result.perSecond.reduce(0, +)
            return result
        }
        throw DaemonBenchError("the daemon still had a deadline (next=\(result.next)) inside the idle stretch after \(result.attempts) attempts")
    }

    /// Removes from the copy every item with a firing from now through `horizon`; how many.
    private static func removeItems(firingThrough horizon: Int64, store path: String) throws(DaemonBenchError) -> Int {
        do {
            let store = try EventStore(path: path, floatingZone: .utc)
            let now = Instant(secondsSince1970: nowSeconds())
            var agenda = AlarmAgenda(zone: .utc, from: now)
            for source in try store.alarmSources(from: now) { agenda.add(source.item, replaced: source.replaced) }
            var ids = Set<String>()
            while let firing = agenda.popNext(through: Instant(secondsSince1970: horizon)) { ids.insert(firing.key.item) }
            for id in ids.sorted() {
                switch try store.calendarItem(withIdentifier: id) {
                case .event(var e)?:
                    e.occurrenceDate = nil  // the whole series
                    try store.remove(e, span: .thisEvent, commit: false)
                case .reminder(let r)?:
                    try store.remove(r, commit: false)
                case nil:
                    continue
                }
            }
            try store.commit()
            return ids.count
        } catch {
            throw DaemonBenchError("clearing the idle stretch: \(error)")
        }
    }
}
