import ChimeCore
import ChimeStore
import Foundation
import Glibc
import ChimeTestKit
import Testing
import ChimeDesktop
import ChimeTestSupport
@testable import ChimeDaemon

/// `chime daemon` as a D-Bus service on the harness's private session bus (Tests/harness, which
/// `make test` runs), with the real notification server (dunst) asking the user: clients in two
/// languages (`gdbus` copies at different paths, so that each is another app, and a Python
/// client on dbus-next), Allow and Don't Allow clicked in the server's menu, a revoke, a client
/// killed while it waits, and 50 concurrent clients.
@Suite("chime daemon's D-Bus service and per-app access", .serialized)
struct BusServiceTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chime-bus-\(UUID().uuidString)").path
    let environment = ProcessInfo.processInfo.environment
    static let name = "io.github.chime.Chime", path = "/io/github/chime/Chime1", interface = "io.github.chime.Chime1"
    static let scripts = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("bus").path

    func sandbox() -> String? { ServiceSandbox.folder() }
    func shell(_ command: String) -> (status: Int32, output: String) { ServiceSandbox.shell(command) }
    func poll(_ timeout: Double, _ condition: () -> Bool) -> Bool { ServiceSandbox.poll(timeout, condition) }

    /// A copy of gdbus at FOLDER/APP/gdbus: a client the service knows as `exe:` that path.
    func app(_ name: String) throws -> String {
        let dir = folder + "/apps/\(name)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let copy = dir + "/gdbus"
        let gdbus = shell("command -v gdbus").output.trimmingCharacters(in: .whitespacesAndNewlines)
        try FileManager.default.copyItem(atPath: gdbus, toPath: copy)
        return copy
    }

    /// `gdbus call` of METHOD with ARGS (gdbus syntax) by the client at `client`.
    func call(_ client: String, _ method: String, _ arguments: String = "") -> (status: Int32, output: String) {
        shell("'\(client)' call --session --dest \(Self.name) --object-path \(Self.path) --method \(Self.interface).\(method) \(arguments)")
    }

    /// The notifications dunst showed since the sandbox started, one line each (the log is shared by
    /// the suites: a test looks only at the lines after its own start, see ``logLines(after:)``).
    func notificationLog(_ run: String) -> [String] {
        ((try? String(contentsOfFile: run + "/notifications.log", encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// Waits for a notification shown after line `after` of the log whose summary contains `text`,
    /// then picks `action` in dunst's menu for it (see ``ServiceSandbox/pickInContextMenu(_:run:timeout:)``).
    func click(_ action: String, onNotificationContaining text: String, run: String, after: Int) -> Bool {
        var line = ""
        guard
            poll(
                20,
                {
                    line = notificationLog(run).dropFirst(after).last { $0.contains(text) } ?? ""
                    return !line.isEmpty
                })
        else { return false }
        let id = line.split(separator: "\t").first { $0.hasPrefix("id=") }.map { String($0.dropFirst(3)) } ?? "?"
        return ServiceSandbox.pickInContextMenu("[\(id),\(action)]", run: run)
    }

    func startDaemon(_ storePath: String, environment: [String: String] = [:]) throws -> DaemonProcess {
        let daemon = try DaemonProcess(
            store: storePath, arguments: ["--notifier", "libnotify", "--location", "none"],
            environment: environment, folder: folder)
        let owned = poll(20) { shell("gdbus wait --session --timeout 1 \(Self.name)").status == 0 && daemon.stderrText.contains("D-Bus service ready") }
        #expect(owned, "the daemon never took \(Self.name): \(daemon.stderrText)")
        return daemon
    }

    func seededStore() throws -> (path: String, store: EventStore, title: String) {
        let storePath = folder + "/chime.sqlite"
        let store = try EventStore(path: storePath, floatingZone: .utc)
        let title = "Planning \(UUID().uuidString.prefix(6))"
        let start = Instant(secondsSince1970: Int64(Date().timeIntervalSince1970) + 86_400)
        _ = try store.save(
            Event(
                title: title, calendar: try store.defaultCalendarForNewEvents().identifier,
                start: .utc(start.utc), duration: 3600))
        return (storePath, store, title)
    }

    /// The question is asked in the user's language (the daemon's environment), its buttons too;
    /// the answer works as in English.
    @Test func aRussianUserIsAskedInRussian() throws {
        let language = CatalogSandbox.folders  // made first: generating the locales takes seconds
        guard let run = sandbox() else { return }
        _ = shell("dunstctl close-all")
        let start = notificationLog(run).count
        let (storePath, _, _) = try seededStore()
        let daemon = try startDaemon(
            storePath,
            environment: [
                "LANG": "ru_RU.UTF-8", "LOCPATH": language.locales,
                "CHIME_LOCALEDIR": language.catalogs
            ])
        defer { daemon.stop() }
        let viewer = try app("viewer")
        _ = call(viewer, "RequestAccess", "reminder")
        #expect(
            click("allow", onNotificationContaining: "Разрешить gdbus (\(viewer)) доступ к вашим напоминаниям?", run: run, after: start),
            "no Russian question; shown: \(notificationLog(run).dropFirst(start)); daemon: \(daemon.stderrText)")
        let line = notificationLog(run).dropFirst(start).last { $0.contains("Разрешить gdbus") } ?? ""
        #expect(line.contains("Оно опознано как exe:\(viewer) (процесс "), "\(line)")
        let menu = (try? String(contentsOfFile: run + "/dmenu-input.log", encoding: .utf8)) ?? ""
        #expect(menu.contains("#Разрешить (") && menu.contains("#Запретить ("), "the buttons: \(menu)")
        #expect(poll(10) { call(viewer, "GetAuthorizationStatus", "reminder").output.contains("('authorized',)") })
        #expect(daemon.stop() == 0, "daemon: \(daemon.stderrText)")
    }

    @Test func anAppIsAskedOnceAllowedOrRefusedAndARevokeTakesEffectOnItsNextCall() throws {
        guard let run = sandbox() else { return }
        _ = shell("dunstctl close-all")
        let start = notificationLog(run).count
        let (storePath, _, title) = try seededStore()
        let daemon = try startDaemon(storePath)
        defer { daemon.stop() }
        let alpha = try app("alpha"), beta = try app("beta")

        #expect(call(alpha, "GetAuthorizationStatus", "event").output.contains("('notDetermined',)"))
        let refused = call(alpha, "Events", "0 4102444800")
        #expect(refused.status != 0)
        #expect(refused.output.contains("io.github.chime.Chime1.Error.NotAuthorized"), "\(refused.output)")
        #expect(refused.output.contains("exe:\(alpha)") && refused.output.contains("events"), "the error names the app and the right: \(refused.output)")

        // The request answers at once with a handle; the question goes to the notification server.
        let asked = call(alpha, "RequestAccess", "event")
        #expect(asked.output.contains("objectpath '/io/github/chime/Chime1/request/"), "\(asked.output)")
        #expect(asked.output.contains("'notDetermined'"))
        #expect(
            click("allow", onNotificationContaining: "Allow gdbus (\(alpha)) to use your calendar events?", run: run, after: start),
            "no prompt for alpha; daemon: \(daemon.stderrText)")
        #expect(poll(10) { call(alpha, "GetAuthorizationStatus", "event").output.contains("('authorized',)") })
        let now = Int64(Date().timeIntervalSince1970)
        let events = call(alpha, "Events", "\(now) \(now + 30 * 86_400)")
        #expect(events.status == 0 && events.output.contains(title), "\(events.output)")
        // Events only: reminders are another right.
        #expect(call(alpha, "Reminders", "false").output.contains("NotAuthorized"))

        // Another app is asked separately; Don't Allow sticks and is not asked again.
        _ = call(beta, "RequestAccess", "event")
        #expect(click("deny", onNotificationContaining: "Allow gdbus (\(beta))", run: run, after: start), "no prompt for beta")
        #expect(poll(10) { call(beta, "GetAuthorizationStatus", "event").output.contains("('denied',)") })
        #expect(call(beta, "Events", "0 4102444800").output.contains("NotAuthorized"))
        let shownBefore = notificationLog(run).count
        #expect(call(beta, "RequestAccess", "event").output.contains("'denied'"))
        usleep(300_000)
        #expect(notificationLog(run).count == shownBefore, "asked again after Don't Allow")

        let list = try CLI.run(["access", "list", "--store", storePath])
        #expect(list.stdout.contains("exe:\(alpha)") && list.stdout.contains("allowed (asked)"), "\(list.stdout)")
        #expect(list.stdout.contains("exe:\(beta)") && list.stdout.contains("refused (asked)"), "\(list.stdout)")

        // Revoked from the command line while the daemon runs: the very next call is refused.
        let revoke = try CLI.run(["access", "revoke", "exe:\(alpha)", "events", "--store", storePath])
        #expect(revoke.status == 0, "\(revoke.stderr)")
        #expect(call(alpha, "Events", "0 4102444800").output.contains("NotAuthorized"))
        #expect(daemon.stop() == 0, "daemon: \(daemon.stderrText)")
        _ = shell("dunstctl close-all")
    }

    @Test func aPythonClientIsAllowedThenAddsCompletesAndHearsChanged() throws {
        guard let run = sandbox() else { return }
        _ = shell("dunstctl close-all")
        let start = notificationLog(run).count
        let (storePath, store, seeded) = try seededStore()
        let daemon = try startDaemon(storePath)
        defer { daemon.stop() }
        let title = "Water the plants \(UUID().uuidString.prefix(4))"
        let output = folder + "/client.out"
        FileManager.default.createFile(atPath: output, contents: nil)
        let client = Process()
        client.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        client.arguments = ["python3", Self.scripts + "/bus-client.py", title]
        var env = environment
        env["TZ"] = "UTC"
        client.environment = env
        client.standardOutput = FileHandle(forWritingAtPath: output)
        client.standardError = FileHandle(forWritingAtPath: output)
        try client.run()
        defer { if client.isRunning { client.terminate() } }
        #expect(click("allow", onNotificationContaining: "to use your calendar events?", run: run, after: start), "no prompt; daemon: \(daemon.stderrText)")
        #expect(click("allow", onNotificationContaining: "to use your reminders?", run: run, after: start), "no prompt; daemon: \(daemon.stderrText)")
        let finished = poll(30) { !client.isRunning }
        let lines = ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "")
        #expect(finished && client.terminationStatus == 0, "client: \(lines)\ndaemon: \(daemon.stderrText)")
        let steps = lines.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(
            steps.map { $0["step"] as? String ?? "?" } == [
                "requested", "answered", "requested", "answered", "subscribed", "week", "listed",
                "added", "changed", "completed", "changed", "changes"
            ], "\(lines)")
        #expect(steps.filter { $0["step"] as? String == "answered" }.map { $0["status"] as? String } == ["authorized", "authorized"])
        #expect((steps.first { $0["step"] as? String == "week" }?["titles"] as? [String])?.contains(seeded) == true, "\(lines)")
        // Changes since Subscribe: the added reminder, then its completion (a repeating-free reminder is updated in place).
        let missed = steps.first { $0["step"] as? String == "changes" } ?? [:]
        // (the first reminder also created the default list: a calendar change, which both types see).
        #expect((missed["kinds"] as? [String]) == ["inserted", "updated"], "\(missed)")
        let addedID = steps.first { $0["step"] as? String == "added" }?["id"] as? String ?? "?"
        #expect((missed["ids"] as? [String])?.contains(addedID) == true, "\(missed)")
        #expect(steps.filter { $0["step"] as? String == "changed" }.allSatisfy { ($0["types"] as? [String])?.contains("reminder") == true })
        // What the client did is in the store, as any other process sees it.
        let done = try store.reminders(matching: store.predicateForCompletedReminders(completionStart: nil, completionEnd: nil, calendars: nil))
        #expect(done.map(\.title) == [title])
        #expect(daemon.stop() == 0, "daemon: \(daemon.stderrText)")
    }

    @Test func aClientKilledWhileItWaitsLeavesNothingStuck() throws {
        guard let run = sandbox() else { return }
        _ = shell("dunstctl close-all")
        let start = notificationLog(run).count
        let (storePath, store, _) = try seededStore()
        let daemon = try startDaemon(storePath)
        defer { daemon.stop() }
        // Killed while the question is on screen: the daemon goes on answering, and the answer
        // given afterwards is kept for the app's next run.
        let client = Process()
        client.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        client.arguments = ["python3", Self.scripts + "/bus-client.py", "never added"]
        client.standardOutput = FileHandle.nullDevice
        client.standardError = FileHandle.nullDevice
        try client.run()
        #expect(poll(20) { notificationLog(run).dropFirst(start).contains { $0.contains("to use your calendar events?") } })
        kill(client.processIdentifier, SIGKILL)
        client.waitUntilExit()
        let other = try app("other")
        #expect(call(other, "GetAuthorizationStatus", "reminder").output.contains("('notDetermined',)"), "the daemon still answers")
        #expect(click("allow", onNotificationContaining: "to use your calendar events?", run: run, after: start))
        #expect(
            poll(10) {
                (try? store.access.decisions())?.contains { $0.appID.hasPrefix("exe:") && $0.appID.contains("python") && $0.status == .authorized } == true
            },
            "\(String(describing: try? store.access.decisions()))")
        // A subscriber killed mid-stream: later changes go out without it, and nothing fails.
        let lingering = Process()
        lingering.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        lingering.arguments = ["python3", Self.scripts + "/bus-client.py", "Lingering \(UUID().uuidString.prefix(4))", "--linger"]
        let out = folder + "/linger.out"
        FileManager.default.createFile(atPath: out, contents: nil)
        lingering.standardOutput = FileHandle(forWritingAtPath: out)
        try lingering.run()
        #expect(click("allow", onNotificationContaining: "to use your reminders?", run: run, after: start))
        #expect(
            poll(30) { ((try? String(contentsOfFile: out, encoding: .utf8)) ?? "").contains("lingering") },
            "\((try? String(contentsOfFile: out, encoding: .utf8)) ?? "")")
        kill(lingering.processIdentifier, SIGKILL)
        lingering.waitUntilExit()
        _ = try CLI.run(["add", "reminder", "After the kill", "--store", storePath])
        usleep(500_000)
        #expect(call(other, "GetAuthorizationStatus", "reminder").status == 0)
        #expect(daemon.stop() == 0, "daemon: \(daemon.stderrText)")
        #expect(!daemon.stderrText.contains("error"), "\(daemon.stderrText)")
    }

    @Test func chimeViaBusIsAnotherAppItAsksReadsAndCompletes() throws {
        guard let run = sandbox() else { return }
        _ = shell("dunstctl close-all")
        let start = notificationLog(run).count
        let (storePath, store, _) = try seededStore()
        var reminder = Reminder(title: "Renew passport", calendar: try store.defaultCalendarForNewReminders().identifier)
        reminder.dueDate = .utc(Instant(secondsSince1970: Int64(Date().timeIntervalSince1970) + 86_400).utc)
        reminder = try store.save(reminder)
        let daemon = try startDaemon(storePath)
        defer { daemon.stop() }
        // The first --via-bus run asks (the notification names chime's own executable) and waits for the answer.
        let output = folder + "/via-bus.out", errors = folder + "/via-bus.err"
        FileManager.default.createFile(atPath: output, contents: nil)
        FileManager.default.createFile(atPath: errors, contents: nil)
        let asking = Process()
        asking.executableURL = CLI.binary
        asking.arguments = ["reminders", "--via-bus"]
        asking.standardOutput = FileHandle(forWritingAtPath: output)
        asking.standardError = FileHandle(forWritingAtPath: errors)
        try asking.run()
        #expect(click("allow", onNotificationContaining: "to use your reminders?", run: run, after: start), "daemon: \(daemon.stderrText)")
        #expect(poll(20) { !asking.isRunning })
        #expect(asking.terminationStatus == 0, "\((try? String(contentsOfFile: errors, encoding: .utf8)) ?? "")")
        #expect(((try? String(contentsOfFile: errors, encoding: .utf8)) ?? "").contains("answer the notification"))
        let listed = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        #expect(listed.contains("\"title\":\"Renew passport\""), "\(listed)")
        // The JSON is the shape `chime reminders --json` prints from the file.
        let direct = try CLI.run(["reminders", "--json", "--store", storePath])
        #expect(listed == direct.stdout, "via the bus:\n\(listed)\ndirect:\n\(direct.stdout)")
        // Now allowed: no question, straight to the answer.
        let done = try CLI.run(["complete", String(reminder.identifier.prefix(8)), "--via-bus"])
        #expect(done.status == 0 && done.stdout.contains("\"completed\":true"), "\(done.stdout)\(done.stderr)")
        #expect(try store.reminder(withIdentifier: reminder.identifier)?.isCompleted == true)
        // Events are another right; refused here, and said so with the line that would allow it.
        let agenda = Process()
        agenda.executableURL = CLI.binary
        agenda.arguments = ["agenda", "--via-bus"]
        let agendaErr = Pipe()
        agenda.standardError = agendaErr
        agenda.standardOutput = FileHandle.nullDevice
        try agenda.run()
        #expect(click("deny", onNotificationContaining: "to use your calendar events?", run: run, after: start))
        let message = String(decoding: agendaErr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        agenda.waitUntilExit()
        #expect(agenda.terminationStatus != 0)
        #expect(message.contains("does not let chime use your events (denied)") && message.contains("chime access grant exe:"), "\(message)")
        #expect(daemon.stop() == 0, "daemon: \(daemon.stderrText)")
        // No daemon: one clear line.
        let alone = try CLI.run(["reminders", "--via-bus"])
        #expect(alone.status != 0 && alone.stderr.contains("no chime daemon answers on the session bus"), "\(alone.stderr)")
        _ = shell("dunstctl close-all")
    }

    @Test(.timeLimit(.minutes(1))) func theSwiftClientHearsAChangeAnotherProcessCommits() async throws {
        guard sandbox() != nil else { return }
        let (storePath, _, _) = try seededStore()
        let daemon = try startDaemon(storePath)
        defer { daemon.stop() }
        let me = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        #expect(try CLI.run(["access", "grant", "exe:\(me)", "reminders", "--store", storePath]).status == 0)
        let client = try ChimeBusClient.connect()
        #expect(try await client.authorizationStatus(for: .reminder) == .authorized)
        #expect(try await client.authorizationStatus(for: .event) == .notDetermined)
        let changes = try await client.changes()
        let added = try CLI.run(["add", "reminder", "From another process", "--store", storePath])
        #expect(added.status == 0, "\(added.stderr)")
        var heard: ChimeBusClient.Change?
        for await change in changes { heard = change; break }
        #expect(heard?.entityTypes == ["reminder"])
        #expect(try await client.reminders(completed: false).contains("From another process"))
        do {
            _ = try await client.events(from: Instant(secondsSince1970: 0), to: Instant(secondsSince1970: 4_102_444_800))
            Issue.record("events without access were answered")
        } catch {
            #expect(error.name == "io.github.chime.Chime1.Error.NotAuthorized", "\(error)")
        }
        #expect(daemon.stop() == 0, "daemon: \(daemon.stderrText)")
    }

    @Test(.timeLimit(.minutes(1))) func aFiringHeardOverTheBusIsSnoozedThereAndAnEditIsSaved() async throws {
        guard sandbox() != nil else { return }
        let (storePath, store, _) = try seededStore()
        let daemon = try startDaemon(storePath)
        defer { daemon.stop() }
        let me = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        #expect(try CLI.run(["access", "grant", "exe:\(me)", "--store", storePath]).status == 0)
        let client = try ChimeBusClient.connect()
        let fired = try await client.alarmsFired()
        // Due in two seconds, with its alarm at the due time.
        var reminder = Reminder(title: "Stretch", calendar: try store.defaultCalendarForNewReminders().identifier)
        reminder.dueDate = .utc(Instant(secondsSince1970: Int64(Date().timeIntervalSince1970) + 2).utc)
        reminder.alarms = [.relative(0)]
        reminder = try store.save(reminder)
        var alarm: [String: Any] = [:]
        for await json in fired {
            alarm = (try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]) ?? [:]
            break
        }
        #expect(alarm["summary"] as? String == "Stretch", "\(alarm)")
        // Named as `chime show` takes it, in a versioned document.
        #expect(alarm["chime_json"] as? Int == 1 && alarm["refs"] as? [String] == [reminder.identifier], "\(alarm)")
        let key = try #require((alarm["keys"] as? [String])?.first)
        try await client.snooze(key, for: "10m")
        // Snoozed as the snooze alarm written into the reminder (a key of its own), or, where it
        // cannot be written, as the firing itself: either way the reminder has a snooze.
        let item = try #require(FiringKey(parsing: key)).item
        let snoozed = daemon.wait(timeout: 10) { _ in (try? store.ledger.entries(state: .snoozed))?.contains { $0.key.item == item } == true }
        #expect(snoozed, "daemon: \(daemon.stderrText)")
        do {
            try await client.snooze("not a key", for: "")
            Issue.record("a malformed key was taken")
        } catch {
            #expect(error.name == "io.github.chime.Chime1.Error.InvalidArgs")
        }
        // A well-formed key this daemon never showed is said to be one, not answered OK.
        let madeUp = key.replacingOccurrences(of: #"@\d{8}T\d{6}Z"#, with: "@20300101T090000Z", options: .regularExpression)
        #expect(madeUp != key)
        do {
            try await client.dismiss(madeUp)
            Issue.record("a key never shown was answered")
        } catch {
            #expect(error.name == "io.github.chime.Chime1.Error.InvalidArgs" && error.message.contains("was not shown"), "\(error)")
        }
        let edited = try await client.edit(String(reminder.identifier.prefix(8)), ["title": "Stretch and walk", "priority": "1"])
        #expect(edited.contains("\"title\":\"Stretch and walk\"") && edited.contains("\"priority\":1"), "\(edited)")
        let stored = try #require(try store.reminder(withIdentifier: reminder.identifier))
        #expect(stored.title == "Stretch and walk" && stored.sequence == reminder.sequence + 1)
        #expect(daemon.stop() == 0, "daemon: \(daemon.stderrText)")
    }

    @Test func fiftyConcurrentClientsLoseNoWriteAndGetNoError() throws {
        guard sandbox() != nil else { return }
        let (storePath, store, _) = try seededStore()
        let daemon = try startDaemon(storePath)
        defer { daemon.stop() }
        let python = shell("python3 -c 'import sys, os; print(os.path.realpath(sys.executable))'").output.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try CLI.run(["access", "grant", "exe:\(python)", "--store", storePath]).status == 0)
        let prefix = "load-\(UUID().uuidString.prefix(6))"
        let result = shell("python3 '\(Self.scripts)/bus-load.py' 50 100 \(prefix)")
        let report = try #require(try? JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any], "\(result.output)")
        #expect(report["calls"] as? Int == 5_000)
        #expect(report["errors"] as? Int == 0, "\(report["first_errors"] ?? "")")
        let added = Set(report["added"] as? [String] ?? [])
        #expect(added.count == 500)
        let stored = Set(
            try store.reminders(matching: store.predicateForIncompleteReminders(dueStart: nil, dueEnd: nil, calendars: nil))
                .map(\.title).filter { $0.hasPrefix(prefix) })
        #expect(stored == added, "lost writes: \(added.subtracting(stored).count)")
        print(
            "bus load: 50 clients x 100 calls: \(report["seconds"] ?? "?") s, p50 \(report["p50_ms"] ?? "?") ms, p99 \(report["p99_ms"] ?? "?") ms, max \(report["max_ms"] ?? "?") ms"
        )
        #expect(daemon.stop() == 0, "daemon: \(daemon.stderrText)")
    }

    @Test func theInstalledInterfaceFileIsTheOneTheDaemonExports() throws {
        guard sandbox() != nil else { return }
        let (storePath, _, _) = try seededStore()
        let daemon = try startDaemon(storePath)
        defer { daemon.stop() }
        let introspected = shell("gdbus introspect --session --dest \(Self.name) --object-path \(Self.path) --xml").output
        let file = try String(contentsOfFile: Self.scripts + "/../../Config/io.github.chime.Chime1.xml", encoding: .utf8)
        #expect(file == ChimeBusAPI.introspectionXML, "Config/io.github.chime.Chime1.xml and ChimeBusInterface.swift differ")
        for method in [
            "GetAuthorizationStatus", "RequestAccess", "Subscribe", "Unsubscribe", "Calendars", "Events", "Reminders",
            "Item", "UpcomingAlarms", "AddEvent", "AddReminder", "Edit", "Remove", "Complete", "Uncomplete", "Snooze", "Dismiss"
        ] {
            #expect(file.contains("<method name=\"\(method)\""), "\(method) missing from the file")
            #expect(introspected.contains("<method name=\"\(method)\""), "\(method) not exported")
        }
        for signal in ["Response", "Changed", "AlarmFired"] {
            #expect(introspected.contains("<signal name=\"\(signal)\""), "\(signal) not exported")
        }
        #expect(daemon.stop() == 0)
    }
}
