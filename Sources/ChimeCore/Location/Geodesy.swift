import Foundation

/// Distances on the Earth for geofences.
///
/// Chime uses the haversine formula on a sphere of the WGS-84 mean radius (6,371,008.8 m).
/// Against the WGS-84 ellipsoid its error is at most about 0.56 % (one degree of latitude at
/// the equator: 111,195 m here, 110,574 m on the ellipsoid) — under a metre at the edge of a
/// 150 m fence, far below what a phone or laptop position is worth. The tests check it
/// against ellipsoidal reference distances with that bound.
///
/// ```swift
/// let d = Geodesy.distance(Coordinate(latitude: 52.52, longitude: 13.405),
///                          Coordinate(latitude: 48.8566, longitude: 2.3522))   // ≈ 878 km
/// ```
public enum Geodesy {
    public static let meanEarthRadius = 6_371_008.8
    /// Metres in one degree of a great circle on that sphere (≈ 111,195 m).
    public static let metresPerDegree = meanEarthRadius * Double.pi / 180
    /// The documented bound of the haversine error against the WGS-84 ellipsoid (relative).
    public static let relativeErrorBound = 0.006

    /// Great-circle distance in metres (haversine).
    public static func distance(_ a: Coordinate, _ b: Coordinate) -> Double {
        let toRadians = Double.pi / 180
        let φ1 = a.latitude * toRadians, φ2 = b.latitude * toRadians
        let Δφ = φ2 - φ1
        let Δλ = (b.longitude - a.longitude) * toRadians
        let s1 = sin(Δφ / 2), s2 = sin(Δλ / 2)
        let h = s1 * s1 + cos(φ1) * cos(φ2) * s2 * s2
        return 2 * meanEarthRadius * asin(min(1, h.squareRoot()))
    }

    /// A length in whole metres for messages: `150`, or the value as it is when it is not a
    /// sensible length (NaN, infinite, beyond 10¹² m), where an integer conversion would trap.
    public static func metresText(_ metres: Double) -> String {
        guard metres.isFinite, abs(metres) < 1e12 else { return "\(metres)" }
        return "\(Int64(metres.rounded()))"
    }

    /// Metres per degree of longitude at a latitude (on the sphere).
    public static func metresPerDegreeOfLongitude(atLatitude latitude: Double) -> Double {
        metresPerDegree * max(cos(latitude * Double.pi / 180), 0)
    }
}
