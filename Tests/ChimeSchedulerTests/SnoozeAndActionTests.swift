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
        let entry = try #require(try h.store.ledgerEntries(for: [key])[key])
        #expect(entry.state == .delivered)
        #expect(entry.deliveries == 2)
    }

    @Test func aSnoozeSurvivesARestart() throws {
        let h = try SchedulerHarness()
        h.settings.snoozeSeconds = 300
        try h.addReminder("Stretch", due: at(2026, 11, 20, 13), alarms: [.relative(0)])
        try h.start()
        try h.advance(to: utc(2026, 11, 20, 13))
        try h.scheduler.respond(NotificationResponse(keys: h.sink.delivered[0].keys, kind: .snooze))
        try h.start()                                       // daemon restarted while snoozed
        #expect(h.scheduler.nextDeadline() == utc(2026, 11, 20, 13, 5))
        try h.advance(to: utc(2026, 11, 20, 13, 5))
        #expect(h.sink.titles == ["Stretch", "Stretch"])
        #expect(h.sink.delivered[1].snoozeLabel == "Snooze 5 min")
    }

    @Test func completeFromANotificationCompletesAndAdvancesTheReminder() async throws {
        let h = try SchedulerHarness()
        let r = try h.addReminder("Take pills", due: at(2026, 11, 20, 13), alarms: [.relative(0)], rule: "FREQ=DAILY;COUNT=3")
        try h.start()
        try h.advance(to: utc(2026, 11, 20, 13))
        let sequence = try h.store.currentChangeSequence()
        try h.scheduler.respond(NotificationResponse(keys: h.sink.delivered[0].keys, kind: .complete))
        let series = try #require(try h.store.reminder(withIdentifier: r.identifier))
        #expect(series.dueDate == at(2026, 11, 21, 13))     // advanced to the next instance
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
        #expect(try h.store.ledgerEntries(for: [key])[key]?.state == .dismissed)
        // A dismissed firing cannot be snoozed any more.
        try h.scheduler.respond(NotificationResponse(keys: [key], kind: .snooze))
        #expect(h.scheduler.nextDeadline() == nil)
    }
}
