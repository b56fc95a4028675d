/// Recorded tracks read from bytes: GPX 1.0/1.1, NMEA 0183 (GGA and RMC) and a small CSV form.
/// Pure: the caller reads the file (`ReplayProvider.load` does), this only parses.
///
/// What each format gives:
/// - **GPX** (``TrackFile/Format/gpx``, see `TrackFile+GPX.swift`): every `<trkpt>`; `<rtept>` and
///   `<wpt>` only when they have a `<time>`. Accuracy is `<hdop>` × 5 m (0 without one).
/// - **NMEA** (``TrackFile/Format/nmea``, see `TrackFile+NMEA.swift`): `$..GGA` and `$..RMC` of any
///   talker; a GGA and an RMC for the same time make one fix. Sentences that cannot be used
///   (bad checksum, no fix, unreadable) are skipped and listed in ``Contents/skipped``.
/// - **CSV** (``TrackFile/Format/csv``, see `TrackFile+CSV.swift`): `time,lat,lon[,accuracy]`.
///
/// In every format the fixes must come in time order (equal times are allowed): a time that
/// goes backwards is an error naming its line, as are coordinates outside −90…90 / −180…180,
/// and a file without a single fix.
///
/// ```swift
/// let bytes = Array("2026-11-23T07:30:00Z,52.5308,13.3847\n".utf8)
/// let fixes = try TrackFile.parse(bytes, format: .csv, file: "walk.csv")
/// // [52.53080,13.38470 ±0 m @ 20261123T073000Z]
/// try TrackFile.parse(Array("2026-11-23T07:30:00Z,95.2,13.3\n".utf8), format: .csv, file: "walk.csv")
/// // throws: walk.csv:1: invalid latitude "95.2" (must be -90…90)
/// ```
public enum TrackFile {
    public enum Format: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
        case gpx, nmea, csv

        public var description: String { rawValue.uppercased() }
    }

    /// A line that was passed over without being an error (NMEA only): `line 7: bad checksum`.
    public struct Skipped: Hashable, Sendable, CustomStringConvertible {
        public var line: Int
        public var reason: String

        public init(line: Int, reason: String) {
            self.line = line
            self.reason = reason
        }

        public var description: String { "line \(line): \(reason)" }
    }

    /// A parsed track: the fixes in time order and what was passed over.
    public struct Contents: Hashable, Sendable {
        public var format: Format
        public var fixes: [LocationFix]
        public var skipped: [Skipped]
    }

    /// The format a file name's extension names (`.gpx`, `.nmea`/`.nma`, `.csv`, any case).
    public static func format(forFileName name: String) -> Format? {
        let base = name.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
        guard let dot = base.lastIndex(of: "."), dot != base.startIndex else { return nil }
        switch base[base.index(after: dot)...].lowercased() {
        case "gpx": return .gpx
        case "nmea", "nma": return .nmea
        case "csv": return .csv
        default: return nil
        }
    }

    /// The format the content looks like, from its first line that is not blank or a `#`
    /// comment: `<` is GPX, `$` is NMEA, a line with commas is CSV.
    public static func detectFormat(_ bytes: some Collection<UInt8>) -> Format? {
        var b = Array(bytes)
        if b.starts(with: [0xEF, 0xBB, 0xBF]) { b.removeFirst(3) }  // UTF-8 byte order mark
        for line in lines(b) {
            guard let first = line.range.first(where: { !isSpace(b[$0]) }).map({ b[$0] }) else { continue }
            switch first {
            case UInt8(ascii: "<"): return .gpx
            case UInt8(ascii: "$"): return .nmea
            case UInt8(ascii: "#"): continue
            default: return line.range.contains(where: { b[$0] == UInt8(ascii: ",") }) ? .csv : nil
            }
        }
        return nil
    }

    /// The fixes of a track, in time order. With `format` nil, the file name's extension decides,
    /// else the content (``detectFormat(_:)``). `file` only names the file in errors.
    /// `defaultDate` dates NMEA files that have GGA sentences but no RMC (GGA carries no date).
    public static func parse(
        _ bytes: some Collection<UInt8>, format: Format? = nil, file: String,
        defaultDate: CivilDate? = nil
    ) throws(TrackFileError) -> [LocationFix] {
        try read(bytes, format: format, file: file, defaultDate: defaultDate).fixes
    }

    /// Like ``parse(_:format:file:defaultDate:)``, and also says which format was read and which
    /// lines were passed over.
    public static func read(
        _ bytes: some Collection<UInt8>, format: Format? = nil, file: String,
        defaultDate: CivilDate? = nil
    ) throws(TrackFileError) -> Contents {
        var b = Array(bytes)
        if b.starts(with: [0xEF, 0xBB, 0xBF]) { b.removeFirst(3) }  // UTF-8 byte order mark
        guard b.contains(where: { !isSpace($0) }) else { throw TrackFileError(file: file, line: 0, "empty file") }
        guard let format = format ?? self.format(forFileName: file) ?? detectFormat(b) else {
            throw TrackFileError(file: file, line: 0, "cannot tell the format: name the file .gpx, .nmea or .csv")
        }
        var skipped: [Skipped] = []
        let points: [Point]
        switch format {
        case .gpx: points = try parseGPX(b, file: file)
        case .nmea: points = try parseNMEA(b, file: file, defaultDate: defaultDate, skipped: &skipped)
        case .csv: points = try parseCSV(b, file: file)
        }
        guard !points.isEmpty else {
            var message = "no position fixes (" + emptyHint(format)
            if !skipped.isEmpty { message += "; \(skipped.count) skipped, the first on \(skipped[0])" }
            throw TrackFileError(file: file, line: 0, message + ")")
        }
        return Contents(format: format, fixes: points.map(\.fix), skipped: skipped)
    }

    private static func emptyHint(_ format: Format) -> String {
        switch format {
        case .gpx: return "no <trkpt>, and no <wpt> or <rtept> with a <time>"
        case .nmea: return "no usable GGA or RMC sentence"
        case .csv: return "no data rows"
        }
    }

    // MARK: - Shared by the format readers

    /// A fix and the line it came from.
    struct Point {
        var fix: LocationFix
        var line: Int
    }

    /// Throws at the first point whose time is before the one above it.
    static func checkOrder(_ points: [Point], file: String) throws(TrackFileError) {
        for (a, b) in zip(points, points.dropFirst()) where b.fix.timestampMilliseconds < a.fix.timestampMilliseconds {
            throw TrackFileError(
                file: file, line: b.line,
                "time goes backwards: \(timeText(b.fix.timestampMilliseconds)) "
                    + "comes after \(timeText(a.fix.timestampMilliseconds)) (line \(a.line))")
        }
    }

    /// `2026-11-23T07:30:00Z`, with milliseconds when there are some (`07:30:00.250Z`).
    static func timeText(_ ms: Int64) -> String {
        let seconds = ms >= 0 ? ms / 1000 : (ms - 999) / 1000
        let whole = Instant(secondsSince1970: seconds)
        let rest = ms - seconds * 1000
        guard rest != 0 else { return whole.description }
        let digits = String(rest)
        return whole.utc.description + "." + String(repeating: "0", count: 3 - digits.count) + digits + "Z"
    }

    /// Lines without their `\n` or `\r\n`, numbered from 1.
    static func lines(_ b: [UInt8]) -> [(number: Int, range: Range<Int>)] {
        var result: [(Int, Range<Int>)] = []
        var start = 0
        var number = 1
        while start <= b.count {
            let end = b[start...].firstIndex(of: 10) ?? b.count
            var last = end
            if last > start && b[last - 1] == 13 { last -= 1 }
            if start < b.count || end > start { result.append((number, start..<last)) }
            start = end + 1
            number += 1
        }
        return result
    }

    static func isSpace(_ c: UInt8) -> Bool { c == 32 || c == 9 || c == 10 || c == 13 }
    static func isDigit(_ c: UInt8) -> Bool { c >= 48 && c <= 57 }

    static func trimmed(_ s: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var s = s
        while let c = s.first, isSpace(c) { s.removeFirst() }
        while let c = s.last, isSpace(c) { s.removeLast() }
        return s
    }

    static func text(_ s: ArraySlice<UInt8>) -> String { String(decoding: s, as: UTF8.self) }

    /// A plain decimal number (`-12.5`, `3e2`); no `nan`, `inf` or hexadecimal.
    static func decimal(_ s: ArraySlice<UInt8>) -> Double? {
        let s = trimmed(s)
        guard !s.isEmpty,
            s.allSatisfy({
                isDigit($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-")
                    || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E")
            }),
            let v = Double(text(s)), v.isFinite
        else { return nil }
        return v
    }

    static func latitude(_ s: ArraySlice<UInt8>, file: String, line: Int) throws(TrackFileError) -> Double {
        guard let v = decimal(s), (-90...90).contains(v) else {
            throw TrackFileError(file: file, line: line, "invalid latitude \"\(text(trimmed(s)))\" (must be -90…90)")
        }
        return v
    }

    static func longitude(_ s: ArraySlice<UInt8>, file: String, line: Int) throws(TrackFileError) -> Double {
        guard let v = decimal(s), (-180...180).contains(v) else {
            throw TrackFileError(file: file, line: line, "invalid longitude \"\(text(trimmed(s)))\" (must be -180…180)")
        }
        return v
    }

    /// A horizontal accuracy or HDOP: a finite number ≥ 0.
    static func nonNegative(_ s: ArraySlice<UInt8>, what: String, file: String, line: Int) throws(TrackFileError) -> Double {
        guard let v = decimal(s), v >= 0 else {
            throw TrackFileError(file: file, line: line, "invalid \(what) \"\(text(trimmed(s)))\" (must be a number ≥ 0)")
        }
        return v
    }
}

/// A problem in a track file, named by file and line like the iCalendar reader's errors:
/// `commute.gpx:41: invalid latitude "95.2" (must be -90…90)`.
public struct TrackFileError: Error, Hashable, Sendable, CustomStringConvertible {
    public var file: String
    /// 1-based line; 0 when the problem is the file as a whole (empty, unreadable, no fixes).
    public var line: Int
    public var message: String

    public init(file: String, line: Int, _ message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    public var description: String { line > 0 ? "\(file):\(line): \(message)" : "\(file): \(message)" }
}
