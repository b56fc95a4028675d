import ChimeCore
import ChimeDaemon
import ChimeStore
import ChimeTestSupport
import Foundation
import Glibc
import ChimeTestKit
import Testing

/// `chime daemon` as a process on the real clock, with the stdout sink: what it fires matches
/// `chime alarms`, a kill -9 loses nothing and doubles nothing, one daemon per store, clear
/// errors for bad configuration, graceful SIGTERM.
@Suite("chime daemon", .serialized)
struct DaemonTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chime-daemon-\(UUID().uuidString)").path
    var storePath: String { folder + "/chime.sqlite" }

    /// Whole seconds from now, on the wall clock.
    static func inSeconds(_ s: Int64) -> Instant { Instant(secondsSince1970: Int64(Date().timeIntervalSince1970.rounded(.down)) + s) }

    func openStore() throws -> EventStore { try EventStore(path: storePath, floatingZone: .utc) }

    @discardableResult
    func addEvent(_ store: EventStore, _ title: String, start: Instant, alarms: [Alarm], rule: String? = nil) throws -> Event {
        var e = Event(
            title: title, calendar: try store.defaultCalendarForNewEvents().identifier,
            start: .utc(start.utc), duration: 600)
        e.alarms = alarms
        if let rule { e.recurrenceRules = [try RecurrenceRule(parsing: rule)] }
        return try store.save(e)
    }

    @discardableResult
    func addReminder(_ store: EventStore, _ title: String, due: Instant, alarms: [Alarm], completed: Bool = false) throws -> Reminder {
        var r = Reminder(title: title, calendar: try store.defaultCalendarForNewReminders().identifier)
        r.dueDate = .utc(due.utc)
        r.alarms = alarms
        r.isCompleted = completed
        return try store.save(r)
    }

    @Test func whatTheDaemonFiresIsWhatChimeAlarmsPreviewed() throws {
        let store = try openStore()
        let base = Self.inSeconds(5)
        try addEvent(store, "Relative", start: base.adding(4), alarms: [.relative(-3)])  // fires base+1
        try addEvent(store, "Series", start: base.adding(2), alarms: [.relative(0)], rule: "FREQ=DAILY")  // base+2, then tomorrow
        try addEvent(store, "Absolute", start: base.adding(86_400 * 30), alarms: [.absolute(base.adding(1))])
        try addEvent(store, "End", start: base.adding(-590), alarms: [.relative(-5, relatedTo: .end)])  // ends base+10: base+5
        try addReminder(store, "Due", due: base.adding(6), alarms: [.relative(0)])
        try addReminder(store, "Done", due: base.adding(2), alarms: [.relative(0)], completed: true)
        try addReminder(
            store, "Place", due: base.adding(2),
            alarms: [.location(StructuredLocation(title: "Shop", latitude: 1, longitude: 2), .enter)])
        let windowEnd = base.adding(9)
        let preview = try CLI.run(["alarms", "--store", storePath, "--json", "--from", base.description, "--to", windowEnd.description])
        #expect(preview.status == 0, "\(preview.stderr)")
        let listed = try #require(try JSONDocument.body(preview.stdout) as? [String: Any])
        let timed = try #require(listed["alarms"] as? [[String: Any]])
        #expect(timed.compactMap { $0["title"] as? String } == ["Absolute", "Relative", "Series", "End", "Due"])
        #expect((listed["armed"] as? [[String: Any]])?.map { $0["title"] as? String } == ["Place"])

        let daemon = try DaemonProcess(store: storePath, folder: folder)
        let done = daemon.wait(timeout: 30) { $0.notifications.count >= timed.count }
        #expect(daemon.stop() == 0, "SIGTERM is a graceful stop: \(daemon.stderrText)")
        #expect(done, "daemon output: \(daemon.stdoutLines)\n\(daemon.stderrText)")
        let fired = daemon.notifications
        #expect(fired.compactMap { $0["key"] as? String } == timed.compactMap { $0["key"] as? String })
        #expect(fired.compactMap { $0["fire"] as? String } == timed.compactMap { $0["fire"] as? String })
        // The daemon names each firing as `chime alarms` does, and `chime show` takes it back.
        let refs = fired.compactMap { $0["ref"] as? String }
        #expect(refs == timed.compactMap { $0["ref"] as? String })
        #expect(refs.contains { $0.contains("@") }, "the series' firing names its occurrence: \(refs)")
        for ref in refs {
            let shown = try CLI.run(["show", ref, "--store", storePath])
            #expect(shown.status == 0, "chime show \(ref): \(shown.stderr)")
        }
        for n in fired { #expect((n["lateness_ms"] as? Int ?? .max) < 1000, "\(n)") }
        #expect(daemon.stderrText.contains("scheduled, sleeping"))
    }

    /// The daemon's tasks run on Chime's own executors, not libdispatch's: after starting and firing
    /// an alarm it has no worker of libdispatch's global queues (whose first start also starts a
    /// one-second timer that never stops), it has not loaded libcanberra (no sound was asked for), and
    /// idle it has no wake-ups: no thread is switched to for seconds on end, not even while other
    /// programs connect to its session bus (a bus of the test's own: other tests' traffic on the
    /// shared one, such as the notification server's broadcasts, is not idleness).
    @Test func anIdleDaemonHasNoLibdispatchWorkerAndNoWakeUps() throws {
        let store = try openStore()
        try addEvent(store, "Once", start: Self.inSeconds(2), alarms: [.relative(0)])
        let bus = try PrivateSessionBus()
        let daemon = try DaemonProcess(store: storePath, environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address], folder: folder)
        defer { daemon.stop() }
        #expect(daemon.wait(timeout: 20) { $0.notifications.count >= 1 }, "\(daemon.stderrText)")
        let tasks = "/proc/\(daemon.process.processIdentifier)/task"
        func threads() -> [(tid: String, name: String, switches: Int)] {
            ((try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? []).map { tid in
                let name = ((try? ProcFile.text("\(tasks)/\(tid)/comm")) ?? "").trimmingCharacters(in: .newlines)
                let status = (try? ProcFile.text("\(tasks)/\(tid)/status")) ?? ""
                let switches = status.split(separator: "\n").filter { $0.hasPrefix("voluntary_ctxt_switches") || $0.hasPrefix("nonvoluntary_ctxt_switches") }
                    .compactMap { $0.split(separator: "\t").last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } }.reduce(0, +)
                return (tid, name, switches)
            }
        }
        // The delivery's bookkeeping done and the next sleep begun: a state, not a time. On a loaded
        // machine that takes longer than any fixed pause, so wait until no thread of the daemon has
        // been switched to for a whole second (at most 30 s), then count.
        var before = threads()
        var quietSince = Date()
        let settleDeadline = Date().addingTimeInterval(30)
        while Date() < settleDeadline && Date().timeIntervalSince(quietSince) < 1 {
            usleep(100_000)
            let now = threads()
            if now.map(\.switches).reduce(0, +) != before.map(\.switches).reduce(0, +) || now.count != before.count { quietSince = Date() }
            before = now
        }
        #expect(Date().timeIntervalSince(quietSince) >= 1, "the daemon never went quiet after its delivery: \(before)")
        let names = before.map(\.name)
        #expect(names.contains("chime-pool-0"), "\(names)")
        // libdispatch names its workers after their root queue, cut to the last 15 bytes: the global
        // queues' ("com.apple.root.default-qos" …) are the monitored ones; serial queues (swift-service-
        // lifecycle's signal source) run on "….overcommit" ones, which libdispatch does not monitor.
        #expect(!names.contains { $0.hasSuffix("-qos") }, "libdispatch global-queue workers: \(names)")
        let maps = (try? ProcFile.text("/proc/\(daemon.process.processIdentifier)/maps")) ?? ""
        #expect(!maps.isEmpty)
        #expect(!maps.contains("libcanberra"), "libcanberra is loaded only for a sound")
        #expect(bus.hasOwner("io.github.chime.Chime"), "the daemon serves on the test's bus: \(daemon.stderrText)")
        let strangers = Date()
        for _ in 0..<3 {  // each one's connection changes owners on the bus; none concerns the daemon
            #expect(
                ServiceSandbox.shell(
                    "gdbus call --address '\(bus.address)' --dest org.freedesktop.DBus "
                        + "--object-path /org/freedesktop/DBus --method org.freedesktop.DBus.ListNames"
                ).status == 0)
        }
        usleep(useconds_t(max(0, 4 - Date().timeIntervalSince(strangers)) * 1_000_000))
        // Per thread: a thread that exits in between must not hide another one's switches, a thread
        // born in between counts all of its own.
        let earlier = Dictionary(before.map { ($0.tid, $0.switches) }, uniquingKeysWith: max)
        let after = threads()
        let woke = after.reduce(0) { $0 + max(0, $1.switches - (earlier[$1.tid] ?? 0)) }
        // libdispatch's pool monitor alone would be 4 here; allow one stray switch on a loaded machine.
        #expect(woke <= 1, "wake-ups in 4 idle seconds: \(woke); before \(before), after \(after)")
    }

    @Test func killNineWhileAlarmsAreDueDeliversEachExactlyOnce() throws {
        let store = try openStore()
        let base = Self.inSeconds(3)
        var expected: Set<String> = []
        for i in 0..<10 {
            let e = try addEvent(store, "Alarm \(i)", start: base.adding(Int64(i)), alarms: [.relative(0)])
            expected.insert("\(e.identifier)@\(base.adding(Int64(i)).utcBasicFormat)#0")
        }
        let first = try DaemonProcess(store: storePath, folder: folder, name: "first")
        #expect(first.wait(timeout: 20) { $0.notifications.count >= 3 }, "first daemon: \(first.stderrText)")
        #expect(first.stop(SIGKILL) == 128 + SIGKILL)
        usleep(2_500_000)  // alarms come due while no daemon runs
        let second = try DaemonProcess(store: storePath, folder: folder, name: "second")
        let all = { (first.notifications + second.notifications).compactMap { $0["key"] as? String } }
        let complete = second.wait(timeout: 30) { _ in all().count >= expected.count }
        usleep(1_500_000)  // a duplicate would show up now
        second.stop()
        #expect(complete, "second daemon: \(second.stderrText)")
        let keys = all()
        #expect(keys.count == expected.count, "duplicates or losses: \(keys.sorted())")
        #expect(Set(keys) == expected)
        #expect(!second.notifications.isEmpty)
    }

    @Test func aSecondDaemonOnTheSameStoreExitsNamingTheFirst() throws {
        _ = try openStore()
        let first = try DaemonProcess(store: storePath, folder: folder, name: "first")
        defer { first.stop() }
        #expect(first.wait(timeout: 20) { $0.stderrText.contains("scheduled, sleeping") })
        let second = try CLI.run(
            ["daemon", "--store", storePath, "--notifier", "stdout"],
            environment: ["XDG_CONFIG_HOME": folder + "/config"])
        #expect(second.status == DaemonError.alreadyRunningExitStatus)  // the unit's RestartPreventExitStatus=3
        #expect(second.status == 3)
        #expect(second.stderr.contains("another chime daemon (pid \(first.process.processIdentifier)) is already running for \(storePath)"))
    }

    @Test func badConfigurationStopsTheStartWithTheKeyNamed() throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let config = folder + "/bad.toml"
        try "[alarms]\nsnooze_minutes = \"ten\"\n".write(toFile: config, atomically: true, encoding: .utf8)
        var r = try CLI.run(["daemon", "--store", storePath, "--config", config])
        #expect(r.status == 1)
        #expect(r.stderr == "Error: configuration: \(config): alarms.snooze_minutes: must be a whole number, not \"ten\"\n")
        try "[alarm]\nsnooze_minutes = 5\n".write(toFile: config, atomically: true, encoding: .utf8)
        r = try CLI.run(["daemon", "--store", storePath, "--config", config])
        #expect(r.stderr.contains("unknown section [alarm]"))
        r = try CLI.run(["daemon", "--store", storePath, "--config", folder + "/missing.toml"])
        #expect(r.stderr == "Error: configuration: \(folder)/missing.toml: no such file\n")
        r = try CLI.run(["daemon", "--store", storePath, "--notifier", "pager"])
        #expect(r.status != 0)
        #expect(r.stderr.contains("--notifier must be libnotify, stdout or auto"))
        #expect(!FileManager.default.fileExists(atPath: storePath), "a refused start creates nothing")
    }
}
