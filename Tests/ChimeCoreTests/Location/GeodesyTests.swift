import ChimeCore
import Testing

@Suite("Geodesy: haversine distances and their documented error")
struct GeodesyTests {
    /// WGS-84 ellipsoidal (geodesic) distances from the literature; haversine must stay within
    /// the documented relative bound of each.
    @Test(arguments: [
        (Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 1, longitude: 0), 110_574.4),  // 1° of latitude at the equator
        (Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 0, longitude: 1), 111_319.5),  // 1° of longitude at the equator
        (Coordinate(latitude: 45, longitude: 0), Coordinate(latitude: 46, longitude: 0), 111_141.5),  // around 45° N
        (Coordinate(latitude: 40.6, longitude: -73.8), Coordinate(latitude: 51.6, longitude: -0.5), 5_551_759.4)  // JFK → LHR (GeographicLib)
    ])
    func withinTheDocumentedBoundOfEllipsoidalDistances(a: Coordinate, b: Coordinate, ellipsoidal: Double) {
        let d = Geodesy.distance(a, b)
        #expect(abs(d - ellipsoidal) / ellipsoidal <= Geodesy.relativeErrorBound, "\(d) vs \(ellipsoidal)")
    }

    @Test func exactOnTheSphere() {
        let quarter = Geodesy.distance(Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 90, longitude: 0))
        #expect(abs(quarter - Double.pi / 2 * Geodesy.meanEarthRadius) < 0.001)
        let half = Geodesy.distance(Coordinate(latitude: 0, longitude: -90), Coordinate(latitude: 0, longitude: 90))
        #expect(abs(half - Double.pi * Geodesy.meanEarthRadius) < 0.001)
        // Across the antimeridian: 0.2° of longitude, not 359.8°.
        let across = Geodesy.distance(Coordinate(latitude: 0, longitude: 179.9), Coordinate(latitude: 0, longitude: -179.9))
        #expect(abs(across - 0.2 * Geodesy.metresPerDegree) < 0.01)
    }

    @Test func smallDistancesAreMetreAccurate() {
        let berlin = Coordinate(latitude: 52.52, longitude: 13.405)
        #expect(Geodesy.distance(berlin, berlin) == 0)
        let north = Coordinate(latitude: 52.52 + 100 / Geodesy.metresPerDegree, longitude: 13.405)
        #expect(abs(Geodesy.distance(berlin, north) - 100) < 0.001)
        let east = Coordinate(latitude: 52.52, longitude: 13.405 + 100 / Geodesy.metresPerDegreeOfLongitude(atLatitude: 52.52))
        #expect(abs(Geodesy.distance(berlin, east) - 100) < 0.01)
        #expect(Geodesy.distance(berlin, east) == Geodesy.distance(east, berlin))
    }
}
