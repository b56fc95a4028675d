/// NMEA 0183 logs: `$..GGA` and `$..RMC` sentences of any talker (`GP`, `GN`, `GL`, …); all
/// other sentences and lines without a `$` are ignored.
///
/// NMEA is a serial stream, so damage is expected: a sentence whose `*hh` checksum does not
/// match, that cannot be read (too few fields, a truncated last line), or that reports no fix
/// (RMC status `V`, GGA fix quality 0) is skipped and listed in ``TrackFile/Contents/skipped``,
/// not fatal. What a sentence with a valid checksum says is believed: a latitude of 95° is an
/// error naming the line.
///
/// - A GGA and an RMC in a row with the same time of day (at 1 Hz: the same second) make one
///   fix: the GGA's position and accuracy, the RMC's date.
/// - Dates come from RMC (`ddmmyy`, years 80–99 are 1980–1999, 00–79 are 2000–2079). A
///   sentence without its own RMC takes the date of the nearest RMC before it (the first one
///   for those at the top) and moves to the next day when the time of day drops by more than
///   12 hours (midnight). A file with no RMC needs `defaultDate`, else it is an error naming
///   the first GGA line.
/// - Accuracy follows GeoClue's HDOP table (see ``nmeaAccuracy(hdop:)``); 0 for RMC alone.
extension TrackFile {
    /// Horizontal accuracy in metres for an NMEA HDOP, as GeoClue's NMEA source maps it:
    /// ≤ 1 → 0, ≤ 2 → 1, ≤ 5 → 3, ≤ 10 → 50, ≤ 20 → 100, more → 300.
    public static func nmeaAccuracy(hdop: Double) -> Double {
        switch hdop {
        case ...1: return 0
        case ...2: return 1
        case ...5: return 3
        case ...10: return 50
        case ...20: return 100
        default: return 300
        }
    }

    private enum SentenceKind { case gga, rmc }

    private struct Sentence {
        var kind: SentenceKind
        var line: Int
        /// Milliseconds since midnight UTC.
        var timeOfDay: Int64
        var date: CivilDate?
        var coordinate: Coordinate
        var accuracy: Double
    }

    /// Sentences for the same time of day, merged.
    private struct Epoch {
        var line: Int
        var timeOfDay: Int64
        var date: CivilDate?
        var coordinate: Coordinate
        var accuracy: Double
        var kinds: [SentenceKind]
        var hasGGA: Bool { kinds.contains(.gga) }
    }

    static func parseNMEA(
        _ b: [UInt8], file: String, defaultDate: CivilDate?,
        skipped: inout [Skipped]
    ) throws(TrackFileError) -> [Point] {
        var epochs: [Epoch] = []
        for (number, range) in lines(b) {
            guard let s = try sentence(b[range], line: number, file: file, skipped: &skipped) else { continue }
            if var last = epochs.last, last.timeOfDay == s.timeOfDay, !last.kinds.contains(s.kind) {
                if s.kind == .gga || !last.hasGGA {
                    last.coordinate = s.coordinate
                    last.accuracy = s.accuracy
                }
                last.date = last.date ?? s.date
                last.kinds.append(s.kind)
                epochs[epochs.count - 1] = last
            } else {
                epochs.append(
                    Epoch(
                        line: s.line, timeOfDay: s.timeOfDay, date: s.date, coordinate: s.coordinate,
                        accuracy: s.accuracy, kinds: [s.kind]))
            }
        }
        guard !epochs.isEmpty else { return [] }
        try date(&epochs, file: file, defaultDate: defaultDate)
        let points = epochs.map { e in
            Point(
                fix: LocationFix(
                    coordinate: e.coordinate, horizontalAccuracy: e.accuracy,
                    timestampMilliseconds: Int64(e.date!.daysSinceEpoch) * 86_400_000 + e.timeOfDay),
                line: e.line)
        }
        try checkOrder(points, file: file)
        return points
    }

    /// Gives every epoch a date (see the type's notes).
    private static func date(_ epochs: inout [Epoch], file: String, defaultDate: CivilDate?) throws(TrackFileError) {
        let halfDay: Int64 = 12 * 3_600_000
        var current: CivilDate
        if let first = epochs.firstIndex(where: { $0.date != nil }) {
            // Those above the first RMC: walk back from it, a day earlier across midnight.
            var date = epochs[first].date!
            var later = epochs[first].timeOfDay
            for k in stride(from: first - 1, through: 0, by: -1) {
                if epochs[k].timeOfDay > later + halfDay { date = date.adding(days: -1) }
                epochs[k].date = date
                later = epochs[k].timeOfDay
            }
            current = epochs[0].date!
        } else if let defaultDate {
            current = defaultDate
        } else {
            throw TrackFileError(
                file: file, line: epochs[0].line,
                "GGA has no date and the file has no RMC sentence: give a default date for the track")
        }
        var previous = epochs[0].timeOfDay
        for k in epochs.indices {
            if let d = epochs[k].date {
                current = d
            } else if epochs[k].timeOfDay < previous - halfDay {
                current = current.adding(days: 1)
            }
            epochs[k].date = current
            previous = epochs[k].timeOfDay
        }
    }

    /// A usable GGA or RMC sentence on this line; nil for other lines (and skipped ones, noted).
    private static func sentence(
        _ raw: ArraySlice<UInt8>, line: Int, file: String,
        skipped: inout [Skipped]
    ) throws(TrackFileError) -> Sentence? {
        let text = trimmed(raw)
        guard let dollar = text.firstIndex(of: UInt8(ascii: "$")) else { return nil }
        var body = text[(dollar + 1)...]
        if let star = body.firstIndex(of: UInt8(ascii: "*")) {
            let given = body[(star + 1)...]
            body = body[..<star]
            guard given.count == 2, let expected = UInt8(TrackFile.text(given), radix: 16) else {
                skipped.append(Skipped(line: line, reason: "malformed checksum \"*\(TrackFile.text(given))\""))
                return nil
            }
            let computed = body.reduce(0, ^)
            guard computed == expected else {
                skipped.append(Skipped(line: line, reason: "bad checksum *\(TrackFile.text(given)), computed *\(hex(computed))"))
                return nil
            }
        }
        let fields = body.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
        guard let id = fields.first, id.count == 5 else { return nil }
        let kind: SentenceKind
        switch TrackFile.text(id.suffix(3)) {
        case "GGA": kind = .gga
        case "RMC": kind = .rmc
        default: return nil
        }
        let name = TrackFile.text(id)
        func skip(_ reason: String) -> Sentence? {
            skipped.append(Skipped(line: line, reason: "\(name): \(reason)"))
            return nil
        }
        switch kind {
        case .gga:
            // $GPGGA,time,lat,N,lon,E,quality,satellites,hdop,…
            guard fields.count >= 9 else { return skip("too few fields") }
            guard let quality = Int(TrackFile.text(fields[6])) else { return skip("unreadable fix quality") }
            guard quality != 0 else { return skip("no fix (quality 0)") }
            guard let time = timeOfDay(fields[1]) else { return skip("unreadable time \"\(TrackFile.text(fields[1]))\"") }
            guard let c = try position(fields[2], fields[3], fields[4], fields[5], file: file, line: line) else {
                return skip("unreadable position")
            }
            var accuracy = 0.0
            if !fields[8].isEmpty {
                guard let hdop = decimal(fields[8]), hdop >= 0 else { return skip("unreadable HDOP \"\(TrackFile.text(fields[8]))\"") }
                accuracy = nmeaAccuracy(hdop: hdop)
            }
            return Sentence(kind: .gga, line: line, timeOfDay: time, date: nil, coordinate: c, accuracy: accuracy)
        case .rmc:
            // $GPRMC,time,status,lat,N,lon,E,speed,course,ddmmyy,…
            guard fields.count >= 10 else { return skip("too few fields") }
            switch TrackFile.text(fields[2]) {
            case "A": break
            case "V": return skip("no fix (status V)")
            default: return skip("unreadable status \"\(TrackFile.text(fields[2]))\"")
            }
            guard let time = timeOfDay(fields[1]) else { return skip("unreadable time \"\(TrackFile.text(fields[1]))\"") }
            guard let date = rmcDate(fields[9]) else { return skip("unreadable date \"\(TrackFile.text(fields[9]))\"") }
            guard let c = try position(fields[3], fields[4], fields[5], fields[6], file: file, line: line) else {
                return skip("unreadable position")
            }
            return Sentence(kind: .rmc, line: line, timeOfDay: time, date: date, coordinate: c, accuracy: 0)
        }
    }

    private static func hex(_ v: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(v >> 4)], digits[Int(v & 15)]])
    }

    /// `hhmmss[.sss]` → milliseconds since midnight.
    private static func timeOfDay(_ f: ArraySlice<UInt8>) -> Int64? {
        guard f.count >= 6, f.prefix(6).allSatisfy(isDigit) else { return nil }
        let d = f.prefix(6).map { Int64($0 - 48) }
        let h = d[0] * 10 + d[1], m = d[2] * 10 + d[3], s = d[4] * 10 + d[5]
        guard h < 24, m < 60, s < 61 else { return nil }
        var ms: Int64 = 0
        let rest = f.dropFirst(6)
        if !rest.isEmpty {
            guard rest.first == UInt8(ascii: "."), rest.count >= 2, rest.dropFirst().allSatisfy(isDigit) else { return nil }
            let digits = Array(rest.dropFirst().prefix(3))
            for k in 0..<3 { ms = ms * 10 + (k < digits.count ? Int64(digits[k] - 48) : 0) }
        }
        // A leap second (60) is read as the last second of the minute, as elsewhere in Chime.
        return ((h * 60 + m) * 60 + min(s, 59)) * 1000 + ms
    }

    /// `ddmmyy` → a date.
    private static func rmcDate(_ f: ArraySlice<UInt8>) -> CivilDate? {
        guard f.count == 6, f.allSatisfy(isDigit) else { return nil }
        let d = f.map { Int($0 - 48) }
        let yy = d[4] * 10 + d[5]
        let date = CivilDate(year: yy >= 80 ? 1900 + yy : 2000 + yy, month: d[2] * 10 + d[3], day: d[0] * 10 + d[1])
        return date.isValid ? date : nil
    }

    /// `ddmm.mmmm,N,dddmm.mmmm,E`; nil when unreadable or empty, an error when out of range.
    private static func position(
        _ lat: ArraySlice<UInt8>, _ ns: ArraySlice<UInt8>, _ lon: ArraySlice<UInt8>,
        _ ew: ArraySlice<UInt8>, file: String, line: Int
    ) throws(TrackFileError) -> Coordinate? {
        guard let latitude = degrees(lat, hemisphere: ns, positive: "N", negative: "S"),
            let longitude = degrees(lon, hemisphere: ew, positive: "E", negative: "W")
        else { return nil }
        guard let la = latitude, (-90...90).contains(la) else {
            throw TrackFileError(file: file, line: line, "invalid latitude \"\(text(lat)),\(text(ns))\" (must be 0000.0000…9000.0000 N or S)")
        }
        guard let lo = longitude, (-180...180).contains(lo) else {
            throw TrackFileError(file: file, line: line, "invalid longitude \"\(text(lon)),\(text(ew))\" (must be 00000.0000…18000.0000 E or W)")
        }
        return Coordinate(latitude: la, longitude: lo)
    }

    /// Degrees from `dddmm.mmmm` and a hemisphere letter: nil when unreadable, .some(nil) when
    /// the minutes are 60 or more.
    private static func degrees(
        _ f: ArraySlice<UInt8>, hemisphere: ArraySlice<UInt8>,
        positive: String, negative: String
    ) -> Double?? {
        guard let v = decimal(f), v >= 0, f.allSatisfy({ isDigit($0) || $0 == UInt8(ascii: ".") }) else { return nil }
        let sign: Double
        switch text(hemisphere) {
        case positive: sign = 1
        case negative: sign = -1
        default: return nil
        }
        let whole = (v / 100).rounded(.down)
        let minutes = v - whole * 100
        guard minutes < 60 else { return .some(nil) }
        return sign * (whole + minutes / 60)
    }
}
