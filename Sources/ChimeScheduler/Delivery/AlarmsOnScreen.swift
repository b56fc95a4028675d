import ChimeCore
import Synchronization

/// Whether any of this daemon's alarm notifications is on screen or snoozed, for the services
/// beside the scheduler: the sync service syncs more often while one is, so that an answer given
/// on another device takes it off this screen within seconds, not at the next 5-minute pass.
/// It counts for ``freshSeconds`` after the last change of the notifications: one nobody answers
/// (a notification server that expires it without a word, a snooze until tomorrow, the stdout
/// notifier) does not keep the quick passes going all day.
///
/// ```swift
/// for await showing in scheduler.onScreen.changes() where showing { syncSoon() }
/// ```
public final class AlarmsOnScreen: Sendable {
    /// How long after the last change the notifications count as on screen.
    public static let freshSeconds: Double = 600

    private struct State {
        var showing = false
        var nextAlarm: Instant?
        var changed = ContinuousClock.now
        var watchers: [Int: AsyncStream<Bool>.Continuation] = [:]
        var next = 0
    }
    private let state = Mutex(State())

    public init() {}

    public var isShowing: Bool {
        state.withLock { $0.showing && ContinuousClock.now - $0.changed < .seconds(Self.freshSeconds) }
    }

    /// Each change of ``isShowing`` from now on.
    public func changes() -> AsyncStream<Bool> {
        let (stream, continuation) = AsyncStream<Bool>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let id = state.withLock { s in
            s.next += 1
            s.watchers[s.next] = continuation
            return s.next
        }
        continuation.onTermination = { [weak self] _ in _ = self?.state.withLock { $0.watchers.removeValue(forKey: id) } }
        return stream
    }

    /// When the scheduler next rings (its next deadline; nil: nothing timed is pending), for the
    /// sync pass the sync service makes just before it.
    public var nextAlarm: Instant? { state.withLock { $0.nextAlarm } }

    /// Set by the scheduler each time it plans its next wake (and by tests standing in for it).
    public func setNextAlarm(_ instant: Instant?) { state.withLock { $0.nextAlarm = instant } }

    /// Set by the scheduler whenever its notifications change (and by tests standing in for it).
    public func set(_ showing: Bool) {
        let watchers: [AsyncStream<Bool>.Continuation] = state.withLock { s in
            s.changed = ContinuousClock.now
            guard s.showing != showing else { return [] }
            s.showing = showing
            return Array(s.watchers.values)
        }
        for watcher in watchers { watcher.yield(showing) }
    }
}
