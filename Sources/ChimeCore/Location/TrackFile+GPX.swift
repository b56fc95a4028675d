/// GPX 1.0 and 1.1, read by a small scanner rather than an XML library (the core has no
/// dependencies). It reads what a replay needs and checks the structure it walks through:
/// - elements by local name, with any namespace prefix (`gpx:trkpt`), in any case;
/// - attributes in any order, quoted with `"` or `'`, with whitespace and newlines anywhere a
///   tag allows them;
/// - comments, `<?…?>` declarations and `<!DOCTYPE …>` are passed over; CDATA is text inside
///   `<time>` / `<hdop>` and passed over elsewhere;
/// - end tags must match their start tags, and a file that ends inside an element or a tag
///   is truncated: an error naming the line.
///
/// A `<trkpt>` must have a `<time>`; `<rtept>` and `<wpt>` are used only when they have one.
/// Accuracy is `<hdop>` × 5 m, the usual rule of thumb for a consumer receiver's range error
/// (GPX has no accuracy in metres); 0 without an `<hdop>`.
///
/// The points of each track (`<trk>`, across its segments) and each route must come in time
/// order in the file. GPX writes waypoints first, then routes, then tracks, so these groups
/// are merged by time (waypoints are places marked along the way, in any order).
extension TrackFile {
    /// Metres of horizontal accuracy per unit of GPX `<hdop>`.
    public static let gpxMetresPerHDOP = 5.0

    static func parseGPX(_ b: [UInt8], file: String) throws(TrackFileError) -> [Point] {
        var scanner = GPXScanner(b, file: file)
        try scanner.run()
        for path in scanner.paths { try checkOrder(path, file: file) }
        // Then everything by time; at equal times, in file order (a stable sort).
        let all = scanner.paths.flatMap { $0 } + scanner.waypoints
        return all.enumerated()
            .sorted { ($0.element.fix.timestampMilliseconds, $0.offset) < ($1.element.fix.timestampMilliseconds, $1.offset) }
            .map(\.element)
    }
}

/// One pass over the bytes of a GPX file.
private struct GPXScanner {
    let b: [UInt8]
    let file: String
    /// Offsets of the `\n` bytes, to name lines.
    let newlines: [Int]
    var i = 0

    /// The points of each `<trk>` and each `<rte>`, in file order.
    var paths: [[TrackFile.Point]] = []
    var waypoints: [TrackFile.Point] = []

    private var stack: [(name: String, line: Int)] = []
    private var sawRoot = false
    private var point: OpenPoint?
    private var capture: Capture?

    private struct OpenPoint {
        var kind: String
        var line: Int
        var lat: ArraySlice<UInt8>
        var lon: ArraySlice<UInt8>
        /// The stack depth of the point's own element.
        var depth: Int
        var time: (text: ArraySlice<UInt8>, line: Int)?
        var hdop: (text: ArraySlice<UInt8>, line: Int)?
    }

    private struct Capture {
        var name: String
        var line: Int
        var text: [UInt8] = []
    }

    init(_ b: [UInt8], file: String) {
        self.b = b
        self.file = file
        newlines = b.indices.filter { b[$0] == 10 }
    }

    func line(at offset: Int) -> Int {
        var lo = 0, hi = newlines.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if newlines[mid] < offset { lo = mid + 1 } else { hi = mid }
        }
        return lo + 1
    }

    func error(_ offset: Int, _ message: String) -> TrackFileError {
        TrackFileError(file: file, line: line(at: offset), message)
    }

    func hasPrefix(_ s: String) -> Bool {
        let p = Array(s.utf8)
        return b.count - i >= p.count && b[i..<(i + p.count)].elementsEqual(p)
    }

    /// The offset just past `terminator` searched from `from`, or nil.
    func end(of terminator: String, from: Int) -> Int? {
        let t = Array(terminator.utf8)
        var j = from
        while j + t.count <= b.count {
            guard let k = b[j...].firstIndex(of: t[0]), k + t.count <= b.count else { return nil }
            if b[k..<(k + t.count)].elementsEqual(t) { return k + t.count }
            j = k + 1
        }
        return nil
    }

    static let pointKinds: Set<String> = ["trkpt", "rtept", "wpt"]

    mutating func run() throws(TrackFileError) {
        while i < b.count {
            guard b[i] == UInt8(ascii: "<") else {
                let next = b[i...].firstIndex(of: UInt8(ascii: "<")) ?? b.count
                capture?.text.append(contentsOf: b[i..<next])
                i = next
                continue
            }
            let start = i
            if hasPrefix("<!--") {
                guard let e = end(of: "-->", from: i + 4) else { throw error(start, "comment never ends (truncated?)") }
                i = e
            } else if hasPrefix("<![CDATA[") {
                guard let e = end(of: "]]>", from: i + 9) else { throw error(start, "CDATA section never ends (truncated?)") }
                capture?.text.append(contentsOf: b[(i + 9)..<(e - 3)])
                i = e
            } else if hasPrefix("<?") {
                guard let e = end(of: "?>", from: i + 2) else { throw error(start, "<? declaration never ends (truncated?)") }
                i = e
            } else if hasPrefix("<!") {
                guard let e = end(of: ">", from: i + 2) else { throw error(start, "<! declaration never ends (truncated?)") }
                i = e
            } else if hasPrefix("</") {
                i += 2
                let name = try tagName(start)
                skipSpace()
                guard i < b.count, b[i] == UInt8(ascii: ">") else { throw truncatedOrBad(start, "</\(name)") }
                i += 1
                try endElement(name, at: start)
            } else {
                i += 1
                let name = try tagName(start)
                let (attributes, selfClosing) = try tagAttributes(name, start: start)
                try startElement(name, attributes: attributes, selfClosing: selfClosing, at: start)
            }
        }
        let last = b.count
        if let p = point {
            throw error(last, "file ends inside <\(p.kind)> opened on line \(p.line) (truncated?)")
        }
        if let open = stack.last {
            throw error(last, "file ends inside <\(open.name)> opened on line \(open.line) (truncated?)")
        }
        if !sawRoot { throw TrackFileError(file: file, line: 0, "not a GPX file: no <gpx> element") }
    }

    private func truncatedOrBad(_ start: Int, _ what: String) -> TrackFileError {
        i >= b.count ? error(start, "file ends inside the tag \(what) (truncated?)") : error(i, "malformed tag \(what)…")
    }

    private mutating func skipSpace() {
        while i < b.count, TrackFile.isSpace(b[i]) { i += 1 }
    }

    /// An element or attribute name, lowercased, without its namespace prefix.
    private mutating func tagName(_ start: Int) throws(TrackFileError) -> String {
        let from = i
        while i < b.count, !TrackFile.isSpace(b[i]), b[i] != UInt8(ascii: ">"), b[i] != UInt8(ascii: "/"),
            b[i] != UInt8(ascii: "="), b[i] != UInt8(ascii: "<")
        {
            i += 1
        }
        guard i > from else { throw truncatedOrBad(start, "<") }
        let raw = b[from..<i]
        let local = raw.lastIndex(of: UInt8(ascii: ":")).map { raw[($0 + 1)...] } ?? raw
        return TrackFile.text(local).lowercased()
    }

    private mutating func tagAttributes(_ element: String, start: Int) throws(TrackFileError)
        -> (attributes: [String: ArraySlice<UInt8>], selfClosing: Bool)
    {
        var attributes: [String: ArraySlice<UInt8>] = [:]
        while true {
            skipSpace()
            guard i < b.count else { throw truncatedOrBad(start, "<\(element)") }
            if b[i] == UInt8(ascii: ">") { i += 1; return (attributes, false) }
            if b[i] == UInt8(ascii: "/") {
                i += 1
                guard i < b.count, b[i] == UInt8(ascii: ">") else { throw truncatedOrBad(start, "<\(element)") }
                i += 1
                return (attributes, true)
            }
            let name = try tagName(start)
            skipSpace()
            guard i < b.count, b[i] == UInt8(ascii: "=") else { throw truncatedOrBad(start, "<\(element) \(name)") }
            i += 1
            skipSpace()
            guard i < b.count, b[i] == UInt8(ascii: "\"") || b[i] == UInt8(ascii: "'") else {
                throw truncatedOrBad(start, "<\(element) \(name)=")
            }
            let quote = b[i]
            guard let close = b[(i + 1)...].firstIndex(of: quote) else {
                throw error(start, "file ends inside the tag <\(element) (truncated?)")
            }
            attributes[name] = b[(i + 1)..<close]
            i = close + 1
        }
    }

    private mutating func startElement(
        _ name: String, attributes: [String: ArraySlice<UInt8>],
        selfClosing: Bool, at start: Int
    ) throws(TrackFileError) {
        let line = line(at: start)
        if stack.isEmpty && !sawRoot {
            guard name == "gpx" else { throw error(start, "not a GPX file: the root element is <\(name)>, not <gpx>") }
            sawRoot = true
        }
        if name == "trk" || name == "rte" { paths.append([]) }
        if Self.pointKinds.contains(name) {
            if let p = point { throw error(start, "<\(name)> inside <\(p.kind)> opened on line \(p.line)") }
            guard let lat = attributes["lat"] else { throw error(start, "<\(name)> without a lat attribute") }
            guard let lon = attributes["lon"] else { throw error(start, "<\(name)> without a lon attribute") }
            point = OpenPoint(kind: name, line: line, lat: lat, lon: lon, depth: stack.count + 1)
            if selfClosing { try finishPoint() }
        } else if let p = point, stack.count == p.depth, name == "time" || name == "hdop" {
            if (name == "time" ? p.time : p.hdop) != nil {
                throw error(start, "<\(p.kind)> opened on line \(p.line) has a second <\(name)>")
            }
            capture = Capture(name: name, line: line)
            if selfClosing { finishCapture() }
        }
        if !selfClosing { stack.append((name, line)) }
    }

    private mutating func endElement(_ name: String, at start: Int) throws(TrackFileError) {
        guard let open = stack.popLast() else { throw error(start, "</\(name)> without a start tag") }
        guard open.name == name else { throw error(start, "</\(name)> closes <\(open.name)> opened on line \(open.line)") }
        if capture?.name == name, let p = point, stack.count == p.depth { finishCapture() }
        if let p = point, stack.count == p.depth - 1 { try finishPoint() }
    }

    private mutating func finishCapture() {
        guard let c = capture else { return }
        capture = nil
        let value = (text: TrackFile.trimmed(c.text[...]), line: c.line)
        if c.name == "time" { point?.time = value } else { point?.hdop = value }
    }

    private mutating func finishPoint() throws(TrackFileError) {
        guard let p = point else { return }
        point = nil
        let latitude = try TrackFile.latitude(p.lat, file: file, line: p.line)
        let longitude = try TrackFile.longitude(p.lon, file: file, line: p.line)
        guard let time = p.time else {
            if p.kind == "trkpt" { throw TrackFileError(file: file, line: p.line, "<trkpt> has no <time>: a replay needs the time of every track point") }
            return
        }
        guard let ms = TrackFile.timeMilliseconds(time.text, epochSeconds: false) else {
            throw TrackFileError(file: file, line: time.line, "invalid <time> \"\(TrackFile.text(time.text))\" (use ISO 8601, e.g. 2026-11-23T07:30:00Z)")
        }
        var accuracy = 0.0
        if let hdop = p.hdop {
            accuracy = try TrackFile.nonNegative(hdop.text, what: "<hdop>", file: file, line: hdop.line) * TrackFile.gpxMetresPerHDOP
        }
        let fix = LocationFix(
            coordinate: Coordinate(latitude: latitude, longitude: longitude),
            horizontalAccuracy: accuracy, timestampMilliseconds: ms)
        if p.kind == "wpt" {
            waypoints.append(TrackFile.Point(fix: fix, line: p.line))
        } else {
            if paths.isEmpty { paths.append([]) }  // a point outside <trk>/<rte>: tolerated
            paths[paths.count - 1].append(TrackFile.Point(fix: fix, line: p.line))
        }
    }
}
