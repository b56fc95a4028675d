/// A small CSV form: one fix per line, `time,lat,lon[,accuracy]`.
///
/// - `time`: ISO 8601 (`2026-11-23T07:30:00Z`, `…+01:00`, fractional seconds allowed), RFC 5545
///   basic UTC (`20261123T073000Z`), or seconds since 1970 (`1795419000`, `1795419000.5`).
/// - `lat`, `lon`: decimal degrees; `accuracy`: metres ≥ 0, 0 when the column is absent or empty.
/// - An optional header row names the columns, in any order: `time` (or `timestamp`), `lat`
///   (`latitude`), `lon` (`lng`, `long`, `longitude`), `accuracy` (`acc`). A first row whose
///   first field does not start with a digit or `-` is read as a header.
/// - Blank lines and lines starting with `#` are skipped; fields may be quoted with `"`.
///
/// ```
/// # time,lat,lon,accuracy
/// 2026-11-23T07:30:00Z,52.53080,13.38470,5
/// 1795419010,52.53071,13.38502
/// ```
extension TrackFile {
    private enum Column: Hashable { case time, latitude, longitude, accuracy }

    private static let columnNames: [String: Column] = [
        "time": .time, "timestamp": .time,
        "lat": .latitude, "latitude": .latitude,
        "lon": .longitude, "lng": .longitude, "long": .longitude, "longitude": .longitude,
        "accuracy": .accuracy, "acc": .accuracy
    ]

    static func parseCSV(_ b: [UInt8], file: String) throws(TrackFileError) -> [Point] {
        var columns: [Column]?
        var points: [Point] = []
        for (number, range) in lines(b) {
            let line = trimmed(b[range])
            guard let first = line.first, first != UInt8(ascii: "#") else { continue }
            let fields = line.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false).map(unquoted)
            if columns == nil, points.isEmpty, let f = fields[0].first, !isDigit(f), f != UInt8(ascii: "-") {
                columns = try header(fields, file: file, line: number)
                continue
            }
            let layout = columns ?? [.time, .latitude, .longitude, .accuracy]
            let expected = columns == nil ? 3...4 : layout.count...layout.count
            guard expected.contains(fields.count) else {
                let count = expected.count == 1 ? "\(layout.count)" : "3 or 4"
                throw TrackFileError(
                    file: file, line: number,
                    "expected \(count) fields (\(names(layout))), found \(fields.count)")
            }
            var values: [Column: ArraySlice<UInt8>] = [:]
            for (column, field) in zip(layout, fields) { values[column] = field }
            let timeText = values[.time]!
            guard let ms = timeMilliseconds(timeText, epochSeconds: true) else {
                throw TrackFileError(
                    file: file, line: number,
                    "invalid time \"\(text(timeText))\" "
                        + "(use ISO 8601 2026-11-23T07:30:00Z, 20261123T073000Z or seconds since 1970)")
            }
            let latitude = try latitude(values[.latitude]!, file: file, line: number)
            let longitude = try longitude(values[.longitude]!, file: file, line: number)
            var accuracy = 0.0
            if let a = values[.accuracy], !a.isEmpty {
                accuracy = try nonNegative(a, what: "accuracy", file: file, line: number)
            }
            points.append(
                Point(
                    fix: LocationFix(
                        coordinate: Coordinate(latitude: latitude, longitude: longitude),
                        horizontalAccuracy: accuracy, timestampMilliseconds: ms),
                    line: number))
        }
        try checkOrder(points, file: file)
        return points
    }

    private static func unquoted(_ field: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        let f = trimmed(field)
        guard f.count >= 2, f.first == UInt8(ascii: "\""), f.last == UInt8(ascii: "\"") else { return f }
        return trimmed(f.dropFirst().dropLast())
    }

    private static func header(_ fields: [ArraySlice<UInt8>], file: String, line: Int) throws(TrackFileError) -> [Column] {
        var columns: [Column] = []
        for field in fields {
            let name = text(field).lowercased()
            guard let column = columnNames[name] else {
                throw TrackFileError(file: file, line: line, "unknown column \"\(text(field))\" (use time, lat, lon, accuracy)")
            }
            guard !columns.contains(column) else {
                throw TrackFileError(file: file, line: line, "column \"\(text(field))\" given twice")
            }
            columns.append(column)
        }
        for required in [Column.time, .latitude, .longitude] where !columns.contains(required) {
            throw TrackFileError(file: file, line: line, "the header has no \(names([required])) column")
        }
        return columns
    }

    private static func names(_ columns: [Column]) -> String {
        columns.map { c in
            switch c {
            case .time: return "time"
            case .latitude: return "lat"
            case .longitude: return "lon"
            case .accuracy: return "accuracy"
            }
        }.joined(separator: ",")
    }
}
