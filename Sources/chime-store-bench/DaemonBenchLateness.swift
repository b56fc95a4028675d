import ChimeCore
import ChimeStore
import Foundation

/// Firing lateness: 200 probe alarms come due on the real wall clock a few seconds after the
/// daemon is sleeping, 4 in each whole second for 50 s (same-second alarms are delivered one
/// after another, and that is part of the lateness). Per second: two events with a relative
/// alarm (−10 min before a start), one event with an absolute alarm, one reminder with an alarm
/// 5 min before its due time. Lateness is read from the stdout sink's JSON lines.
enum DaemonLateness {
    static let perSecond = 4
    static let spreadSeconds = 50
    /// The first probe fires this many seconds after the items are saved (the daemon starts right after).
    static let leadSeconds: Int64 = 6

    struct Result {
        /// `lateness_ms` as the daemon printed it (delivered − fire, ms).
        var daemonMs: [Double] = []
        /// Arrival of the line in this process − fire instant, ms.
        var observedMs: [Double] = []
        var expected = 0
        /// Other notifications (the store's own alarms) delivered during the probe window.
        var others = 0
        /// From "scheduled, sleeping" to the first probe's fire instant, ms.
        var firstFireAfterReadyMs = 0.0
        /// The split of `daemonMs`, from the alarm ledger's `delivered_at` (the instant the
        /// scheduler's step began, taken before it claims the batch): fire → step start, and
        /// step start → written (claim transaction, notification text, write(2)).
        var wakeMs: [Double] = []
        var stepMs: [Double] = []
        /// `daemonMs` by position among the probes of the same second (1 = delivered first).
        var byPosition: [Int: [Double]] = [:]
    }

    static func measure(launcher: DaemonLauncher, store: String) throws(DaemonBenchError) -> Result {
        let base = nowSeconds() + leadSeconds
        let ids = try addProbes(store: store, base: base)
        var result = Result()
        result.expected = ids.count
        let daemon = try launcher.start(store: store)
        result.firstFireAfterReadyMs = Double(base * 1_000_000_000 - daemon.ready.nanos) / 1e6
        let lastFire = base + Int64(spreadSeconds) - 1
        var probes: [Delivery] = []
        var seen = 0
        while probes.count < ids.count && nowSeconds() <= lastFire + 15 && daemon.child.isRunning {
            _ = daemon.child.stdout.waitFor(from: seen, timeout: 0.5) { _ in true }
            let lines = daemon.child.stdout.lines(from: seen)
            seen += lines.count
            let (mine, others) = deliveries(in: lines, of: ids)
            probes += mine
            result.others += others
        }
        let stopped = daemon.child.stop()
        if stopped.status != 0 { throw DaemonBenchError("daemon exited with status \(stopped.status): \(daemon.child.stderrTail())") }
        result.daemonMs = probes.map(\.daemonMs)
        result.observedMs = probes.map { Double($0.arrived - $0.fire * 1_000_000) / 1e6 }
        var position: [Int64: Int] = [:]
        for p in probes {  // in arrival order = delivery order
            position[p.fire, default: 0] += 1
            result.byPosition[position[p.fire]!, default: []].append(p.daemonMs)
        }
        let stepStarts = try ledgerDeliveries(store: store)
        for p in probes {
            guard let start = stepStarts[p.key] else { continue }
            result.wakeMs.append(Double(start - p.fire))
            result.stepMs.append(Double(p.delivered - start))
        }
        return result
    }

    /// One probe's alarm as the daemon's stdout sink printed it.
    struct Delivery {
        var key: String
        /// Fire and delivered instants, ms since 1970.
        var fire: Int64, delivered: Int64
        /// `lateness_ms` as the daemon printed it.
        var daemonMs: Double
        /// When the line reached this process, ns since 1970.
        var arrived: Int64
    }

    /// The deliveries of the probes `ids` among the stdout sink's JSON `lines`, and how many lines
    /// were something else.
    static func deliveries(in lines: [TimedLine], of ids: Set<String>) -> (probes: [Delivery], others: Int) {
        var probes: [Delivery] = [], others = 0
        for line in lines {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.text.utf8)) as? [String: Any],
                let key = object["key"] as? String, let fire = (object["fire"] as? String).flatMap(ISOTime.milliseconds),
                let delivered = (object["delivered"] as? String).flatMap(ISOTime.milliseconds),
                let lateness = (object["lateness_ms"] as? NSNumber)?.doubleValue,
                ids.contains(String(key.prefix { $0 != "@" }))
            else { others += 1; continue }
            probes.append(Delivery(key: key, fire: fire, delivered: delivered, daemonMs: lateness, arrived: line.nanos))
        }
        return (probes, others)
    }

    /// `delivered_at` (ms) of every delivered ledger row, by firing key.
    private static func ledgerDeliveries(store path: String) throws(DaemonBenchError) -> [String: Int64] {
        do {
            let store = try EventStore(path: path, floatingZone: .utc)
            var result: [String: Int64] = [:]
            for entry in try store.ledger.entries(state: .delivered) {
                if let ms = entry.deliveredAtMilliseconds { result[entry.key.description] = ms }
            }
            return result
        } catch {
            throw DaemonBenchError("reading the alarm ledger: \(error)")
        }
    }

    /// Saves the probe items in one transaction; returns their identifiers. The store is closed
    /// again before the daemon starts.
    static func addProbes(
        store path: String, base: Int64, seconds spreadSeconds: Int = spreadSeconds,
        perSecond: Int = perSecond
    ) throws(DaemonBenchError) -> Set<String> {
        do {
            let store = try EventStore(path: path, floatingZone: .utc)
            let calendar = try store.defaultCalendarForNewEvents().identifier
            let list = try store.defaultCalendarForNewReminders().identifier
            var ids = Set<String>()
            for second in 0..<spreadSeconds {
                let fire = base + Int64(second)
                func at(_ s: Int64) -> CalendarDate { .utc(Instant(secondsSince1970: s).utc) }
                for slot in 0..<perSecond {
                    let title = "Lateness probe \(second * perSecond + slot)"
                    switch slot {
                    case 0, 1:
                        var e = Event(title: title, calendar: calendar, start: at(fire + 600), duration: 900)
                        e.alarms = [.relative(-600)]
                        try store.save(e, span: .thisEvent, commit: false)
                        ids.insert(e.identifier)
                    case 2:
                        var e = Event(title: title, calendar: calendar, start: at(fire + 3600), duration: 1800)
                        e.alarms = [.absolute(Instant(secondsSince1970: fire))]
                        try store.save(e, span: .thisEvent, commit: false)
                        ids.insert(e.identifier)
                    default:
                        var r = Reminder(title: title, calendar: list)
                        r.dueDate = at(fire + 300)
                        r.alarms = [.relative(-300)]
                        try store.save(r, commit: false)
                        ids.insert(r.identifier)
                    }
                }
            }
            try store.commit()
            return ids
        } catch {
            throw DaemonBenchError("adding the lateness probes: \(error)")
        }
    }
}
