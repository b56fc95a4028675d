import ChimeCore
import ChimeScheduler
import ChimeStore
import Testing

/// Alarms answered on another device or by another client (RFC 9074 `ACKNOWLEDGED`, Thunderbird's
/// `X-MOZ-LASTACK` and `X-MOZ-SNOOZE-TIME`), in virtual time: they do not ring, are not missed,
/// and leave this screen when the answer arrives.
@Suite struct AnsweredElsewhereTests {
    /// Answered elsewhere while this machine was off: nothing shown, nothing counted as missed.
    @Test func anAlarmAnsweredElsewhereIsNeitherShownNorMissed() throws {
        let h = try SchedulerHarness()
        var answered = Alarm.relative(-600)
        answered.icsExtras = ["ACTION:DISPLAY", "ACKNOWLEDGED:20261120T135200Z"]
        try h.addEvent("Answered on the phone", start: at(2026, 11, 20, 14), alarms: [answered])
        var thunderbird = try h.addEvent("Closed in Thunderbird", start: at(2026, 11, 20, 15), alarms: [.relative(-600), .relative(-300)])
        thunderbird.icsExtras = ["X-MOZ-LASTACK:20261120T145600Z"]
        _ = try h.store.save(thunderbird)
        try h.addEvent("Not answered", start: at(2026, 11, 20, 16), alarms: [.relative(-600)])
        try h.start()                                   // checkpoint 12:00
        h.clock.set(to: utc(2026, 11, 20, 18))          // off 12:00–18:00
        try h.start()
        #expect(h.sink.titles == ["Not answered"])
        try h.start()
        #expect(h.sink.titles == ["Not answered"])
        #expect(try h.store.ledgerEntries(state: .missed).isEmpty)
        // A day later, past the grace window of a new machine: still not missed.
        h.clock.set(to: utc(2026, 11, 22, 18))
        try h.start()
        #expect(try h.store.ledgerEntries(state: .missed).isEmpty)
    }

    /// Shown here, then answered on the laptop: the sync brings the answer, the notification goes,
    /// and a restart does not show it again. An answer for an earlier instance leaves later ones ringing.
    @Test func anAnswerArrivingBySyncTakesTheNotificationOffThisScreen() async throws {
        let h = try SchedulerHarness()
        var e = try h.addEvent("Standup", start: at(2026, 11, 20, 13), alarms: [.relative(0)], rule: "FREQ=DAILY;COUNT=3")
        try h.start()
        try h.advance(to: utc(2026, 11, 20, 13))
        #expect(h.sink.titles == ["Standup"])
        let key = h.sink.delivered[0].keys[0]
        let sequence = try h.store.currentChangeSequence()
        e.alarms[0].icsExtras = ["ACKNOWLEDGED:20261120T130100Z"]
        _ = try h.store.save(e)
        try h.scheduler.apply(try await h.pendingChanges(after: sequence))
        #expect(h.sink.withdrawn == [key])
        #expect(try h.store.ledgerEntries(for: [key])[key]?.state == .dismissed)
        try h.start()
        try h.advance(to: utc(2026, 11, 21, 13))
        #expect(h.sink.titles == ["Standup", "Standup"], "the next day's instance was not answered")
    }

    /// Thunderbird's snooze of one occurrence rings once, at its time, on this machine too.
    @Test func aThunderbirdSnoozeRingsAtItsTime() throws {
        let h = try SchedulerHarness()
        var e = try h.addEvent("Yoga", start: at(2026, 11, 20, 17), alarms: [.relative(-1800)], rule: "FREQ=WEEKLY")
        e.icsExtras = ["X-MOZ-LASTACK:20261120T163100Z", "X-MOZ-SNOOZE-TIME-\(utc(2026, 11, 20, 17).secondsSince1970 * 1_000_000):20261120T164100Z"]
        _ = try h.store.save(e)
        try h.start()
        try h.advance(to: utc(2026, 11, 20, 16, 40))
        #expect(h.sink.titles.isEmpty, "the 16:30 instance was answered in Thunderbird")
        try h.advance(to: utc(2026, 11, 20, 16, 41))
        #expect(h.sink.titles == ["Yoga"])
        try h.advance(to: utc(2026, 11, 27, 16, 30))
        #expect(h.sink.titles == ["Yoga", "Yoga"])
    }
}
