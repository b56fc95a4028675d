import CGeoclue
import ChimeCore

extension LocationFix {
    /// Reads a fix from the properties of a GeoClue2 `Location` object, as its
    /// `org.freedesktop.DBus.Properties.GetAll` returns them (an `a{sv}` dictionary); nil when the
    /// latitude or longitude is missing (an object GeoClue had already dropped).
    ///
    /// ```swift
    /// // {'Latitude': <48.8584>, 'Longitude': <2.2945>, 'Accuracy': <1.0>, 'Timestamp': <(uint64 1796112000, uint64 250000)>}
    /// let fix = LocationFix(geoClueProperties: dictionary)   // 48.85840,2.29450 ±1 m @ 20261201T090000Z
    /// ```
    init?(geoClueProperties dictionary: OpaquePointer) {
        guard let latitude = Self.double(dictionary, "Latitude"),
            let longitude = Self.double(dictionary, "Longitude")
        else { return nil }
        self.init(
            coordinate: Coordinate(latitude: latitude, longitude: longitude),
            horizontalAccuracy: Self.double(dictionary, "Accuracy") ?? 0,
            timestampMilliseconds: Self.timestampMilliseconds(dictionary) ?? 0)
    }

    private static func double(_ dictionary: OpaquePointer, _ key: String) -> Double? {
        guard let value = g_variant_lookup_value(dictionary, key, nil) else { return nil }
        defer { g_variant_unref(value) }
        guard g_variant_classify(value) == G_VARIANT_CLASS_DOUBLE else { return nil }
        let number = g_variant_get_double(value)
        return number.isFinite ? number : nil
    }

    /// `Timestamp` is `(tt)`: seconds and microseconds since 1970 (UTC).
    private static func timestampMilliseconds(_ dictionary: OpaquePointer) -> Int64? {
        guard let value = g_variant_lookup_value(dictionary, "Timestamp", nil) else { return nil }
        defer { g_variant_unref(value) }
        guard g_variant_classify(value) == G_VARIANT_CLASS_TUPLE, g_variant_n_children(value) == 2 else { return nil }
        var parts: [UInt64] = []
        for index in 0..<2 {
            guard let child = g_variant_get_child_value(value, gsize(index)) else { return nil }
            defer { g_variant_unref(child) }
            guard g_variant_classify(child) == G_VARIANT_CLASS_UINT64 else { return nil }
            parts.append(UInt64(g_variant_get_uint64(child)))
        }
        let (seconds, microseconds) = (Int64(clamping: parts[0]), Int64(clamping: parts[1]))
        let (milliseconds, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        return overflow ? nil : milliseconds &+ microseconds / 1000
    }
}
