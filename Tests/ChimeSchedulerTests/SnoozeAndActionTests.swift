import ChimeCore
import ChimeScheduler
import ChimeStore
import Testing

/// The user's answers: snooze, complete, dismiss (the scheduler's snooze and delivery rules).
@Suite struct SnoozeAndActionTests {
    @Test func snoozeShowsTheNotificationAgainAfterTheSnoozeTime() throws {
        let h = try SchedulerHarness()
        try h.addEvent("Call mum", start: at(2026, 11, 20, 13), alarms: [.relative(0)])
        try h.start()
        try h.advance(to: utc(2026, 11, 20, 13))
        let key = h.sink.delivered[0].keys[0]
        try h.scheduler.respond(NotificationResponse(keys: [key], kind: .snooze))
        #expect(h.scheduler.nextDeadline() == utc(2026, 11, 20, 13, 10))
        try h.advance(to: utc(2026, 11, 20, 13, 9, 59))
        #expect(h.sink.titles.count == 1)
        try h.advance(to: utc(2026, 11, 20, 13, 10))
        #expect(h.sink.titles == ["Call mum", "Call mum"])
        // Shown again as the snooze alarm written into the item (what other devices ring too).
        let again = h.sink.delivered[1].keys[0]
        #expect(again != key)
        #expect(try h.store.ledger.entries(for: [key])[key]?.state == .dismissed)
        let entry = try #require(try h.store.ledger.entries(for: [again])[again])
        #expect(entry.state == .delivered)
        #expect(entry.deliveries == 2)
    }

    @Test func aSnoozeSurvivesARestart() throws {
        let h = try SchedulerHarness()
        h.settings.snoozeChoices = [.minutes(5)]
        try h.addReminder("Stretch", due: at(2026, 11, 20, 13), alarms: [.relative(0)])
        try h.start()
        try h.advance(to: utc(2026, 11, 20, 13))
        try h.scheduler.respond(NotificationResponse(keys: h.sink.delivered[0].keys, kind: .snooze))
        try h.start()  // daemon restarted while snoozed
        #expect(h.scheduler.nextDeadline() == utc(2026, 11, 20, 13, 5))
        try h.advance(to: utc(2026, 11, 20, 13, 5))
        #expect(h.sink.titles == ["Stretch", "Stretch"])
        #expect(h.sink.delivered[1].actions == [.default, .complete, .snooze(.minutes(5))])
        #expect(h.sink.delivered[1].label(for: .snooze(.minutes(5))) == "Snooze 5 min")
    }

    @Test func completeFromANotificationCompletesAndAdvancesTheReminder() async throws {
        let h = try SchedulerHarness()
        let r = try h.addReminder("Take pills", due: at(2026, 11, 20, 13), alarms: [.relative(0)], rule: "FREQ=DAILY;COUNT=3")
        try h.start()
        try h.advance(to: utc(2026, 11, 20, 13))
        let sequence = try h.store.currentChangeSequence()
        try h.scheduler.respond(NotificationResponse(keys: h.sink.delivered[0].keys, kind: .complete))
        let series = try #require(try h.store.reminder(withIdentifier: r.identifier))
        #expect(series.dueDate == at(2026, 11, 21, 13))  // advanced to the next instance
        #expect(series.isCompleted == false)
        let completed = try h.store.reminders(matching: h.store.predicateForCompletedReminders(completionStart: nil, completionEnd: nil, calendars: nil))
        #expect(completed.map(\.title) == ["Take pills"])
        try h.scheduler.apply(try await h.pendingChanges(after: sequence))
        #expect(h.scheduler.nextDeadline() == utc(2026, 11, 21, 13))
        try h.advance(to: utc(2026, 11, 21, 13))
        #expect(h.sink.titles == ["Take pills", "Take pills"])
    }

    @Test func closingTheNotificationRecordsDismissed() throws {
        let h = try SchedulerHarness()
        try h.addEvent("Review", start: at(2026, 11, 20, 13), alarms: [.relative(0)])
        try h.start()
        try h.advance(to: utc(2026, 11, 20, 13))
        let key = h.sink.delivered[0].keys[0]
        try h.scheduler.respond(NotificationResponse(keys: [key], kind: .dismissed))
        #expect(try h.store.ledger.entries(for: [key])[key]?.state == .dismissed)
        // A dismissed firing cannot be snoozed any more.
        try h.scheduler.respond(NotificationResponse(keys: [key], kind: .snooze))
        #expect(h.scheduler.nextDeadline() == nil)
    }

    // MARK: Alarms that are over

    /// Snoozed, then completed elsewhere (the CLI, another machine's sync): the snooze does not
    /// ring, the ledger says it is over, and it stays over after a restart.
    @Test func aSnoozedReminderCompletedElsewhereDoesNotRingAgain() async throws {
        let h = try SchedulerHarness()
        h.settings.snoozeChoices = [.minutes(1)]
        var r = try h.addReminder("Call the bank", due: at(2026, 11, 20, 13), alarms: [.relative(0)])
        try h.start()
        try h.advance(to: utc(2026, 11, 20, 13))
        let key = h.sink.delivered[0].keys[0]
        try h.scheduler.respond(NotificationResponse(keys: [key], kind: .snooze))
        let snoozed = try #require(try h.store.ledger.entries(state: .snoozed).first).key
        let sequence = try h.store.currentChangeSequence()
        r = try #require(try h.store.reminder(withIdentifier: r.identifier))
        r.isCompleted = true
        _ = try h.store.save(r)
        try h.scheduler.apply(try await h.pendingChanges(after: sequence))
        #expect(h.sink.withdrawn == [snoozed])
        #expect(try h.store.ledger.entries(for: [snoozed])[snoozed]?.state == .dismissed)
        try h.advance(to: utc(2026, 11, 20, 13, 5))
        #expect(h.sink.titles == ["Call the bank"])
        try h.start()
        try h.advance(to: utc(2026, 11, 20, 13, 10))
        #expect(h.sink.titles == ["Call the bank"])
    }

    /// Removed or moved: the notification on screen goes. A new title leaves it.
    @Test func anOnScreenAlarmLeavesWhenItsEventIsMovedOrRemovedNotWhenRenamed() async throws {
        let h = try SchedulerHarness()
        var moved = try h.addEvent("Standup", start: at(2026, 11, 20, 13), alarms: [.relative(0)])
        let removed = try h.addEvent("Lunch", start: at(2026, 11, 20, 13), alarms: [.relative(0)])
        var renamed = try h.addEvent("Review", start: at(2026, 11, 20, 13), alarms: [.relative(0)])
        try h.start()
        try h.advance(to: utc(2026, 11, 20, 13))
        #expect(h.sink.titles.sorted() == ["Lunch", "Review", "Standup"])
        func key(_ title: String) -> FiringKey { h.sink.delivered.first { $0.summary == title }!.keys[0] }
        var sequence = try h.store.currentChangeSequence()
        renamed.title = "Design review"
        _ = try h.store.save(renamed)
        try h.scheduler.apply(try await h.pendingChanges(after: sequence))
        #expect(h.sink.withdrawn.isEmpty)
        sequence = try h.store.currentChangeSequence()
        moved.start = at(2026, 11, 20, 15)
        moved.end = at(2026, 11, 20, 16)
        _ = try h.store.save(moved)
        try h.store.remove(removed)
        try h.scheduler.apply(try await h.pendingChanges(after: sequence))
        #expect(Set(h.sink.withdrawn) == [key("Standup"), key("Lunch")])
        #expect(try h.store.ledger.entries(for: [key("Review")])[key("Review")]?.state == .delivered)
        // The moved event rings at its new time.
        try h.advance(to: utc(2026, 11, 20, 15))
        #expect(h.sink.titles.filter { $0 == "Standup" }.count == 2)
    }

    /// Completed while no daemon ran: the snooze restored at start is over, not shown.
    @Test func aSnoozeWhoseReminderWasCompletedWhileStoppedIsNotRestored() throws {
        let h = try SchedulerHarness()
        h.settings.snoozeChoices = [.minutes(5)]
        var r = try h.addReminder("Stretch", due: at(2026, 11, 20, 13), alarms: [.relative(0)])
        try h.start()
        try h.advance(to: utc(2026, 11, 20, 13))
        try h.scheduler.respond(NotificationResponse(keys: h.sink.delivered[0].keys, kind: .snooze))
        r = try #require(try h.store.reminder(withIdentifier: r.identifier))
        r.isCompleted = true
        _ = try h.store.save(r)
        try h.start()
        try h.advance(to: utc(2026, 11, 20, 13, 10))
        #expect(h.sink.titles == ["Stretch"])
    }

    // MARK: Snooze choices

    @Test func theDefaultChoicesAreTenMinutesAndAnHourOneButtonEach() throws {
        let h = try SchedulerHarness()
        try h.addReminder("Stretch", due: at(2026, 11, 20, 13), alarms: [.relative(0)])
        try h.start()
        try h.advance(to: utc(2026, 11, 20, 13))
        let note = h.sink.delivered[0]
        #expect(note.actions.map(\.key) == ["default", "complete", "snooze:10m", "snooze:1h"])
        #expect(note.actions.map { note.label(for: $0) } == ["Show", "Complete", "Snooze 10 min", "Snooze 1 h"])
    }

    @Test func eachChoiceSnoozesForItsOwnLength() throws {
        let h = try SchedulerHarness()
        h.settings.snoozeChoices = try ["5m", "15m", "1h"].map { try SnoozeChoice(parsing: $0) }
        try h.addEvent("Call mum", start: at(2026, 11, 20, 13), alarms: [.relative(0)])
        try h.start()
        try h.advance(to: utc(2026, 11, 20, 13))
        let key = h.sink.delivered[0].keys[0]
        try h.scheduler.respond(NotificationResponse(keys: [key], kind: .snooze, snooze: try SnoozeChoice(parsing: "1h")))
        #expect(h.scheduler.nextDeadline() == utc(2026, 11, 20, 14))
        #expect(try h.store.ledger.entries(state: .snoozed).map(\.snoozedUntil) == [utc(2026, 11, 20, 14)])
        try h.advance(to: utc(2026, 11, 20, 13, 59, 59))
        #expect(h.sink.titles.count == 1)
        try h.advance(to: utc(2026, 11, 20, 14))
        #expect(h.sink.titles == ["Call mum", "Call mum"])
        // Shown again with the same buttons; this time 15 minutes.
        #expect(h.sink.delivered[1].actions.map(\.key) == ["default", "snooze:5m", "snooze:15m", "snooze:1h"])
        try h.scheduler.respond(NotificationResponse(keys: h.sink.delivered[1].keys, kind: .snooze, snooze: try SnoozeChoice(parsing: "15m")))
        #expect(h.scheduler.nextDeadline() == utc(2026, 11, 20, 14, 15))
    }

    /// A snooze that names no choice (an older client) uses the first one.
    @Test func aSnoozeWithoutAChoiceUsesTheFirst() throws {
        let h = try SchedulerHarness()
        h.settings.snoozeChoices = try ["15m", "1h"].map { try SnoozeChoice(parsing: $0) }
        try h.addEvent("Call mum", start: at(2026, 11, 20, 13), alarms: [.relative(0)])
        try h.start()
        try h.advance(to: utc(2026, 11, 20, 13))
        try h.scheduler.respond(NotificationResponse(keys: h.sink.delivered[0].keys, kind: .snooze))
        #expect(h.scheduler.nextDeadline() == utc(2026, 11, 20, 13, 15))
    }

    /// `tomorrow 9:00` is 09:00 on the local wall clock of the scheduler's zone, the next day:
    /// here the night of the autumn change in Berlin (CEST until 03:00 on 25 October), so 9:00 CET
    /// is 08:00Z, 25 hours after 08:00 CEST the day before.
    @Test func tomorrowNineIsTheWallClockInTheSchedulersZone() throws {
        let berlin = try ZoneRules.named("Europe/Berlin")
        let h = try SchedulerHarness(zone: berlin, now: utc(2026, 10, 24, 6))  // 08:00 CEST
        h.settings.snoozeChoices = try ["10m", "tomorrow 9:00"].map { try SnoozeChoice(parsing: $0) }
        try h.addEvent("Water plants", start: at(2026, 10, 24, 7), alarms: [.relative(0)])
        try h.start()
        try h.advance(to: utc(2026, 10, 24, 7))  // 09:00 CEST
        let note = h.sink.delivered[0]
        #expect(note.label(for: note.actions.last!) == "Snooze until tomorrow 9:00")
        let key = note.keys[0]
        try h.scheduler.respond(NotificationResponse(keys: [key], kind: .snooze, snooze: try SnoozeChoice(parsing: "tomorrow 9:00")))
        #expect(h.scheduler.nextDeadline() == utc(2026, 10, 25, 8))  // 09:00 CET
        try h.advance(to: utc(2026, 10, 25, 7, 59, 59))
        #expect(h.sink.titles.count == 1)
        try h.advance(to: utc(2026, 10, 25, 8))
        #expect(h.sink.titles == ["Water plants", "Water plants"])
    }

    /// A wall-clock choice already past when chosen ("today 9:00" at 10:00) comes back in a minute.
    @Test func aWallClockChoiceAlreadyPastSnoozesForAMinute() throws {
        let h = try SchedulerHarness()
        try h.addEvent("Call mum", start: at(2026, 11, 20, 13), alarms: [.relative(0)])
        try h.start()
        try h.advance(to: utc(2026, 11, 20, 13))
        try h.scheduler.respond(
            NotificationResponse(
                keys: h.sink.delivered[0].keys, kind: .snooze,
                snooze: try SnoozeChoice(parsing: "today 9:00")))
        #expect(h.scheduler.nextDeadline() == utc(2026, 11, 20, 13, 1))
    }

    @Test func choicesParseAndRoundTripThroughTheirActionKeys() throws {
        for text in ["5m", "15m", "1h", "1h30m", "2d", "tomorrow 9:00", "Mon 8:30", " today 17:00 "] {
            let choice = try SnoozeChoice(parsing: text)
            #expect(AlarmNotification.Action(key: choice.actionKey) == .snooze(choice), "\(text)")
        }
        #expect(try SnoozeChoice(parsing: "90m").label == "Snooze 1 h 30 min")
        #expect(AlarmNotification.Action(key: "snooze") == nil)
        #expect(AlarmNotification.Action(key: "snooze:file:///x") == nil)
        for bad in ["", "0m", "-5m", "8d", "5x", "tomorrow", "2026-12-01 09:00", "now", "+1h-"] {
            #expect(throws: SnoozeChoiceError.self, "\(bad)") { try SnoozeChoice(parsing: bad) }
        }
    }
}
