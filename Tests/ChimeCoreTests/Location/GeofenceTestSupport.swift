import ChimeCore

/// Fences and fixes built in metres around a centre, for the geofence tests.
enum Fences {
    static let office = Coordinate(latitude: 52.5200, longitude: 13.4050)

    /// The point `north` and `east` metres from `origin`.
    static func point(_ origin: Coordinate = office, north: Double = 0, east: Double = 0) -> Coordinate {
        Coordinate(
            latitude: origin.latitude + north / Geodesy.metresPerDegree,
            longitude: origin.longitude + east / Geodesy.metresPerDegreeOfLongitude(atLatitude: origin.latitude))
    }

    static func fence(
        _ name: String, at center: Coordinate = office, radius: Double = 100, _ proximity: Proximity = .enter,
        settings: GeofenceSettings = GeofenceSettings()
    ) -> Geofence {
        let place = StructuredLocation(title: name, latitude: center.latitude, longitude: center.longitude, radius: radius)
        let alarm = Alarm.location(place, proximity)
        return Geofence(
            key: FiringKey(item: "item-\(name)", occurrence: Instant(secondsSince1970: 0), alarm: alarm.trigger.locationKeyText!),
            place: place, radius: settings.effectiveRadius(radius), proximity: proximity,
            item: ItemSummary(identifier: "item-\(name)", kind: .reminder, title: "Reminder \(name)"),
            occurrenceStart: nil, occurrenceEnd: nil)
    }

    static func fix(_ point: Coordinate, accuracy: Double = 5, at seconds: Int64) -> LocationFix {
        LocationFix(coordinate: point, horizontalAccuracy: accuracy, timestampMilliseconds: (1_796_112_000 + seconds) * 1000)
    }

    /// A fix `metres` from the office centre, due north.
    static func fix(metres: Double, accuracy: Double = 5, at seconds: Int64) -> LocationFix {
        fix(point(north: metres), accuracy: accuracy, at: seconds)
    }
}
