/// A point on the Earth, in degrees (WGS-84).
///
/// ```swift
/// let office = Coordinate(latitude: 52.5200, longitude: 13.4050)
/// ```
public struct Coordinate: Hashable, Sendable, CustomStringConvertible {
    public var latitude: Double
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// True for finite latitudes in −90…90 and longitudes in −180…180.
    public var isValid: Bool {
        latitude.isFinite && longitude.isFinite && (-90...90).contains(latitude) && (-180...180).contains(longitude)
    }

    /// `52.52000,13.40500` (five decimals: about a metre).
    public var description: String { "\(Self.degrees(latitude)),\(Self.degrees(longitude))" }

    static func degrees(_ value: Double) -> String {
        // Invalid coordinates are printed as they are (error messages name them); converting them
        // to an integer would trap.
        guard value.isFinite, abs(value) <= 1_000 else { return "\(value)" }
        let scaled = (value * 100_000).rounded()
        let sign = scaled < 0 ? "-" : ""
        let magnitude = Int64(abs(scaled))
        let fraction = String(magnitude % 100_000)
        return "\(sign)\(magnitude / 100_000).\(String(repeating: "0", count: 5 - fraction.count))\(fraction)"
    }
}

/// One position report from a location provider (GeoClue2, a replayed track, a fixed point).
///
/// ```swift
/// let fix = LocationFix(latitude: 52.52, longitude: 13.405, horizontalAccuracy: 12,
///                       timestamp: Instant(secondsSince1970: 1_796_112_000))
/// ```
public struct LocationFix: Hashable, Sendable, CustomStringConvertible {
    public var coordinate: Coordinate
    /// Radius of uncertainty in metres. Negative (GeoClue's −1) means unknown: such a fix never
    /// changes a fence's state, though it still tells the tracking roughly where the user is.
    public var horizontalAccuracy: Double
    /// When the position was measured, in milliseconds since 1970 (UTC).
    public var timestampMilliseconds: Int64

    public init(coordinate: Coordinate, horizontalAccuracy: Double, timestampMilliseconds: Int64) {
        self.coordinate = coordinate
        self.horizontalAccuracy = horizontalAccuracy
        self.timestampMilliseconds = timestampMilliseconds
    }

    public init(latitude: Double, longitude: Double, horizontalAccuracy: Double = 0, timestamp: Instant) {
        self.init(
            coordinate: Coordinate(latitude: latitude, longitude: longitude),
            horizontalAccuracy: horizontalAccuracy, timestampMilliseconds: timestamp.secondsSince1970 * 1000)
    }

    public var latitude: Double { coordinate.latitude }
    public var longitude: Double { coordinate.longitude }
    /// The whole second of the measurement.
    public var timestamp: Instant {
        let ms = timestampMilliseconds
        return Instant(secondsSince1970: ms >= 0 ? ms / 1000 : (ms - 999) / 1000)
    }

    /// `52.52000,13.40500 ±12 m @ 20261201T090000Z`
    public var description: String {
        "\(coordinate) ±\(Geodesy.metresText(horizontalAccuracy)) m @ \(timestamp.utcBasicFormat)"
    }
}
