import ChimeCore
import ChimeScheduler
import ChimeStore
import ChimeTestSupport
import Foundation
import Glibc
import ChimeTestKit
import Testing

/// `chime daemon --notifier libnotify` against a real notification server (dunst on a private
/// session bus, started by Tests/harness/with-services.sh, which `make test` runs): the alarm
/// arrives with its summary, body, urgency and actions; "Complete" clicked in the server
/// completes the reminder and advances the series in the database.
@Suite("chime daemon with a real notification server", .serialized)
struct DesktopDaemonTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chime-desktop-\(UUID().uuidString)").path
    let environment = ProcessInfo.processInfo.environment

    func sandbox() -> String? { ServiceSandbox.folder() }
    func shell(_ command: String) -> (status: Int32, output: String) { ServiceSandbox.shell(command) }
    func poll(_ timeout: Double, _ condition: () -> Bool) -> Bool { ServiceSandbox.poll(timeout, condition) }

    @Test func completeClickedInTheServerCompletesAndAdvancesTheReminder() throws {
        guard let run = sandbox() else { return }
        _ = shell("dunstctl close-all")
        let storePath = folder + "/chime.sqlite"
        let store = try EventStore(path: storePath, floatingZone: .utc)
        let title = "Take pills \(UUID().uuidString.prefix(6))"
        let due = Instant(secondsSince1970: Int64(Date().timeIntervalSince1970) + 3)
        var reminder = Reminder(title: title, calendar: try store.defaultCalendarForNewReminders().identifier)
        reminder.dueDate = .utc(due.utc)
        reminder.recurrenceRules = [try RecurrenceRule(parsing: "FREQ=DAILY;COUNT=5")]
        reminder.alarms = [.relative(0)]
        reminder.priority = 1
        reminder.notes = "with water"
        reminder = try store.save(reminder)

        let daemon = try DaemonProcess(store: storePath, arguments: ["--notifier", "libnotify"], folder: folder)
        defer { daemon.stop() }
        let log = run + "/notifications.log"
        let shown = poll(20) { ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").contains("summary=\(title)") }
        #expect(shown, "daemon: \(daemon.stderrText)")
        let line = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").last { $0.contains("summary=\(title)") } ?? ""
        #expect(line.contains("app=Chime"))
        #expect(line.contains("urgency=CRITICAL"))
        #expect(line.contains("category=x-chime.reminder"))
        #expect(line.contains("desktop_entry=chime"))
        // The icon by name ("chime"), which dunst finds in the harness's icon_path (the repository's Config/).
        #expect(line.contains("icon=") && line.contains("/Config/chime.svg"), "\(line)")
        #expect(line.contains("body=Due \(DisplayText.dayHeading(due.utc.date)) \(DisplayText.hhmm(due.utc))"))
        let id = line.split(separator: "\t").first { $0.hasPrefix("id=") }.map { String($0.dropFirst(3)) } ?? "?"

        // dunst runs its rule script when the notification arrives, and lists only displayed ones
        // in its context menu: wait until it is on screen.
        let displayed = poll(10) { shell("dunstctl count displayed").output.trimmingCharacters(in: .whitespacesAndNewlines) == "1" }
        #expect(displayed, "dunst never displayed \(title)")

        // Pick "Complete" in the server's action menu for exactly this notification.
        #expect(ServiceSandbox.pickInContextMenu("[\(id),complete]", run: run), "no menu offered [\(id),complete]")
        let offered = (try? String(contentsOfFile: run + "/dmenu-input.log", encoding: .utf8)) ?? ""
        #expect(offered.contains("#Complete (\(title)) [\(id),complete]"))
        #expect(offered.contains("#Snooze 10 min (\(title)) [\(id),snooze:10m]"))
        #expect(offered.contains("#Snooze 1 h (\(title)) [\(id),snooze:1h]"))

        let advanced = poll(15) {
            (try? store.reminder(withIdentifier: reminder.identifier))??.dueDate == .utc(due.adding(86_400).utc)
        }
        #expect(advanced, "series not advanced; daemon: \(daemon.stderrText)")
        let completed = try store.reminders(matching: store.predicateForCompletedReminders(completionStart: nil, completionEnd: nil, calendars: nil))
        #expect(completed.map(\.title) == [title])
        #expect(completed.first?.dueDate == .utc(due.utc))
        #expect(daemon.stop() == 0)
        _ = shell("dunstctl close-all")
    }

    /// A Russian desktop (LANG=ru_RU.UTF-8): the notification the server shows says when in
    /// Russian, and its buttons are Russian; the title stays as the user wrote it.
    @Test func aRussianDesktopGetsTheAlarmInRussian() throws {
        let language = CatalogSandbox.folders  // made first: generating the locales takes seconds
        guard let run = sandbox() else { return }
        _ = shell("dunstctl close-all")
        let (storePath, title) = (folder + "/chime.sqlite", "Позвонить маме \(UUID().uuidString.prefix(6))")
        let store = try EventStore(path: storePath, floatingZone: .utc)
        let due = Instant(secondsSince1970: Int64(Date().timeIntervalSince1970) + 3)
        let reminder = try store.save(
            {
                var r = Reminder(title: title, calendar: try store.defaultCalendarForNewReminders().identifier)
                (r.dueDate, r.alarms) = (.utc(due.utc), [.relative(0)])
                return r
            }())
        let daemon = try DaemonProcess(
            store: storePath, arguments: ["--notifier", "libnotify"],
            environment: [
                "LANG": "ru_RU.UTF-8", "LOCPATH": language.locales,
                "CHIME_LOCALEDIR": language.catalogs
            ], folder: folder)
        defer { daemon.stop() }
        let log = run + "/notifications.log"
        let shown = poll(20) { ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").contains("summary=\(title)") }
        #expect(shown, "daemon: \(daemon.stderrText)")
        let line = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").last { $0.contains("summary=\(title)") } ?? ""
        #expect(line.contains("body=Срок: ") && line.contains(DisplayText.hhmm(due.utc)), "\(line)")
        let id = line.split(separator: "\t").first { $0.hasPrefix("id=") }.map { String($0.dropFirst(3)) } ?? "?"
        let displayed = poll(10) { shell("dunstctl count displayed").output.trimmingCharacters(in: .whitespacesAndNewlines) == "1" }
        #expect(displayed, "dunst never displayed \(title)")
        #expect(ServiceSandbox.pickInContextMenu("[\(id),complete]", run: run), "no menu offered [\(id),complete]")
        let offered = (try? String(contentsOfFile: run + "/dmenu-input.log", encoding: .utf8)) ?? ""
        #expect(
            offered.contains("#Выполнено (\(title)) [\(id),complete]") && offered.contains("#Отложить на 10 мин (\(title)) [\(id),snooze:10m]"),
            "\(offered)")
        let completed = poll(15) { (try? store.reminder(withIdentifier: reminder.identifier))??.isCompleted == true }
        #expect(completed, "daemon: \(daemon.stderrText)")
        #expect(daemon.stop() == 0)
        _ = shell("dunstctl close-all")
    }

    /// A daemon started by the systemd user manager follows the manager's language while it
    /// runs (`systemctl --user set-environment LANG=…`): one alarm in English, the language
    /// changes, the next alarm in Russian. A stand-in manager answers on the private bus.
    @Test func theDaemonFollowsALanguageChangeOfTheUserManager() throws {
        let language = CatalogSandbox.folders
        guard let run = sandbox() else { return }
        _ = shell("dunstctl close-all")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let environmentFile = folder + "/manager-environment", ready = folder + "/manager-ready"
        try "LANG=C\n".write(toFile: environmentFile, atomically: true, encoding: .utf8)
        let manager = Process()
        manager.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        manager.arguments = [
            "python3",
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../harness/fake-user-manager.py").standardized.path,
            environmentFile, ready
        ]
        try manager.run()
        defer {
            kill(manager.processIdentifier, SIGKILL)
            manager.waitUntilExit()
        }
        #expect(poll(15) { FileManager.default.fileExists(atPath: ready) }, "the stand-in manager did not start")
        let storePath = folder + "/chime.sqlite"
        let store = try EventStore(path: storePath, floatingZone: .utc)
        func remind(_ title: String) throws {
            var r = Reminder(title: title, calendar: try store.defaultCalendarForNewReminders().identifier)
            (r.dueDate, r.alarms) = (.utc(Instant(secondsSince1970: Int64(Date().timeIntervalSince1970) + 2).utc), [.relative(0)])
            _ = try store.save(r)
        }
        let suffix = UUID().uuidString.prefix(6)
        try remind("Call mum \(suffix)")
        let daemon = try DaemonProcess(
            store: storePath, arguments: ["--notifier", "libnotify"],
            environment: ["LANG": "C", "INVOCATION_ID": "0123456789abcdef", "LOCPATH": language.locales, "CHIME_LOCALEDIR": language.catalogs],
            folder: folder)
        defer { daemon.stop() }
        let log = run + "/notifications.log"
        func line(_ title: String) -> String {
            ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").last { $0.contains("summary=\(title)") }.map(String.init) ?? ""
        }
        #expect(poll(20) { !line("Call mum \(suffix)").isEmpty }, "daemon: \(daemon.stderrText)")
        #expect(line("Call mum \(suffix)").contains("body=Due "), "\(line("Call mum \(suffix)"))")
        try "LANG=ru_RU.UTF-8\n".write(toFile: environmentFile, atomically: true, encoding: .utf8)
        try remind("Позвонить папе \(suffix)")
        #expect(poll(20) { !line("Позвонить папе \(suffix)").isEmpty }, "daemon: \(daemon.stderrText)")
        #expect(line("Позвонить папе \(suffix)").contains("body=Срок: "), "\(line("Позвонить папе \(suffix)"))")
        #expect(daemon.stop() == 0)
        _ = shell("dunstctl close-all")
    }

    /// Snoozed in the server, then completed with `chime complete` in a terminal: the snooze is
    /// over (it would have rung again), and a second alarm on screen leaves it when its reminder
    /// is completed too. Before, both rang on.
    @Test func completingFromTheCommandLineEndsTheSnoozeAndTakesTheAlarmOffTheScreen() throws {
        guard let run = sandbox() else { return }
        _ = shell("dunstctl close-all")
        let storePath = folder + "/chime.sqlite"
        let store = try EventStore(path: storePath, floatingZone: .utc)
        let list = try store.defaultCalendarForNewReminders().identifier
        let due = Instant(secondsSince1970: Int64(Date().timeIntervalSince1970) + 3)
        var titles: [String] = []
        for name in ["Call the bank", "Water plants"] {
            var r = Reminder(title: "\(name) \(UUID().uuidString.prefix(6))", calendar: list)
            r.dueDate = .utc(due.utc)
            titles.append(try store.save(r).title)
        }
        let daemon = try DaemonProcess(store: storePath, arguments: ["--notifier", "libnotify"], folder: folder)
        defer { daemon.stop() }
        let log = run + "/notifications.log"
        func logLine(_ title: String) -> String {
            ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").last { $0.contains("summary=\(title)") }.map(String.init) ?? ""
        }
        #expect(poll(20) { !logLine(titles[0]).isEmpty && !logLine(titles[1]).isEmpty }, "daemon: \(daemon.stderrText)")
        #expect(poll(10) { shell("dunstctl count displayed").output.trimmingCharacters(in: .whitespacesAndNewlines) == "2" })
        // Snooze the first from the server's menu.
        let id = logLine(titles[0]).split(separator: "\t").first { $0.hasPrefix("id=") }.map { String($0.dropFirst(3)) } ?? "?"
        #expect(ServiceSandbox.pickInContextMenu("[\(id),snooze:10m]", run: run), "no menu offered [\(id),snooze:10m]")
        let snoozed = poll(15) { ((try? store.ledger.entries(state: .snoozed)) ?? []).count == 1 }
        #expect(snoozed, "the snooze was not recorded; daemon: \(daemon.stderrText)")
        // Both completed in a terminal.
        let env = ["CHIME_STORE": storePath, "TZ": "UTC"]
        for title in titles { #expect(try CLI.run(["complete", title], environment: env).status == 0) }
        let over = poll(15) {
            ((try? store.ledger.entries(state: .snoozed)) ?? []).isEmpty
                && shell("dunstctl count displayed").output.trimmingCharacters(in: .whitespacesAndNewlines) == "0"
        }
        #expect(
            over,
            "still snoozed (\(((try? store.ledger.entries(state: .snoozed)) ?? []).count)) or on screen (\(shell("dunstctl count displayed").output)); daemon: \(daemon.stderrText)"
        )
        #expect(daemon.stderrText.contains("withdrew alarms whose item changed"), "\(daemon.stderrText)")
        #expect(daemon.stop() == 0)
        _ = shell("dunstctl close-all")
    }

    /// Two machines on one Radicale, as a user with a laptop and a desktop has them: A (a
    /// terminal, in real time) adds an item whose alarm rings in a few seconds (`adding`, in
    /// calendar `calendar` of one `component`) and syncs; B's daemon, syncing every 5 s while an
    /// alarm is on screen, shows it. Returns once B's notification is on screen: A's
    /// environment, B's session, B's daemon (stopped by the caller) and the server's home (kept
    /// by the caller while the daemon runs: a Xandikos ends with it).
    private func shownOnB(
        _ title: String, calendar: String, component: String, adding: [String], on kind: CalDAVServerKind = .radicale
    ) async throws -> (a: [String: String], b: StoreSession, daemon: DaemonProcess, server: CalDAVHome) {
        let run = try #require(sandbox())
        _ = shell("dunstctl close-all")
        let home = try CalDAVHome.on(kind)
        try await home.makeCalendar(calendar.lowercased(), title: calendar, components: [component])
        let a = StoreSession(zone: "UTC"), b = StoreSession(zone: "UTC")
        var realTimeA = a.environment
        realTimeA["CHIME_NOW"] = nil
        #expect(try home.addAccount("home", to: a).status == 0)
        let added = try CLI.run(adding, environment: realTimeA)
        #expect(added.status == 0, "\(added.stderr)")
        #expect(try CLI.run(["account", "sync", "home"], environment: realTimeA).status == 0)
        #expect(try home.addAccount("laptop", to: b).status == 0)
        let config = folder + "/config.toml"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try "[sync]\nwhile_alarm_shown_seconds = 5\n".write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(store: b.path, arguments: ["--notifier", "libnotify", "--config", config], folder: folder)
        let log = run + "/notifications.log"
        #expect(poll(30) { ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").contains("summary=\(title)") }, "daemon: \(daemon.stderrText)")
        #expect(poll(10) { shell("dunstctl count displayed").output.trimmingCharacters(in: .whitespacesAndNewlines) == "1" })
        return (realTimeA, b, daemon, home)
    }

    /// Two machines on one Radicale or Xandikos: B's daemon shows an alarm; it is dismissed on A (`chime
    /// dismiss`, then A's sync). B's daemon, syncing every few seconds while the alarm is on
    /// screen, brings the answer and takes the notification off B's screen.
    @Test(arguments: CalDAVServerKind.allCases) func anAlarmDismissedOnTheOtherMachineLeavesThisScreen(_ kind: CalDAVServerKind) async throws {
        guard sandbox() != nil else { return }
        let title = "Review \(UUID().uuidString.prefix(6))"
        let start = Instant(secondsSince1970: Int64(Date().timeIntervalSince1970) + 6)
        let (realTimeA, b, daemon, server) = try await shownOnB(
            title, calendar: "Work", component: "VEVENT",
            adding: ["add", "event", title, "--start", start.description, "--duration", "30m", "--calendar", "Work", "--alarm", "0"], on: kind)
        defer {
            daemon.stop()
            withExtendedLifetime(server) {}
        }
        // Dismissed on A, which sends the answer.
        let dismissedAt = Date()
        let dismissed = try CLI.run(["dismiss", title], environment: realTimeA)
        #expect(dismissed.status == 0, "\(dismissed.stderr)")
        #expect(try CLI.run(["account", "sync", "home"], environment: realTimeA).stdout.contains("1 sent"))
        let gone = poll(40) { shell("dunstctl count displayed").output.trimmingCharacters(in: .whitespacesAndNewlines) == "0" }
        #expect(gone, "still on B's screen; daemon: \(daemon.stderrText)")
        print("dismissed on A -> closed on B: \(String(format: "%.1f", Date().timeIntervalSince(dismissedAt))) s (quick passes every 5 s)")
        #expect(daemon.stderrText.contains("withdrew alarms whose item changed"), "\(daemon.stderrText)")
        let storeB = try EventStore(path: b.path, floatingZone: .utc)
        #expect(try storeB.ledger.entries(state: .dismissed).count == 1)
        #expect(daemon.stop() == 0)
        _ = shell("dunstctl close-all")
    }

    /// Two machines on one Radicale: B's daemon shows a reminder's alarm; the reminder is
    /// completed on A (`chime complete`, then A's sync). B's next quick sync brings it, and the
    /// notification leaves B's screen.
    @Test func aReminderCompletedOnTheOtherMachineLeavesThisScreen() async throws {
        guard sandbox() != nil else { return }
        let title = "Pay rent \(UUID().uuidString.prefix(6))"
        let due = Instant(secondsSince1970: Int64(Date().timeIntervalSince1970) + 6)
        let (realTimeA, _, daemon, server) = try await shownOnB(
            title, calendar: "Todo", component: "VTODO", adding: ["add", "reminder", title, "--due", due.description, "--list", "Todo"])
        defer {
            daemon.stop()
            withExtendedLifetime(server) {}
        }
        let completed = try CLI.run(["complete", title], environment: realTimeA)
        #expect(completed.status == 0, "\(completed.stderr)")
        #expect(try CLI.run(["account", "sync", "home"], environment: realTimeA).stdout.contains("1 sent"))
        let gone = poll(40) { shell("dunstctl count displayed").output.trimmingCharacters(in: .whitespacesAndNewlines) == "0" }
        #expect(gone, "still on B's screen; daemon: \(daemon.stderrText)")
        #expect(daemon.stderrText.contains("withdrew alarms whose item changed"), "\(daemon.stderrText)")
        #expect(daemon.stop() == 0)
        _ = shell("dunstctl close-all")
    }

    /// Two machines on one Radicale or Xandikos: B's daemon shows an alarm; it is snoozed on A (`chime
    /// snooze`, then A's sync). B's notification leaves the screen with B's next quick sync, and
    /// B rings it once more at the snooze time, from the snooze alarm A wrote into the item.
    @Test(arguments: CalDAVServerKind.allCases) func anAlarmSnoozedOnTheOtherMachineLeavesThisScreenAndRingsAtTheSnoozeTime(
        _ kind: CalDAVServerKind
    ) async throws {
        guard let run = sandbox() else { return }
        let title = "Standup \(UUID().uuidString.prefix(6))"
        let start = Instant(secondsSince1970: Int64(Date().timeIntervalSince1970) + 6)
        let (realTimeA, _, daemon, server) = try await shownOnB(
            title, calendar: "Work", component: "VEVENT",
            adding: ["add", "event", title, "--start", start.description, "--duration", "30m", "--calendar", "Work", "--alarm", "0"], on: kind)
        defer {
            daemon.stop()
            withExtendedLifetime(server) {}
        }
        func shownCount() -> Int {
            ((try? String(contentsOfFile: run + "/notifications.log", encoding: .utf8)) ?? "").split(separator: "\n").filter { $0.contains("summary=\(title)") }
                .count
        }
        #expect(shownCount() == 1)
        // Snoozed on A for 20 seconds, which sends the snooze.
        let snoozed = try CLI.run(["snooze", title, "20s"], environment: realTimeA)
        #expect(snoozed.status == 0 && snoozed.stdout.contains("other devices ring it then too"), "\(snoozed.stdout)\(snoozed.stderr)")
        #expect(try CLI.run(["account", "sync", "home"], environment: realTimeA).stdout.contains("1 sent"))
        let gone = poll(30) { shell("dunstctl count displayed").output.trimmingCharacters(in: .whitespacesAndNewlines) == "0" }
        #expect(gone, "still on B's screen; daemon: \(daemon.stderrText)")
        #expect(shownCount() == 1, "not rung again before the snooze time")
        // At the snooze time B rings it once more.
        #expect(poll(40) { shownCount() == 2 }, "daemon: \(daemon.stderrText)")
        #expect(poll(10) { shell("dunstctl count displayed").output.trimmingCharacters(in: .whitespacesAndNewlines) == "1" })
        // (Stopping re-shows what is on screen without buttons: counted before it.)
        #expect(shownCount() == 2, "rung twice in all on B")
        #expect(daemon.stop() == 0)
        _ = shell("dunstctl close-all")
    }

    /// "Show" (the default action, a click on the body) on an alarm without a URL: the alarm is
    /// acknowledged and the item appears in full in a second notification, with its ID.
    @Test func showClickedInTheServerShowsTheItemInANotificationOfItsOwn() throws {
        guard let run = sandbox() else { return }
        _ = shell("dunstctl close-all")
        let storePath = folder + "/chime.sqlite"
        let store = try EventStore(path: storePath, floatingZone: .utc)
        let title = "Planning \(UUID().uuidString.prefix(6))"
        let start = Instant(secondsSince1970: Int64(Date().timeIntervalSince1970) + 3)
        var event = Event(title: title, calendar: try store.defaultCalendarForNewEvents().identifier, start: .utc(start.utc), duration: 1800)
        event.alarms = [.relative(0)]
        event.location = "Room 4"
        event.notes = "Agenda: budget, hiring"
        event.url = "file:///etc/passwd"  // not openable: shown as text only
        event = try store.save(event)

        let daemon = try DaemonProcess(store: storePath, arguments: ["--notifier", "libnotify"], folder: folder)
        defer { daemon.stop() }
        let log = run + "/notifications.log"
        let shown = poll(20) { ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").contains("summary=\(title)") }
        #expect(shown, "daemon: \(daemon.stderrText)")
        let displayed = poll(10) { shell("dunstctl count displayed").output.trimmingCharacters(in: .whitespacesAndNewlines) == "1" }
        #expect(displayed, "dunst never displayed \(title)")
        // `dunstctl action 0` invokes the default action of the newest notification, as a click does.
        #expect(shell("dunstctl action 0").status == 0)
        var lines: [Substring] = []
        let detailed = poll(15) {
            lines = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").filter { $0.contains("summary=\(title)") }
            return lines.count >= 2
        }
        #expect(detailed, "no details notification; daemon: \(daemon.stderrText)")
        let details = lines.last ?? ""
        #expect(details.contains("category=x-chime.details"), "\(details)")
        #expect(details.contains("urgency=LOW"))
        #expect(
            details.contains(#"\nCalendar: Calendar\nLocation: Room 4\nURL: file:///etc/passwd\nNotes: Agenda: budget, hiring\nID: \#(event.identifier)"#),
            "\(details)")
        #expect(details.contains("/Config/chime.svg"))
        let key = "\(event.identifier)@\(start.utcBasicFormat)#0"
        let acknowledged = poll(10) { (try? store.ledger.entries(state: .dismissed))?.contains { $0.key.description == key } == true }
        #expect(acknowledged, "the alarm is acknowledged; daemon: \(daemon.stderrText)")
        #expect(daemon.stderrText.contains("showed the item"))
        #expect(daemon.stop() == 0)
        _ = shell("dunstctl close-all")
    }

    /// dunst plays no sounds, so the daemon plays an alarm's sound through libcanberra. Here (no
    /// sound server, no sound card) that fails: the daemon logs libcanberra's reason, the
    /// notification is shown, and the next alarm a second later is on time.
    @Test func aSoundTheServerCannotPlayIsPlayedOrRefusedWithoutHoldingUpAlarms() throws {
        guard let run = sandbox() else { return }
        _ = shell("dunstctl close-all")
        let storePath = folder + "/chime.sqlite"
        let store = try EventStore(path: storePath, floatingZone: .utc)
        let token = UUID().uuidString.prefix(6)
        let start = Instant(secondsSince1970: Int64(Date().timeIntervalSince1970) + 3)
        var loud = Alarm.relative(0)
        loud.icsExtras = AlarmSounds.lines(asking: "bell")
        for (title, offset, alarm) in [("Kettle \(token)", Int64(0), loud), ("Tea \(token)", 1, Alarm.relative(0))] {
            var e = Event(title: title, calendar: try store.defaultCalendarForNewEvents().identifier, start: .utc(start.adding(offset).utc), duration: 600)
            e.alarms = [alarm]
            _ = try store.save(e)
        }
        let daemon = try DaemonProcess(store: storePath, arguments: ["--notifier", "libnotify"], folder: folder)
        defer { daemon.stop() }
        let log = run + "/notifications.log"
        let both = poll(20) {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            return text.contains("summary=Kettle \(token)") && text.contains("summary=Tea \(token)")
        }
        #expect(both, "daemon: \(daemon.stderrText)")
        let answered = poll(10) {
            daemon.stderrText.contains("could not play the alarm sound") || daemon.stderrText.contains("playing the alarm sound")
        }
        #expect(answered, "libcanberra's outcome is logged: \(daemon.stderrText)")
        let line = daemon.stderrText.split(separator: "\n").first { $0.contains("alarm sound") } ?? ""
        #expect(line.contains("sound=bell"), "\(line)")
        print("libcanberra here: \(line)")
        // The sound is played off the scheduler's path: the next alarm is not late.
        let tea = daemon.stderrText.split(separator: "\n").first { $0.contains("delivered") && $0.contains("Tea \(token)") } ?? ""
        let lateness = tea.split(separator: " ").first { $0.hasPrefix("lateness_ms=") }.flatMap { Int($0.dropFirst("lateness_ms=".count)) }
        #expect((lateness ?? .max) < 1000, "\(tea)")
        #expect(daemon.stop() == 0)
        _ = shell("dunstctl close-all")
    }
}
