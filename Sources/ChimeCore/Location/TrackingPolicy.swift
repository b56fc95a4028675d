/// Adaptive tracking: how precisely to ask for positions, from the distance to the nearest
/// fence boundary. Far from every fence a coarse, rarely updated position is enough (and
/// cheaper: GeoClue can use Wi-Fi or GeoIP instead of waking a GPS); near a boundary the
/// engine asks for the exact position on every move.
///
/// ```swift
/// let request = TrackingPolicy.request(nearestBoundary: 4_200, fenceCount: 3, adaptive: true)
/// // street accuracy, every 100 m / 60 s (nearest fence boundary 4.2 km away)
/// ```
public enum TrackingPolicy {
    /// Within this distance of a boundary: exact positions, every move.
    public static let nearMetres = 1_000.0
    /// Within this distance: street-level positions every 100 m or minute. Beyond: city level.
    public static let midMetres = 10_000.0

    /// nil when no fence is armed (stop locating).
    public static func request(nearestBoundary: Double?, fenceCount: Int, adaptive: Bool) -> TrackingRequest? {
        guard fenceCount > 0 else { return nil }
        guard adaptive else {
            return TrackingRequest(
                accuracy: .exact, distanceThresholdMetres: 0, timeThresholdSeconds: 0,
                reason: "adaptive tracking is off")
        }
        guard let d = nearestBoundary, d <= midMetres else {
            return TrackingRequest(
                accuracy: .city, distanceThresholdMetres: 1_000, timeThresholdSeconds: 300,
                reason: "no fence boundary within \(distanceText(midMetres))")
        }
        let reason = "nearest fence boundary \(distanceText(d)) away"
        if d <= nearMetres {
            return TrackingRequest(accuracy: .exact, distanceThresholdMetres: 0, timeThresholdSeconds: 0, reason: reason)
        }
        return TrackingRequest(accuracy: .street, distanceThresholdMetres: 100, timeThresholdSeconds: 60, reason: reason)
    }

    /// `850 m`, `4.2 km`.
    public static func distanceText(_ metres: Double) -> String {
        if metres < 1_000 { return "\(Int(metres.rounded())) m" }
        let tenths = Int((metres / 100).rounded())
        return "\(tenths / 10).\(tenths % 10) km"
    }
}
