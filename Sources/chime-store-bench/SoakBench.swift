import ChimeCore
import ChimeStore
import ChimeTestSupport
import Foundation
import Glibc
import Synchronization

// `chime-store-bench --only soak`: lost updates under load. N writer threads each run M `chime`
// processes one after another (so N writer processes at a time): `complete` and `edit` of a few
// shared daily reminders, and `add`. Meanwhile `chime daemon --notifier stdout` runs on the store
// (rescheduling on every change) and a reader loops `chime agenda`. At the end the store is
// counted: every successful completion must have its own completed copy of a distinct instance
// and have moved its series exactly one day; every edit must not have been overwritten by an
// edit that ran before it; every add must be there. Reports operations, failures, lost updates
// and the write latency (whole `chime` process, spawn to exit).
// Beside them (unless --no-hostile-bus), the daemon serves D-Bus on a private bus and a hostile
// client calls it throughout (SoakHostileBus.swift), while probe alarms come due twice a second:
// the report says whether the service answered as it should and how late the alarms were.
//   usage: chime-store-bench --only soak [--writers 8,16] [--operations 40] [--chime PATH] [--no-hostile-bus]

struct SoakOptions: Sendable {
    var writers: [Int]
    var operations: Int
    var targets = 3
    var seed: UInt64
    /// A private bus and a hostile D-Bus client beside the writers, with probe alarms.
    var hostileBus = true
}

enum SoakBench {
    enum Kind: String, CaseIterable { case complete, edit, add }

    struct Op: Sendable {
        var kind: Kind
        var writer: Int
        var target: Int
        var field: String?
        var value: String?
        var start: Int64, end: Int64  // CLOCK_REALTIME ns
        var status: Int32
        var stdout: String
        var stderr: String
        var milliseconds: Double { Double(end - start) / 1e6 }
    }

    static let fields = ["title", "notes", "location", "priority"]

    static func run(chime: String, folder: String, options: SoakOptions) -> [String] {
        var lines: [String] = []
        lines.append(
            "Soak: writers × \(options.operations) operations each (complete 50%, edit 35%, add 15%) on \(options.targets) shared daily reminders; daemon --notifier stdout and a `chime agenda` reader running"
                + (options.hostileBus ? "; a hostile D-Bus client calling the daemon's service; probe alarms due twice a second" : "")
                + "; chime \(chime)")
        for n in options.writers {
            do { lines += try round(writers: n, chime: chime, folder: folder + "/soak-\(n)", options: options) } catch {
                lines.append("\(n) writers: not measured: \(error)")
            }
        }
        return lines
    }

    static func round(writers: Int, chime: String, folder: String, options: SoakOptions) throws -> [String] {
        try? FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder + "/out", withIntermediateDirectories: true)
        let storePath = folder + "/store/chime.sqlite"
        let start = LocalDateTime(year: 2027, month: 1, day: 1, hour: 9)
        let bus = options.hostileBus ? try PrivateSessionBus.start(folder: folder) : nil
        defer { bus?.stop() }
        let launcher = try DaemonLauncher(
            chime: chime, folder: folder,
            extraEnvironment: bus.map { ["DBUS_SESSION_BUS_ADDRESS": $0.address] } ?? [:])
        let env = launcher.environment.merging(["CHIME_STORE": storePath]) { $1 }
        // The shared reminders, added with the binary under test (an older one can be measured too).
        var created: [String] = []
        for t in 0..<options.targets {
            let out = folder + "/out/setup.out", err = folder + "/out/setup.err"
            let status = runToFiles(
                chime,
                [
                    "add", "reminder", "shared \(t)", "--due", "2027-01-01T09:00", "--repeat", "FREQ=DAILY",
                    "--alarm", "-5m"
                ], environment: env, stdout: out, stderr: err)
            let id = ((try? String(contentsOfFile: out, encoding: .utf8)) ?? "").split(separator: "\n").last { $0.hasPrefix("ID ") }?.dropFirst(3)
            guard status == 0, let id else { throw DaemonBenchError("adding the shared reminders failed (status \(status))") }
            created.append(String(id))
        }
        let stop = Locked(false)
        // Probe alarms from as soon as the daemon can have started, twice a second, for longer
        // than a round's writers run (16 × 40 operations take about 15 s); only those due while
        // the writers ran are counted.
        let probeBase = nowSeconds() + 2
        let probes = options.hostileBus ? try DaemonLateness.addProbes(store: storePath, base: probeBase, seconds: 300, perSecond: 2) : []
        let apps = options.hostileBus ? try HostileBusClient.prepare(folder: folder, chime: chime, environment: env) : nil
        let daemon = try launcher.start(store: storePath)
        let ids = created
        let onBusAtStart = apps == nil || HostileBusClient.waitForName(environment: env, timeout: 20)

        // The hostile client, until the writers are done.
        let hostileTally = Locked(HostileBusClient.Tally())
        let hostileDone = DispatchSemaphore(value: 0)
        if let apps, onBusAtStart {
            let secrets = (0..<options.targets).map { "shared \($0)" } + ["added w"]
            let client = Thread {
                let tally = HostileBusClient.run(apps: apps, environment: env, secrets: secrets, stop: stop)
                hostileTally.update { $0 = tally }
                hostileDone.signal()
            }
            client.start()
        } else {
            hostileDone.signal()
        }

        // The reader: `chime agenda` in a loop until the writers are done.
        let readerCounts = Locked((runs: 0, failures: 0))
        let readerDone = DispatchSemaphore(value: 0)
        let reader = Thread {
            while !stop.value {
                let status = timeProcess(chime, ["agenda", "--from", "2027-01-01", "--days", "60", "--json"], environment: env).status
                readerCounts.update {
                    $0.runs += 1; if status != 0 { $0.failures += 1 }
                }
            }
            readerDone.signal()
        }
        reader.start()

        // The writers.
        let results = Locked<[Op]>([])
        let group = DispatchGroup()
        let began = ContinuousClock().now
        for w in 0..<writers {
            group.enter()
            let thread = Thread {
                var g = SeededRandom(seed: options.seed &+ UInt64(writers * 1000 + w))
                var mine: [Op] = []
                for i in 0..<options.operations {
                    let roll = g.int(in: 0...99)
                    let target = g.int(in: 0...(options.targets - 1))
                    var op = Op(
                        kind: roll < 50 ? .complete : roll < 85 ? .edit : .add, writer: w, target: target,
                        start: 0, end: 0, status: 0, stdout: "", stderr: "")
                    let args: [String]
                    switch op.kind {
                    case .complete: args = ["complete", ids[target]]
                    case .edit:
                        let field = fields[g.int(in: 0...(fields.count - 1))]
                        let value = field == "priority" ? "\(1 + (w * options.operations + i) % 9)" : "\(field) w\(w)-\(i)"
                        op.field = field
                        op.value = value
                        args = ["edit", ids[target], "--\(field)", value]
                    case .add:
                        op.value = "added w\(w)-\(i)"
                        args = ["add", "reminder", "added w\(w)-\(i)", "--due", "2027-02-01T09:00"]
                    }
                    let out = "\(folder)/out/w\(w).out", err = "\(folder)/out/w\(w).err"
                    op.start = realtimeNanos()
                    op.status = runToFiles(chime, args, environment: env, stdout: out, stderr: err)
                    op.end = realtimeNanos()
                    op.stdout = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
                    op.stderr = (try? String(contentsOfFile: err, encoding: .utf8)) ?? ""
                    mine.append(op)
                }
                results.update { $0 += mine }
                group.leave()
            }
            thread.start()
        }
        group.wait()
        let wall = seconds(ContinuousClock().now - began)
        let writersEnded = realtimeNanos() / 1_000_000
        stop.update { $0 = true }
        readerDone.wait()
        hostileDone.wait()
        let onBusAtEnd = apps == nil || HostileBusClient.waitForName(environment: env, timeout: 5)
        // The probes due while the writers ran: wait (a state, bounded) until each was delivered.
        let due = options.hostileBus ? Int(max(0, writersEnded / 1000 - probeBase + 1)) * 2 : 0
        var delivered: [DaemonLateness.Delivery] = []
        let waitUntil = realtimeNanos() + 15_000_000_000
        while options.hostileBus && daemon.child.isRunning && realtimeNanos() < waitUntil {
            delivered = DaemonLateness.deliveries(in: daemon.child.stdout.lines(from: 0), of: probes).probes
                .filter { $0.fire <= writersEnded }
            if delivered.count >= due { break }
            _ = daemon.child.stdout.waitFor(from: daemon.child.stdout.count, timeout: 0.5) { _ in true }
        }
        let daemonAlive = daemon.child.isRunning
        let daemonLines = daemon.child.stdout.count
        let daemonStop = daemon.child.stop()
        let ops = results.value

        // Count what is stored.
        let store = try EventStore(path: storePath, floatingZone: .utc)
        let completed = try store.reminders(matching: store.predicateForCompletedReminders(completionStart: nil, completionEnd: nil, calendars: nil))
        let incomplete = try store.reminders(matching: store.predicateForIncompleteReminders(dueStart: nil, dueEnd: nil, calendars: nil))
        var lost: [String] = []
        var lostAdvances = 0, doubled = 0, overwritten = 0
        for (t, id) in ids.enumerated() {
            let done = ops.filter { $0.kind == .complete && $0.target == t && $0.status == 0 }.count
            let copies = completed.filter { $0.seriesIdentifier == id }
            let instances = Set(copies.compactMap { $0.dueDate }).count
            let series = incomplete.first { $0.identifier == id }
            let expectedDue = CalendarDate.floating(LocalDateTime(localSeconds: start.localSeconds + Int64(done) * 86_400))
            if copies.count != done { lost.append("shared \(t): \(done) completions but \(copies.count) completed copies") }
            if instances != copies.count { lost.append("shared \(t): \(copies.count - instances) instances completed twice") }
            doubled += copies.count - instances
            if let due = series?.dueDate {
                lostAdvances += max(0, done - Int((due.local.localSeconds - start.localSeconds) / 86_400))
            }
            if series?.dueDate != expectedDue {
                lost.append("shared \(t): due \(series?.dueDate?.storageText ?? "-") after \(done) completions, expected \(expectedDue.storageText)")
            }
            // Edits: the stored value must come from an edit that no other edit of the field followed
            // (started after it ended): anything else means a later edit was overwritten.
            for field in fields {
                let edits = ops.filter { $0.kind == .edit && $0.target == t && $0.field == field && $0.status == 0 }
                guard let latestStart = edits.map({ $0.start }).max() else { continue }
                let stored: String? =
                    switch field {
                    case "title": series?.title
                    case "notes": series?.notes
                    case "location": series?.location
                    default: series.map { "\($0.priority)" }
                    }
                let allowed = Set(edits.filter { $0.end >= latestStart }.compactMap { $0.value })
                if let stored, !allowed.contains(stored) {
                    overwritten += 1
                    lost.append("shared \(t) \(field): \"\(stored)\", not one of the last edits \(allowed.sorted())")
                }
            }
        }
        let addsDone = ops.filter { $0.kind == .add && $0.status == 0 }
        let addedTitles = Set(incomplete.map { $0.title }.filter { $0.hasPrefix("added ") })
        let missing = addsDone.filter { !addedTitles.contains($0.value ?? "") }.count
        if missing > 0 { lost.append("\(missing) added reminders missing") }

        // Report.
        var lines: [String] = []
        let failures = ops.filter { $0.status != 0 }
        lines.append("")
        lines.append(
            "\(writers) writers × \(options.operations) = \(ops.count) operations in \(fixed(wall, 1)) s (\(fixed(Double(ops.count) / wall, 1)) ops/s); load average after: \(loadAverage())"
        )
        for kind in Kind.allCases {
            let mine = ops.filter { $0.kind == kind }
            let ms = mine.map(\.milliseconds)
            lines.append(
                "  " + padRight(kind.rawValue, 9) + padRight("\(mine.count) ops, \(mine.filter { $0.status != 0 }.count) failed", 22)
                    + "latency p50 \(fixed(Statistics.percentile(ms, 50), 1)) ms  p99 \(fixed(Statistics.percentile(ms, 99), 1)) ms  max \(fixed(ms.max() ?? .nan, 1)) ms"
            )
        }
        let all = ops.map(\.milliseconds)
        lines.append(
            "  " + padRight("all", 9) + padRight("\(ops.count) ops, \(failures.count) failed", 22)
                + "latency p50 \(fixed(Statistics.percentile(all, 50), 1)) ms  p99 \(fixed(Statistics.percentile(all, 99), 1)) ms  max \(fixed(all.max() ?? .nan, 1)) ms"
        )
        for f in failures.prefix(5) { lines.append("  failed: \(f.kind.rawValue) (w\(f.writer)): \(f.stderr.trimmingCharacters(in: .whitespacesAndNewlines))") }
        let completions = ops.filter { $0.kind == .complete && $0.status == 0 }.count
        lines.append(
            "  verified: \(completions) completions, \(ops.filter { $0.kind == .edit && $0.status == 0 }.count) edits, \(addsDone.count) adds; lost updates: \(lostAdvances + doubled + overwritten + missing) (completions whose advance was lost \(lostAdvances), instances completed twice \(doubled), edits overwritten by an earlier one \(overwritten), adds missing \(missing)); failed checks: \(lost.count)"
        )
        for l in lost.prefix(10) { lines.append("  LOST: \(l)") }
        let reads = readerCounts.value
        lines.append(
            "  reader: \(reads.runs) `chime agenda` runs, \(reads.failures) failed; daemon: \(daemonAlive ? "running throughout" : "EXITED EARLY"), \(daemonLines) stdout lines, stopped with status \(daemonStop.status)"
        )
        if options.hostileBus {
            let hostile = hostileTally.value
            lines.append(
                "  hostile D-Bus client: \(hostile.calls) calls, \(hostile.refused) refused as they should be, \(hostile.answered) answered, "
                    + "\(hostile.accessRequests) access requests by new identities, \(hostile.wrong.count) wrong; call p50 \(fixed(Statistics.percentile(hostile.milliseconds, 50), 1)) ms "
                    + "p99 \(fixed(Statistics.percentile(hostile.milliseconds, 99), 1)) ms; the service on the bus at start: "
                    + "\(onBusAtStart ? "yes" : "NO"), at the end: \(onBusAtEnd ? "yes" : "NO")")
            for w in hostile.wrong.prefix(5) { lines.append("  WRONG: \(w)") }
            let late = delivered.map(\.daemonMs)
            lines.append(
                "  alarms meanwhile: \(due) probes due while the writers ran, \(delivered.count) delivered; lateness p50 "
                    + "\(fixed(Statistics.percentile(late, 50), 1)) ms p99 \(fixed(Statistics.percentile(late, 99), 1)) ms "
                    + "max \(fixed(late.max() ?? .nan, 1)) ms")
        }
        return lines
    }

    /// Runs `path` to completion with stdout and stderr in files (no pipes, so writer threads
    /// can spawn at the same time); its exit status.
    static func runToFiles(_ path: String, _ args: [String], environment: [String: String], stdout: String, stderr: String) -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + args).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for p in argv + envp { free(p) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, path, &actions, nil, argv, envp) == 0 else { return 127 }
        return wait(pid)
    }
}

/// A value several threads share.
final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>
    init(_ value: Value) { mutex = Mutex(value) }
    func update(_ body: (inout Value) -> Void) { mutex.withLock { body(&$0) } }
    var value: Value { mutex.withLock { $0 } }
}
