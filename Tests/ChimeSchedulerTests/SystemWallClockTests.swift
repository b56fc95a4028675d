import ChimeCore
import ChimeScheduler
import Foundation
import Glibc
import Testing

/// The production clock against the real kernel: a timerfd on CLOCK_REALTIME fires at the
/// wall-clock deadline, a cancelled sleep ends at once, and setting the clock (what `date -s`
/// and a resume do) ends a sleep with `.clockChanged` (TFD_TIMER_CANCEL_ON_SET).
@Suite(.serialized) struct SystemWallClockTests {
    let clock = SystemWallClock(watchesTimeZone: false)

    @Test func wakesAtTheWallClockDeadline() async throws {
        let deadline = Instant(milliseconds: clock.nowMilliseconds()).adding(1)
        let reason = try await clock.sleep(until: deadline)
        let late = clock.nowMilliseconds() - deadline.milliseconds
        #expect(reason == .deadline)
        // Bounded loosely: the parallel test run keeps both cores busy, and the woken task waits
        // for a thread of the pool (0.5 s seen); a clock that polled would be late by its period.
        #expect(late >= 0 && late < 2_000, "woke \(late) ms after the deadline")
    }

    @Test func aCancelledSleepEndsAtOnce() async throws {
        let started = ContinuousClock.now
        let sleeper = Task { try await clock.sleep(until: Instant(milliseconds: clock.nowMilliseconds()).adding(3600)) }
        try await Task.sleep(for: .milliseconds(50))
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(ContinuousClock.now - started < .seconds(5))
    }

    /// Needs CAP_SYS_TIME (CI runs as root). The clock is set to its own current reading: a step
    /// of a few microseconds that the kernel still reports as a discontinuity.
    @Test(.enabled(if: getuid() == 0, "setting the clock needs root"))
    func settingTheClockEndsTheSleepWithClockChanged() async throws {
        let sleeper = Task { try await clock.sleep(until: Instant(milliseconds: clock.nowMilliseconds()).adding(3600)) }
        try await Task.sleep(for: .milliseconds(200))  // let the timer thread arm and block in poll
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        #expect(clock_settime(CLOCK_REALTIME, &now) == 0, "clock_settime: errno \(errno)")
        let reason = try await withThrowingTaskGroup(of: WakeReason?.self) { group in
            group.addTask { try await sleeper.value }
            group.addTask {
                try await Task.sleep(for: .seconds(10)); return nil
            }
            let first = try await group.next()!
            group.cancelAll()
            sleeper.cancel()
            return first
        }
        #expect(reason == .clockChanged)
    }
}
