import ChimeCore
import ChimeScheduler
import ChimeStore
import Synchronization
import Testing

/// A command runner that records what it was asked to start instead of starting it.
final class RecordingRunner: CommandRunner {
    private let log = Mutex<[CommandRequest]>([])
    func start(_ request: CommandRequest) throws(CommandError) { log.withLock { $0.append(request) } }
    var started: [CommandRequest] { log.withLock { $0 } }
}

/// Command alarms: an item names a command only through the store's own table (the CLI's
/// --alarm-command), the config's [commands] table is the allow-list, and the notification shows
/// whatever the decision.
@Suite struct AlarmCommandTests {
    static let allowed = AlarmCommands(
        commands: [
            "backup": ["/usr/bin/rsync", "-a", "/home/me/", "/mnt/b/"],
            "relative": ["bin/tool"]
        ], timeoutSeconds: 30)

    @Test func theAllowListDecides() {
        #expect(Self.allowed.decision(for: "backup") == .run(["/usr/bin/rsync", "-a", "/home/me/", "/mnt/b/"]))
        #expect(Self.allowed.decision(for: "rm") == .refused("no command \"rm\" in [commands] of config.toml (allowed: backup, relative)"))
        #expect(AlarmCommands().decision(for: "backup") == .refused("no command \"backup\" in [commands] of config.toml (the table is empty)"))
        // Names are words; the table's programs are absolute paths (the config reader refuses others too).
        #expect(Self.allowed.decision(for: "relative") == .refused("command \"relative\" does not start with an absolute program path"))
        for bad in ["", "/bin/rm", "back up", "a;b", "../x", String(repeating: "a", count: 65), "bäckup"] {
            guard case .refused = Self.allowed.decision(for: bad) else { Issue.record("\"\(bad)\" was allowed"); continue }
        }
        #expect(AlarmCommands.isValidName("backup-2_x"))
    }

    /// What the scheduler reported, in order.
    final class EventLog { var events: [SchedulerEvent] = [] }

    private func harness(commands: AlarmCommands) throws -> (SchedulerHarness, RecordingRunner, EventLog) {
        let h = try SchedulerHarness()
        h.settings.commands = commands
        let runner = RecordingRunner()
        h.commandRunner = runner
        return (h, runner, EventLog())
    }

    private func start(_ h: SchedulerHarness, runner: RecordingRunner, events: EventLog) throws {
        try h.start()
        h.scheduler.onEvent = { event in events.events.append(event) }
    }

    @Test func anAllowedCommandStartsAtTheAlarmTimeWithTheItemInItsEnvironment() throws {
        let (h, runner, events) = try harness(commands: Self.allowed)
        let e = try h.addEvent("Back up the laptop", start: at(2026, 11, 20, 13), alarms: [.relative(-600)])
        try h.store.setAlarmCommand("backup", forItem: e.identifier)
        try start(h, runner: runner, events: events)
        try h.advance(to: utc(2026, 11, 20, 12, 49, 59))
        #expect(runner.started.isEmpty)
        try h.advance(to: utc(2026, 11, 20, 12, 50))
        let request = try #require(runner.started.first)
        #expect(runner.started.count == 1)
        #expect(request.name == "backup")
        #expect(request.argv == ["/usr/bin/rsync", "-a", "/home/me/", "/mnt/b/"])
        #expect(request.timeoutSeconds == 30)
        #expect(
            request.environment == [
                "CHIME_TITLE": "Back up the laptop", "CHIME_ITEM": e.identifier,
                "CHIME_START": "2026-11-20T13:00:00Z", "CHIME_FIRE_AT": "2026-11-20T12:50:00Z",
                "CHIME_KIND": "event"
            ])
        #expect(h.sink.titles == ["Back up the laptop"])  // the notification shows as well
        // Snoozed and shown again: the command does not run a second time.
        try h.scheduler.respond(NotificationResponse(keys: h.sink.delivered[0].keys, kind: .snooze, snooze: .minutes(10)))
        try h.advance(to: utc(2026, 11, 20, 13, 0, 1))
        #expect(h.sink.titles == ["Back up the laptop", "Back up the laptop"])
        #expect(runner.started.count == 1)
    }

    @Test func aCommandNotInTheAllowListIsRefusedAndTheNotificationStillShows() throws {
        let (h, runner, events) = try harness(commands: Self.allowed)
        let e = try h.addEvent("Clean up", start: at(2026, 11, 20, 13), alarms: [.relative(0)])
        try h.store.setAlarmCommand("wipe", forItem: e.identifier)
        try start(h, runner: runner, events: events)
        try h.advance(to: utc(2026, 11, 20, 13))
        #expect(runner.started.isEmpty)
        #expect(h.sink.titles == ["Clean up"])
        let refusals = events.events.compactMap { event -> String? in
            if case .commandRefused(_, let name, let reason) = event { return "\(name): \(reason)" }
            return nil
        }
        #expect(refusals == ["wipe: no command \"wipe\" in [commands] of config.toml (allowed: backup, relative)"])
    }

    @Test func withoutACommandRunnerNothingRuns() throws {
        let h = try SchedulerHarness()
        h.settings.commands = Self.allowed
        let e = try h.addEvent("Back up", start: at(2026, 11, 20, 13), alarms: [.relative(0)])
        try h.store.setAlarmCommand("backup", forItem: e.identifier)
        try h.start()  // the harness's scheduler has no runner
        try h.advance(to: utc(2026, 11, 20, 13))
        #expect(h.sink.titles == ["Back up"])
    }

    /// An imported file's `ACTION:PROCEDURE` alarm (RFC 2445's command alarm) names no command: it is
    /// kept verbatim, and neither it nor any other line of the file reaches the command table.
    @Test func anImportedCommandAlarmNeverRuns() throws {
        let (h, runner, events) = try harness(commands: AlarmCommands(commands: ["rm": ["/bin/rm", "-rf", "/tmp/x"]]))
        let ics = """
            BEGIN:VCALENDAR\r
            VERSION:2.0\r
            PRODID:-//test//EN\r
            BEGIN:VEVENT\r
            UID:hostile@example.org\r
            DTSTAMP:20261101T000000Z\r
            DTSTART:20261120T130000Z\r
            DURATION:PT1H\r
            SUMMARY:Imported\r
            X-CHIME-COMMAND:rm\r
            BEGIN:VALARM\r
            ACTION:PROCEDURE\r
            TRIGGER:-PT5M\r
            ATTACH:file:///bin/rm\r
            X-CHIME-COMMAND:rm\r
            END:VALARM\r
            BEGIN:VALARM\r
            ACTION:DISPLAY\r
            DESCRIPTION:Imported\r
            TRIGGER:PT0S\r
            X-CHIME-COMMAND:rm\r
            END:VALARM\r
            END:VEVENT\r
            END:VCALENDAR\r

            """
        _ = try h.store.importICS(Array(ics.utf8), file: "hostile.ics")
        let ids = try h.store.events(matching: EventPredicate(start: utc(2026, 11, 20), end: utc(2026, 11, 21))).map(\.identifier)
        #expect(try h.store.alarmCommands(forItems: Set(ids)).isEmpty)
        try start(h, runner: runner, events: events)
        try h.advance(to: utc(2026, 11, 20, 14))
        #expect(h.sink.titles == ["Imported"])  // the DISPLAY alarm only
        #expect(runner.started.isEmpty)
    }

    @Test func deletingTheItemForgetsItsCommand() throws {
        let h = try SchedulerHarness()
        let e = try h.addEvent("Back up", start: at(2026, 11, 20, 13), alarms: [.relative(0)])
        try h.store.setAlarmCommand("backup", forItem: e.identifier)
        #expect(try h.store.alarmCommands(forItems: [e.identifier]) == [e.identifier: "backup"])
        try h.store.setAlarmCommand(nil, forItem: e.identifier)
        #expect(try h.store.alarmCommands(forItems: [e.identifier]).isEmpty)
        try h.store.setAlarmCommand("backup", forItem: e.identifier)
        try h.store.remove(e)
        #expect(try h.store.alarmCommands(forItems: [e.identifier]).isEmpty)
        #expect(throws: StoreError.unknownItem("nope")) { try h.store.setAlarmCommand("backup", forItem: "nope") }
    }

    /// A file carrying the item's UID with `RRULE:FREQ=MINUTELY;COUNT=3` re-timed an item the user
    /// had linked to a command, which then ran three times. Now the re-timed item's alarms show, and
    /// the command waits until the user's own command line confirms the new timing.
    @Test func anImportThatRetimesALinkedItemDoesNotRunItsCommand() throws {
        let (h, runner, events) = try harness(commands: Self.allowed)
        let e = try h.addEvent("Back up", start: at(2026, 11, 20, 13), alarms: [.relative(0)])
        try h.store.setAlarmCommand("backup", forItem: e.identifier)
        #expect(try h.store.alarmCommandLinks(forItems: [e.identifier])[e.identifier]?.isRetimed == false)
        let ics = """
            BEGIN:VCALENDAR\r
            VERSION:2.0\r
            PRODID:-//test//EN\r
            BEGIN:VEVENT\r
            UID:\(e.externalIdentifier)\r
            DTSTAMP:20261101T000000Z\r
            SEQUENCE:5\r
            DTSTART:20261120T130000Z\r
            DURATION:PT1H\r
            RRULE:FREQ=MINUTELY;COUNT=3\r
            SUMMARY:Back up\r
            BEGIN:VALARM\r
            ACTION:DISPLAY\r
            DESCRIPTION:Back up\r
            TRIGGER:PT0S\r
            END:VALARM\r
            END:VEVENT\r
            END:VCALENDAR\r

            """
        _ = try h.store.importICS(Array(ics.utf8), file: "retime.ics")
        let link = try #require(try h.store.alarmCommandLinks(forItems: [e.identifier])[e.identifier])
        #expect(link.isRetimed && link.name == "backup")
        try start(h, runner: runner, events: events)
        try h.advance(to: utc(2026, 11, 20, 13, 3))
        #expect(h.sink.titles.count == 3, "the alarms still show: \(h.sink.titles)")
        #expect(runner.started.isEmpty, "ran \(runner.started.count)×")
        let refusals = events.events.compactMap { event -> String? in
            if case .commandRefused(_, _, let reason) = event { return reason }
            return nil
        }
        #expect(refusals.count == 3 && refusals.allSatisfy { $0.contains("re-timed") && $0.contains("--alarm-command backup") }, "\(refusals)")
        // The user's own command line confirms it: the link is whole again.
        try h.store.confirmAlarmCommandTiming(forItem: e.identifier)
        #expect(try h.store.alarmCommandLinks(forItems: [e.identifier])[e.identifier]?.isRetimed == false)
    }

    /// A daily reminder, due 2026-11-21 09:00 UTC, whose alarms run "backup".
    private func dailyReminderRunningBackup() throws -> (SchedulerHarness, Reminder) {
        let h = try SchedulerHarness()
        var r = Reminder(title: "Water", calendar: try h.store.defaultCalendarForNewReminders().identifier)
        r.dueDate = .utc(utc(2026, 11, 21, 9).utc)
        r.recurrenceRules = [try RecurrenceRule(parsing: "FREQ=DAILY")]
        r = try h.store.save(r)
        try h.store.setAlarmCommand("backup", forItem: r.identifier)
        return (h, r)
    }

    /// Completing a repeating reminder moves it along its own rule: its command stays linked.
    @Test func completingARepeatingReminderKeepsItsCommandLinked() throws {
        let (h, r) = try dailyReminderRunningBackup()
        _ = try h.store.complete(reminderWithIdentifier: r.identifier)
        #expect(try h.store.alarmCommandLinks(forItems: [r.identifier])[r.identifier]?.isRetimed == false)
        // A change of its due date from anywhere else is a re-timing.
        _ = try h.store.modifyReminder(identifier: r.identifier) { $0.dueDate = .utc(utc(2026, 11, 25, 3).utc) }
        #expect(try h.store.alarmCommandLinks(forItems: [r.identifier])[r.identifier]?.isRetimed == true)
    }

    /// Completing or reopening a reminder that something else re-timed does not approve the new
    /// timing (an app could otherwise edit the due date, then complete and reopen it); a place
    /// alarm added elsewhere re-times the item too (it runs the command as well).
    @Test func aCompletionDoesNotApproveATimingSomethingElseChanged() throws {
        let (h, r) = try dailyReminderRunningBackup()
        _ = try h.store.modifyReminder(identifier: r.identifier) { $0.dueDate = .utc(utc(2026, 11, 21, 3).utc) }
        #expect(try h.store.alarmCommandLinks(forItems: [r.identifier])[r.identifier]?.isRetimed == true)
        guard case .completed(let done, _) = try h.store.complete(reminderWithIdentifier: r.identifier) else {
            Issue.record("not completed"); return
        }
        #expect(try h.store.alarmCommandLinks(forItems: [r.identifier])[r.identifier]?.isRetimed == true, "completing approved it")
        _ = try h.store.uncomplete(reminderWithIdentifier: done.identifier)
        #expect(try h.store.alarmCommandLinks(forItems: [r.identifier])[r.identifier]?.isRetimed == true, "reopening approved it")

        try h.store.confirmAlarmCommandTiming(forItem: r.identifier)
        _ = try h.store.modifyReminder(identifier: r.identifier) {
            $0.alarms.append(.location(StructuredLocation(title: "Home", latitude: 52.52, longitude: 13.40), .enter))
        }
        #expect(try h.store.alarmCommandLinks(forItems: [r.identifier])[r.identifier]?.isRetimed == true, "a place alarm added elsewhere")
    }
}
