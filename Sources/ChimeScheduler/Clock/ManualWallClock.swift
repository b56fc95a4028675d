import ChimeCore
import Synchronization

/// A wall clock that moves only when told to, for tests in virtual time.
///
/// It reports who is waiting on it, so a test can wait until the code under test has gone to
/// sleep instead of guessing with `Task.yield()` (which is flaky on a loaded machine).
///
/// ```swift
/// let clock = ManualWallClock(now: Instant(secondsSince1970: 1_796_000_000))
/// let slept = clock.sleepCount
/// clock.advance(by: 60)                      // wakes sleepers whose deadline has come
/// await clock.waitForSleeper(after: slept)   // the scheduler has processed and sleeps again
/// ```
public final class ManualWallClock: WallClock {
    private struct Sleeper {
        let deadline: Instant?
        let continuation: CheckedContinuation<WakeReason, any Error>
    }

    private struct State {
        var nowMilliseconds: Int64
        var sleepers: [Int: Sleeper] = [:]
        var nextID = 0
        /// How many sleeps have started so far.
        var sleepCount = 0
        var watchers: [(after: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state: Mutex<State>

    public init(now: Instant) {
        state = Mutex(State(nowMilliseconds: now.milliseconds))
    }

    public func nowMilliseconds() -> Int64 { state.withLock { $0.nowMilliseconds } }

    /// Sleeps started so far; pass to ``waitForSleeper(after:)``.
    public var sleepCount: Int { state.withLock { $0.sleepCount } }

    /// The deadlines of the sleeps in progress (nil = until the clock changes).
    public var pendingDeadlines: [Instant?] { state.withLock { $0.sleepers.values.map(\.deadline) } }

    public func sleep(until deadline: Instant?) async throws -> WakeReason {
        let id = state.withLock { s -> Int in
            defer { s.nextID += 1 }; return s.nextID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let (immediate, watchers) = state.withLock { s -> (Bool, [CheckedContinuation<Void, Never>]) in
                    s.sleepCount += 1
                    if Task.isCancelled { return (false, []) }
                    if let deadline, deadline.milliseconds <= s.nowMilliseconds { return (true, []) }
                    s.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    let count = s.sleepCount
                    let ready = s.watchers.filter { $0.after < count }.map(\.continuation)
                    s.watchers.removeAll { $0.after < count }
                    return (false, ready)
                }
                if Task.isCancelled, !immediate {
                    continuation.resume(throwing: CancellationError())
                    return
                }
                if immediate { continuation.resume(returning: .deadline) }
                for w in watchers { w.resume() }
            }
        } onCancel: {
            let sleeper = state.withLock { $0.sleepers.removeValue(forKey: id) }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves time forward and wakes the sleepers whose deadline has come.
    public func advance(by seconds: Int64) {
        advance(toMilliseconds: nowMilliseconds() + seconds * 1000)
    }

    /// Moves time to `instant` (forward only) and wakes the sleepers whose deadline has come.
    public func advance(to instant: Instant) {
        advance(toMilliseconds: instant.milliseconds)
    }

    public func advance(toMilliseconds ms: Int64) {
        let woken = state.withLock { s -> [Sleeper] in
            precondition(ms >= s.nowMilliseconds, "advance moves forward; use set(to:) for a clock jump")
            s.nowMilliseconds = ms
            let due = s.sleepers.filter { $0.value.deadline.map { $0.milliseconds <= ms } ?? false }
            for id in due.keys { s.sleepers[id] = nil }
            return Array(due.values)
        }
        for sleeper in woken { sleeper.continuation.resume(returning: .deadline) }
    }

    /// Sets the clock to any instant, as `date -s` does (or a resume from suspend): every sleeper
    /// wakes with `.clockChanged`.
    public func set(to instant: Instant) { set(toMilliseconds: instant.milliseconds) }

    public func set(toMilliseconds ms: Int64) {
        let woken = state.withLock { s -> [Sleeper] in
            s.nowMilliseconds = ms
            defer { s.sleepers.removeAll() }
            return Array(s.sleepers.values)
        }
        for sleeper in woken { sleeper.continuation.resume(returning: .clockChanged) }
    }

    /// Wakes every sleeper with `.clockChanged` without moving time (a time-zone change).
    public func announceChange() { set(toMilliseconds: nowMilliseconds()) }

    /// Returns once a sleep that started after the first `count` sleeps is in progress.
    public func waitForSleeper(after count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { s -> Bool in
                if s.sleepCount > count && !s.sleepers.isEmpty { return true }
                s.watchers.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }
}
