import ChimeCore

/// What a location provider reports: a position, or that it cannot give one (yet).
public enum LocationUpdate: Hashable, Sendable {
    case fix(LocationFix)
    /// No positions for now (GeoClue2 absent, refusing, or no source answering). The provider
    /// keeps trying by itself where that makes sense; the message is for the log, said once.
    case unavailable(String)
}

/// The port through which positions reach the geofence engine: GeoClue2 on a desktop
/// (`GeoClueProvider` in ChimeDesktop), a replayed track (``ReplayProvider``) or a fixed
/// point (``FixedProvider``).
///
/// ```swift
/// let provider: any LocationProvider = FixedProvider(Coordinate(latitude: 52.52, longitude: 13.405), clock: clock)
/// provider.request(TrackingRequest(accuracy: .exact, distanceThresholdMetres: 0, timeThresholdSeconds: 0, reason: "test"))
/// for await update in provider.updates { print(update) }
/// ```
public protocol LocationProvider: AnyObject, Sendable {
    /// `geoclue`, `replay:commute.gpx`, `fixed:52.52,13.405`.
    var name: String { get }
    /// Position reports in order. The sequence finishes when the provider has nothing more to
    /// say (a replay reached its end) or after ``shutdown()``. Iterated by one task only.
    var updates: AsyncStream<LocationUpdate> { get }
    /// Asks for this accuracy and these thresholds from now on; nil when no fence is armed
    /// (GeoClue2 then stops locating, so the desktop shows no location use).
    func request(_ tracking: TrackingRequest?)
    /// Stops and releases the source; `updates` finishes.
    func shutdown()
}
