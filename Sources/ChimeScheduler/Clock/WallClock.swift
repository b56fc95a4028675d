import ChimeCore

/// Why a wall-clock sleep ended.
public enum WakeReason: Hashable, Sendable {
    /// The deadline was reached.
    case deadline
    /// The wall clock was set (`date -s`, NTP step), the machine resumed from suspend, or the
    /// system time zone changed: every wall-clock deadline must be recomputed.
    case clockChanged
}

/// The scheduler's source of time: a reading of the wall clock and a sleep until a wall-clock
/// instant. Production uses ``SystemWallClock`` (timerfd on CLOCK_REALTIME); tests use
/// ``ManualWallClock`` and move virtual time.
///
/// ```swift
/// let clock: any WallClock = SystemWallClock()
/// let reason = try await clock.sleep(until: clock.now().adding(60))
/// ```
public protocol WallClock: Sendable {
    /// Milliseconds since 1970-01-01T00:00:00Z.
    func nowMilliseconds() -> Int64
    /// Suspends until the wall clock reaches `deadline` (with nil: until the clock changes), or
    /// returns `.clockChanged` early. Throws `CancellationError` when the task is cancelled.
    func sleep(until deadline: Instant?) async throws -> WakeReason
}

extension WallClock {
    /// The current instant, in whole seconds (rounded down).
    public func now() -> Instant { Instant(milliseconds: nowMilliseconds()) }
}

extension Instant {
    /// The whole second containing this millisecond reading.
    public init(milliseconds: Int64) {
        self.init(secondsSince1970: milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000)
    }

    public var milliseconds: Int64 { secondsSince1970 * 1000 }
}
