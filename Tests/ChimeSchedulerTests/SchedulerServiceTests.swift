import ChimeCore
import ChimeScheduler
import ChimeStore
import Testing

/// The running loop: sleeps on the injected clock, wakes for deadlines, store changes, user
/// answers and clock changes. Waits on the manual clock's sleepers, never on real time.
@Suite struct SchedulerServiceTests {
    @Test func sleepsUntilTheNextFiringAndWakesForAStoreChange() async throws {
        let h = try SchedulerHarness()
        try h.addEvent("First", start: at(2026, 11, 20, 13), alarms: [.relative(0)])
        let scheduler = AlarmScheduler(store: h.store, sink: h.sink, clock: h.clock, zone: h.zone)
        let service = SchedulerService(scheduler: scheduler, zone: { .utc })
        let running = Task { try await service.run() }
        defer { running.cancel() }

        await h.clock.waitForSleeper(after: 0)
        #expect(h.clock.pendingDeadlines == [utc(2026, 11, 20, 13)])

        // Another process (here: the same store object) adds an earlier alarm while it sleeps.
        var slept = h.clock.sleepCount
        try h.addEvent("Earlier", start: at(2026, 11, 20, 12, 30), alarms: [.relative(0)])
        while h.clock.pendingDeadlines != [utc(2026, 11, 20, 12, 30)] {
            await h.clock.waitForSleeper(after: slept)
            slept = h.clock.sleepCount
        }

        slept = h.clock.sleepCount
        h.clock.advance(to: utc(2026, 11, 20, 12, 30))
        await h.clock.waitForSleeper(after: slept)
        #expect(h.sink.titles == ["Earlier"])

        slept = h.clock.sleepCount
        h.clock.advance(to: utc(2026, 11, 20, 13))
        await h.clock.waitForSleeper(after: slept)
        #expect(h.sink.titles == ["Earlier", "First"])
        #expect(h.clock.pendingDeadlines == [nil])  // nothing left: sleeps without a deadline
    }

    @Test func aClockSetForwardWakesTheLoop() async throws {
        let h = try SchedulerHarness()
        try h.addEvent("Late", start: at(2026, 11, 20, 15), alarms: [.relative(0)])
        let scheduler = AlarmScheduler(store: h.store, sink: h.sink, clock: h.clock, zone: h.zone)
        let service = SchedulerService(scheduler: scheduler, zone: { .utc })
        let running = Task { try await service.run() }
        defer { running.cancel() }
        await h.clock.waitForSleeper(after: 0)
        let slept = h.clock.sleepCount
        h.clock.set(to: utc(2026, 11, 20, 16))
        await h.clock.waitForSleeper(after: slept)
        #expect(h.sink.titles == ["Late"])
    }

    @Test func aSnoozeAnswerArrivesThroughTheSink() async throws {
        let h = try SchedulerHarness()
        try h.addEvent("Tea", start: at(2026, 11, 20, 12, 5), alarms: [.relative(0)])
        let scheduler = AlarmScheduler(store: h.store, sink: h.sink, clock: h.clock, zone: h.zone)
        let service = SchedulerService(scheduler: scheduler, zone: { .utc })
        let running = Task { try await service.run() }
        defer { running.cancel() }
        await h.clock.waitForSleeper(after: 0)
        var slept = h.clock.sleepCount
        h.clock.advance(to: utc(2026, 11, 20, 12, 5))
        await h.clock.waitForSleeper(after: slept)
        slept = h.clock.sleepCount
        h.sink.answer(NotificationResponse(keys: h.sink.delivered[0].keys, kind: .snooze))
        await h.clock.waitForSleeper(after: slept)
        // The snooze is written into the item too: the service also wakes for that change, then
        // sleeps until the snooze again. Waits for that state (a few seconds at most).
        for _ in 0..<200 where h.clock.pendingDeadlines != [utc(2026, 11, 20, 12, 15)] { try await Task.sleep(for: .milliseconds(25)) }
        #expect(h.clock.pendingDeadlines == [utc(2026, 11, 20, 12, 15)])
    }
}
