import ChimeCore
import ChimeStore
import Foundation
import Glibc
import ChimeTestKit
import Testing

/// The D-Bus service against callers that mean harm or make mistakes, on the harness's private
/// bus with real clients (`gdbus` copies): numbers no calendar holds, arguments that would make
/// the error reply larger than the bus takes, an app probing for what it may not see, and a flood
/// of access prompts.
extension BusServiceTests {
    @Test func windowsNoCalendarHoldsAreRefusedAndTheDaemonStaysUp() throws {
        guard sandbox() != nil else { return }
        let (storePath, _, title) = try seededStore()
        let daemon = try startDaemon(storePath)
        defer { daemon.stop() }
        let viewer = try app("viewer")
        #expect(try CLI.run(["access", "grant", "exe:\(viewer)", "events", "--store", storePath]).status == 0)
        // Each of these took the daemon down with an overflow trap (SIGILL), and every alarm with it.
        for window in [
            "0 9223372036854775000", "9223372036854775806 9223372036854775807", "-- -9223372036854775808 0",
            "-- -9223372036854775808 9223372036854775807"
        ] {
            let answer = call(viewer, "Events", window)
            #expect(
                answer.status != 0 && answer.output.contains("InvalidArgs") && answer.output.contains("0000-01-01"),
                "Events(\(window)): \(answer.output)")
        }
        // 4e10 s (1,268 years) once grew the daemon to 1.6 GB: refused by its length.
        let long = call(viewer, "Events", "0 40000000000")
        #expect(long.status != 0 && long.output.contains("window too large"), "\(long.output)")
        let year = call(viewer, "Events", "0 4102444800")
        #expect(year.status != 0 && year.output.contains("window too large"), "\(year.output)")
        let now = Int64(Date().timeIntervalSince1970)
        let week = call(viewer, "Events", "\(now) \(now + 7 * 86_400)")
        #expect(week.status == 0 && week.output.contains(title), "the daemon answers afterwards: \(week.output)")
        #expect(daemon.stop() == 0, "daemon: \(daemon.stderrText)")
    }

    @Test func anErrorNeverEchoesAHugeArgumentAndTheNameStays() throws {
        guard sandbox() != nil else { return }
        let (storePath, _, _) = try seededStore()
        let daemon = try startDaemon(storePath)
        defer { daemon.stop() }
        let stranger = try app("stranger")
        // 120,000 bytes (a command-line argument holds at most 128 KiB); before, the error repeated it whole.
        let huge = "X@" + String(repeating: "A", count: 120_000)
        for (method, arguments) in [("Snooze", "'\(huge)' '5m'"), ("Item", "'\(huge)'")] {
            let answer = call(stranger, method, arguments)
            #expect(answer.status != 0)
            #expect(answer.output.utf8.count < 2_000, "\(method): an error of \(answer.output.utf8.count) bytes")
        }
        #expect(shell("gdbus wait --session --timeout 1 \(Self.name)").status == 0, "the service left the bus")
        #expect(call(stranger, "GetAuthorizationStatus", "event").output.contains("('notDetermined',)"))
        #expect(daemon.stop() == 0, "daemon: \(daemon.stderrText)")
    }

    @Test func anEventsOnlyAppLearnsNothingOfReminders() throws {
        guard sandbox() != nil else { return }
        let (storePath, store, _) = try seededStore()
        let list = try store.defaultCalendarForNewReminders().identifier
        var secrets: [Reminder] = []
        for n in 0..<32 { secrets.append(try store.save(Reminder(title: "SECRET reminder no \(n)", calendar: list))) }
        let daemon = try startDaemon(storePath)
        defer { daemon.stop() }
        let viewer = try app("events-only")
        #expect(try CLI.run(["access", "grant", "exe:\(viewer)", "events", "--store", storePath]).status == 0)
        var answers: [String] = []
        for prefix in "0123456789ABCDEF" { answers.append(call(viewer, "Item", "'\(prefix)'").output) }
        #expect(!answers.contains { $0.contains("SECRET") }, "\(answers.filter { $0.contains("SECRET") })")
        // Ten reminders newer than the one event sharing an ID's first character: the event is found
        // by that prefix alone (the reminders are not counted, nor do they push it out of the search).
        let event = try store.save(
            Event(
                title: "Visible event", calendar: try store.defaultCalendarForNewEvents().identifier,
                start: .utc(Instant(secondsSince1970: Int64(Date().timeIntervalSince1970) + 86_400).utc),
                duration: 600))
        let first = String(event.identifier.prefix(1))
        for n in 0..<12 {
            _ = try store.save(Reminder(identifier: first + String(UUID().uuidString.dropFirst()), title: "SECRET newer \(n)", calendar: list))
        }
        let events = try store.events(
            matching: store.predicateForEvents(
                start: Instant(secondsSince1970: 0),
                end: Instant(secondsSince1970: 4_102_444_800), calendars: nil))
        let sharing = events.filter { $0.identifier.hasPrefix(first) }.count
        let byFirst = call(viewer, "Item", "'\(first)'").output
        #expect(!byFirst.contains("SECRET"), "\(byFirst)")
        if sharing == 1 { #expect(byFirst.contains("Visible event"), "\(byFirst)") }
        // A reminder's exact title names nothing either (the answer repeats only what was typed).
        let byTitle = call(viewer, "Item", "'SECRET reminder no 3'").output
        #expect(byTitle.contains("no event or reminder with ID, UID or title") && !byTitle.contains("no 17"), "\(byTitle)")
        // A reminder's own ID reads as an ID that does not exist: no "not authorized" to tell them apart.
        let known = call(viewer, "Item", "'\(secrets[0].identifier)'").output
        let unknown = call(viewer, "Item", "'\(UUID().uuidString)'").output
        for answer in [known, unknown] {
            #expect(
                !answer.contains("NotAuthorized") && answer.contains("InvalidArgs") && answer.contains("no event or reminder with ID, UID or title"),
                "\(answer)")
        }
        // Changes lists no reminder list's ID.
        let changes = call(viewer, "Changes", "0").output
        #expect(!changes.contains(list), "\(changes)")
        #expect(daemon.stop() == 0, "daemon: \(daemon.stderrText)")
    }

    /// Questions go through the daemon's notification sink: with alarms on standard output there is
    /// nobody to ask, the request says so with the line to type, and nothing reaches the server.
    @Test func aDaemonWhoseAlarmsGoToStandardOutputAsksNobody() throws {
        guard let run = sandbox() else { return }
        let start = notificationLog(run).count
        let (storePath, _, _) = try seededStore()
        let daemon = try DaemonProcess(
            store: storePath, arguments: ["--notifier", "stdout", "--location", "none"], folder: folder, name: "stdout-daemon")
        defer { daemon.stop() }
        #expect(poll(20) { shell("gdbus wait --session --timeout 1 \(Self.name)").status == 0 && daemon.stderrText.contains("D-Bus service ready") })
        let asker = try app("unheard-asker")
        let refused = call(asker, "RequestAccess", "event")
        #expect(refused.status != 0 && refused.output.contains("Error.NoPrompt"), "\(refused.output)")
        #expect(refused.output.contains("standard output") && refused.output.contains("chime access grant exe:\(asker) events"), "\(refused.output)")
        #expect(!notificationLog(run).dropFirst(start).contains { $0.contains("Allow gdbus (\(asker))") })
        // Nothing is left open: the same app asks again and hears the same, not "Busy".
        #expect(call(asker, "RequestAccess", "event").output.contains("Error.NoPrompt"))
        #expect(daemon.stop() == 0, "daemon: \(daemon.stderrText)")
    }

    @Test func onePromptAtATimeAndAFloodIsRefused() throws {
        guard let run = sandbox() else { return }
        _ = shell("dunstctl close-all")
        let start = notificationLog(run).count
        let (storePath, _, _) = try seededStore()
        let daemon = try startDaemon(storePath)
        defer { daemon.stop() }
        let first = try app("first-asker")
        #expect(call(first, "RequestAccess", "event").output.contains("'notDetermined'"))
        #expect(poll(20) { notificationLog(run).dropFirst(start).contains { $0.contains("Allow gdbus (\(first))") } })
        // While that question is open, 20 other identities (copies of one binary) are told to wait.
        for n in 0..<20 {
            let flooder = try app("flood-\(n)")
            let refused = call(flooder, "RequestAccess", "event")
            #expect(refused.status != 0 && refused.output.contains("Error.Busy"), "\(refused.output)")
        }
        #expect(notificationLog(run).dropFirst(start).filter { $0.contains("to use your calendar events?") }.count == 1)
        // The question is not critical and expires: the server is never wedged by it.
        let line = notificationLog(run).dropFirst(start).first { $0.contains("Allow gdbus (\(first))") } ?? ""
        #expect(line.contains("urgency=NORMAL") && !line.contains("timeout=0\t"), "\(line)")
        // Answered, the slot is free for the next app.
        #expect(click("deny", onNotificationContaining: "Allow gdbus (\(first))", run: run, after: start))
        #expect(poll(10) { call(first, "GetAuthorizationStatus", "event").output.contains("('denied',)") })
        let next = try app("next-asker")
        #expect(call(next, "RequestAccess", "event").output.contains("'notDetermined'"))
        #expect(click("deny", onNotificationContaining: "Allow gdbus (\(next))", run: run, after: start))
        #expect(daemon.stop() == 0, "daemon: \(daemon.stderrText)")
        _ = shell("dunstctl close-all")
    }

    /// A bus with a small message limit (64 KiB, where the harness's is 128 MiB) drops the daemon's
    /// connection when an answer exceeds it: the name vanished for every app, nothing was logged and
    /// nothing reconnected. Now the daemon logs the drop, takes the name again, and answers.
    @Test(.timeLimit(.minutes(2))) func aConnectionTheBusDropsIsLoggedAndTheNameTakenAgain() throws {
        guard sandbox() != nil else { return }
        let (storePath, store, _) = try seededStore()
        let calendar = try store.defaultCalendarForNewEvents().identifier
        let now = Int64(Date().timeIntervalSince1970)
        for n in 0..<300 {
            _ = try store.save(
                Event(
                    title: "Event \(n) " + String(repeating: "w", count: 300), calendar: calendar,
                    start: .utc(Instant(secondsSince1970: now + 3_600 + Int64(n) * 600).utc), duration: 600), commit: false)
        }
        try store.commit()
        // A private session bus whose messages may be at most 64 KiB.
        let busFolder = folder + "/small-bus"
        try FileManager.default.createDirectory(atPath: busFolder, withIntermediateDirectories: true)
        try """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>unix:path=\(busFolder)/bus</listen>
          <auth>EXTERNAL</auth>
          <policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy>
          <limit name="max_message_size">65536</limit>
        </busconfig>
        """.write(toFile: busFolder + "/bus.conf", atomically: true, encoding: .utf8)
        let bus = Process()
        bus.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        bus.arguments = ["dbus-daemon", "--config-file=\(busFolder)/bus.conf", "--nofork", "--print-address"]
        let address = Pipe()
        bus.standardOutput = address
        try bus.run()
        defer { kill(bus.processIdentifier, SIGKILL); bus.waitUntilExit() }
        var line = Data()
        while let byte = try address.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) { line += byte }
        let busAddress = String(decoding: line, as: UTF8.self)
        #expect(busAddress.hasPrefix("unix:"), "\(busAddress)")

        let viewer = try app("big-reader")
        #expect(try CLI.run(["access", "grant", "exe:\(viewer)", "events", "--store", storePath]).status == 0)
        let daemon = try DaemonProcess(
            store: storePath, arguments: ["--notifier", "stdout", "--location", "none"],
            environment: ["DBUS_SESSION_BUS_ADDRESS": busAddress], folder: folder, name: "small-bus-daemon")
        defer { daemon.stop() }
        func onSmallBus(_ method: String, _ arguments: String) -> (status: Int32, output: String) {
            shell(
                "DBUS_SESSION_BUS_ADDRESS='\(busAddress)' '\(viewer)' call --session --dest \(Self.name) --object-path \(Self.path) "
                    + "--method \(Self.interface).\(method) \(arguments)")
        }
        #expect(daemon.wait(timeout: 20) { $0.stderrText.contains("D-Bus service ready") }, "\(daemon.stderrText)")
        // About 200 KB of agenda: more than this bus carries in one message.
        let big = onSmallBus("Events", "\(now) \(now + 7 * 86_400)")
        #expect(big.status != 0, "\(big.output.prefix(200))")
        let back = daemon.wait(timeout: 30) { d in
            d.stderrText.contains("the D-Bus connection closed") && d.stderrText.components(separatedBy: "D-Bus service ready").count >= 3
        }
        #expect(back, "no reconnect: \(daemon.stderrText)")
        #expect(onSmallBus("GetAuthorizationStatus", "event").output.contains("('authorized',)"), "the name answers again")
        #expect(daemon.process.isRunning)
        #expect(daemon.stop() == 0, "daemon: \(daemon.stderrText)")
    }
}
