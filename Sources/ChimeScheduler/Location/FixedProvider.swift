import ChimeCore
import Synchronization

/// A provider that is always at one place (`--location fixed:52.52,13.405`): for demos, for
/// tests of "arrive" fences, and for desktops without GeoClue2 that never move.
///
/// Each time positions are asked for again (a non-nil ``request(_:)`` after a nil one, the
/// first request included) it reports one fix, stamped with the clock's current time, the way
/// GeoClue2 reports a fresh position when it starts. Changed thresholds while already asked
/// for bring nothing new: the place has not moved. ``updates`` finishes only at ``shutdown()``.
///
/// ```swift
/// let home = FixedProvider(Coordinate(latitude: 52.5308, longitude: 13.3847), accuracy: 20, clock: clock)
/// home.request(TrackingRequest(accuracy: .exact, distanceThresholdMetres: 0, timeThresholdSeconds: 0, reason: "fence"))
/// // updates: .fix(52.53080,13.38470 ±20 m @ now)
/// ```
public final class FixedProvider: LocationProvider {
    public let name: String
    public let updates: AsyncStream<LocationUpdate>
    public let coordinate: Coordinate
    /// Metres, ≥ 0.
    public let accuracy: Double

    private let clock: any WallClock
    private let continuation: AsyncStream<LocationUpdate>.Continuation
    private struct State {
        var requested = false
        var stopped = false
    }
    private let state = Mutex(State())

    /// `name` defaults to the source spelling, `fixed:52.52000,13.40500`.
    public init(_ coordinate: Coordinate, accuracy: Double = 0, name: String? = nil, clock: any WallClock) {
        self.coordinate = coordinate
        self.accuracy = accuracy
        self.clock = clock
        self.name = name ?? LocationSource.fixed(coordinate, accuracy: accuracy).description
        (updates, continuation) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
    }

    public func request(_ tracking: TrackingRequest?) {
        let report = state.withLock { s -> Bool in
            guard !s.stopped else { return false }
            defer { s.requested = tracking != nil }
            return tracking != nil && !s.requested
        }
        guard report else { return }
        continuation.yield(
            .fix(
                LocationFix(
                    coordinate: coordinate, horizontalAccuracy: accuracy,
                    timestampMilliseconds: clock.nowMilliseconds())))
    }

    public func shutdown() {
        state.withLock { $0.stopped = true }
        continuation.finish()
    }
}
