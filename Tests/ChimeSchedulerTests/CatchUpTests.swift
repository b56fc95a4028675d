import ChimeCore
import ChimeScheduler
import ChimeStore
import Testing

/// Downtime, restarts, clock jumps and zone changes (the scheduler's catch-up rules).
@Suite struct CatchUpTests {
    @Test func firingsMissedWhileOffAreDeliveredOnceOnStart() throws {
        let h = try SchedulerHarness()
        try h.addEvent("A", start: at(2026, 11, 20, 14), alarms: [.relative(-600)])
        try h.addEvent("B", start: at(2026, 11, 20, 15), alarms: [.relative(-600)])
        try h.start()  // checkpoint 12:00
        h.clock.set(to: utc(2026, 11, 20, 18))  // the daemon was off 12:00–18:00
        try h.start()
        #expect(h.sink.titles == ["A", "B"])
        try h.start()  // a second restart shows nothing again
        #expect(h.sink.titles == ["A", "B"])
        #expect(try h.store.ledger.entries(state: .delivered).count == 2)
    }

    @Test func manyMissedFiringsBecomeOneSummary() throws {
        let h = try SchedulerHarness()
        for i in 0..<5 { try h.addEvent("Meeting \(i)", start: at(2026, 11, 20, 13 + i), alarms: [.relative(0)]) }
        try h.start()
        h.clock.set(to: utc(2026, 11, 21, 9))
        try h.start()
        #expect(h.sink.titles == ["You missed 5 alarms"])
        let summary = h.sink.delivered[0]
        #expect(summary.keys.count == 5)
        #expect(summary.body.hasPrefix("Fri 2026-11-20 13:00  Meeting 0\n"))
        #expect(summary.category == "x-chime.missed")
    }

    @Test func firingsOlderThanTheGraceWindowAreRecordedAsMissed() throws {
        let h = try SchedulerHarness()
        try h.addEvent("Old", start: at(2026, 11, 20, 14), alarms: [.relative(0)])
        try h.addEvent("Recent", start: at(2026, 11, 22, 10), alarms: [.relative(0)])
        try h.start()
        h.clock.set(to: utc(2026, 11, 22, 20))  // 54 h later; grace 24 h
        try h.start()
        #expect(h.sink.titles == ["Recent"])
        let missed = try h.store.ledger.entries(state: .missed)
        #expect(missed.map(\.title) == ["Old"])
    }

    @Test func aShorterGraceWindowFromSettingsApplies() throws {
        let h = try SchedulerHarness()
        h.settings.graceSeconds = 3600
        try h.addEvent("Two hours ago", start: at(2026, 11, 20, 14), alarms: [.relative(0)])
        try h.start()
        h.clock.set(to: utc(2026, 11, 20, 16))
        try h.start()
        #expect(h.sink.titles.isEmpty)
        #expect(try h.store.ledger.entries(state: .missed).count == 1)
    }

    @Test func wallClockSetBackwardsNeverRefires() throws {
        let h = try SchedulerHarness()
        try h.addEvent("Once", start: at(2026, 11, 20, 14), alarms: [.relative(0)])
        try h.start()
        try h.advance(to: utc(2026, 11, 20, 14))
        #expect(h.sink.titles == ["Once"])
        h.clock.set(to: utc(2026, 11, 20, 13))  // date -s an hour back
        try h.scheduler.clockChanged(zone: h.zone)
        try h.advance(to: utc(2026, 11, 20, 15))
        #expect(h.sink.titles == ["Once"])
        try h.start()  // nor after a restart
        #expect(h.sink.titles == ["Once"])
    }

    @Test func wallClockSetForwardCatchesUp() throws {
        let h = try SchedulerHarness()
        try h.addEvent("Lunch", start: at(2026, 11, 20, 13), alarms: [.relative(0)])
        try h.start()
        h.clock.set(to: utc(2026, 11, 20, 13, 30))  // resume from suspend / date -s forward
        try h.scheduler.clockChanged(zone: h.zone)
        #expect(h.sink.titles == ["Lunch"])
        let late = h.sink.deliveryTimes[0] - utc(2026, 11, 20, 13).milliseconds
        #expect(late == 30 * 60 * 1000)
    }

    @Test func timeZoneChangeMovesFloatingAlarms() throws {
        let berlin = try ZoneRules.named("Europe/Berlin"), newYork = try ZoneRules.named("America/New_York")
        let h = try SchedulerHarness(zone: berlin)
        try h.addEvent("Gym", start: .floating(LocalDateTime(year: 2026, month: 11, day: 21, hour: 9)), alarms: [.relative(0)])
        try h.addEvent("Call", start: at(2026, 11, 21, 15), alarms: [.relative(0)])  // fixed instant
        try h.start()
        #expect(h.scheduler.nextDeadline() == utc(2026, 11, 21, 8))  // 09:00 Berlin
        try h.scheduler.clockChanged(zone: newYork)
        #expect(h.scheduler.nextDeadline() == utc(2026, 11, 21, 14))  // 09:00 New York
        try h.advance(to: utc(2026, 11, 21, 14))
        try h.advance(to: utc(2026, 11, 21, 15))
        #expect(h.sink.titles == ["Gym", "Call"])
    }

    @Test func aChangeRecomputesOnlyThatItemAndNeverFiresPastAlarms() async throws {
        let h = try SchedulerHarness()
        let sequence = try h.store.currentChangeSequence()
        try h.start()
        // Created at 12:00 for 12:10 with a 15-minute alarm: 11:55 is already past; nothing fires.
        var e = try h.addEvent("Soon", start: at(2026, 11, 20, 12, 10), alarms: [.relative(-900)])
        try h.scheduler.apply(try await h.pendingChanges(after: sequence))
        #expect(h.sink.titles.isEmpty)
        #expect(h.scheduler.nextDeadline() == nil)
        // Moved to 14:00: the alarm is now 13:45.
        let before = try h.store.currentChangeSequence()
        e.start = at(2026, 11, 20, 14)
        e.end = at(2026, 11, 20, 15)
        try h.store.save(e)
        try h.scheduler.apply(try await h.pendingChanges(after: before))
        #expect(h.scheduler.nextDeadline() == utc(2026, 11, 20, 13, 45))
    }
}
