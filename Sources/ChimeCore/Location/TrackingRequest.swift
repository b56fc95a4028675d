/// How precisely and how often the geofence engine wants positions. GeoClue2 maps these to its
/// accuracy levels and distance/time thresholds; replayed and fixed providers ignore them.
///
/// ```swift
/// let far = TrackingRequest(accuracy: .city, distanceThresholdMetres: 1_000, timeThresholdSeconds: 300,
///                           reason: "nearest fence boundary 23.4 km away")
/// ```
public struct TrackingRequest: Hashable, Sendable, CustomStringConvertible {
    /// GeoClue2's accuracy levels (the raw values are GeoClue's).
    public enum Accuracy: Int, Hashable, Sendable, Comparable, CaseIterable, CustomStringConvertible {
        case country = 1, city = 4, neighborhood = 5, street = 6, exact = 8

        public static func < (a: Accuracy, b: Accuracy) -> Bool { a.rawValue < b.rawValue }
        public var description: String {
            switch self {
            case .country: return "country"
            case .city: return "city"
            case .neighborhood: return "neighborhood"
            case .street: return "street"
            case .exact: return "exact"
            }
        }
    }

    public var accuracy: Accuracy
    /// Report a new position only after moving this far (0: every position).
    public var distanceThresholdMetres: Int
    /// Report a new position at most this often (0: as often as it comes).
    public var timeThresholdSeconds: Int
    /// Why this level was chosen, for the debug log.
    public var reason: String

    public init(accuracy: Accuracy, distanceThresholdMetres: Int, timeThresholdSeconds: Int, reason: String) {
        self.accuracy = accuracy
        self.distanceThresholdMetres = distanceThresholdMetres
        self.timeThresholdSeconds = timeThresholdSeconds
        self.reason = reason
    }

    /// Two requests that ask the same of the provider (the reason may differ).
    public func asksSame(as other: TrackingRequest) -> Bool {
        accuracy == other.accuracy && distanceThresholdMetres == other.distanceThresholdMetres
            && timeThresholdSeconds == other.timeThresholdSeconds
    }

    public var description: String {
        "\(accuracy) accuracy, every \(distanceThresholdMetres) m / \(timeThresholdSeconds) s (\(reason))"
    }
}
