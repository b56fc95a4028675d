import ChimeCore

/// Where the daemon gets positions from, as spelled on the command line (`--location`) and in
/// the config file (`location = "…"`):
///
/// | spelling | source |
/// |---|---|
/// | `geoclue` | GeoClue2 (the default) |
/// | `none` | no positions: geofence alarms stay silent |
/// | `replay:FILE` | a recorded track (GPX, NMEA, CSV), see ``ReplayProvider`` |
/// | `fixed:LAT,LON[,ACCURACY]` | always at one place, see ``FixedProvider`` |
///
/// ```swift
/// try LocationSource(parsing: "fixed:52.52,13.405,25")  // .fixed(52.52000,13.40500, accuracy: 25)
/// try LocationSource(parsing: "fixed:91,0")
/// // throws: invalid location source "fixed:91,0": latitude must be in -90…90
/// ```
public enum LocationSource: Hashable, Sendable, CustomStringConvertible {
    case geoclue
    case replay(path: String)
    /// A place and its accuracy in metres (≥ 0).
    case fixed(Coordinate, accuracy: Double)
    case none

    /// The accepted spellings, for help texts and errors.
    public static let accepted = "geoclue, none, replay:FILE or fixed:LAT,LON[,ACCURACY]"

    /// Reads a spelling (the words are case-insensitive, surrounding whitespace is ignored).
    public init(parsing text: String) throws(LocationSourceError) {
        var trimmed = Substring(text)
        while trimmed.first?.isWhitespace == true { trimmed.removeFirst() }
        while trimmed.last?.isWhitespace == true { trimmed.removeLast() }
        func fail(_ reason: String) -> LocationSourceError { LocationSourceError(text: text, reason: reason) }
        guard let colon = trimmed.firstIndex(of: ":") else {
            switch trimmed.lowercased() {
            case "geoclue": self = .geoclue
            case "none": self = .none
            case "replay": throw fail("replay needs a file: replay:FILE")
            case "fixed": throw fail("fixed needs a place: fixed:LAT,LON[,ACCURACY]")
            case "": throw fail("empty; use \(Self.accepted)")
            default: throw fail("unknown source; use \(Self.accepted)")
            }
            return
        }
        let kind = trimmed[..<colon].lowercased()
        let value = trimmed[trimmed.index(after: colon)...]
        switch kind {
        case "replay":
            guard !value.isEmpty else { throw fail("replay needs a file: replay:FILE") }
            self = .replay(path: String(value))
        case "fixed":
            let parts = value.split(separator: ",", omittingEmptySubsequences: false)
                .map { String($0.filter { !$0.isWhitespace }) }
            guard parts.count == 2 || parts.count == 3 else {
                throw fail("expected fixed:LAT,LON[,ACCURACY] with decimal degrees and metres")
            }
            func number(_ s: String, _ what: String) throws(LocationSourceError) -> Double {
                guard !s.isEmpty, s.allSatisfy({ $0.isASCII && ($0.isNumber || "+-.eE".contains($0)) }),
                    let v = Double(s), v.isFinite
                else { throw fail("\(what) \"\(s)\" is not a number") }
                return v
            }
            let latitude = try number(parts[0], "latitude")
            let longitude = try number(parts[1], "longitude")
            let accuracy = parts.count == 3 ? try number(parts[2], "accuracy") : 0
            guard (-90...90).contains(latitude) else { throw fail("latitude must be in -90…90") }
            guard (-180...180).contains(longitude) else { throw fail("longitude must be in -180…180") }
            guard accuracy >= 0, accuracy <= 100_000 else { throw fail("accuracy must be 0…100000 metres") }
            self = .fixed(Coordinate(latitude: latitude, longitude: longitude), accuracy: accuracy)
        default:
            throw fail("unknown source \"\(trimmed[..<colon])\"; use \(Self.accepted)")
        }
    }

    /// The spelling back: `geoclue`, `none`, `replay:commute.gpx`, `fixed:52.52000,13.40500[,25]`.
    public var description: String {
        switch self {
        case .geoclue: return "geoclue"
        case .none: return "none"
        case .replay(let path): return "replay:\(path)"
        case .fixed(let c, let accuracy):
            guard accuracy != 0 else { return "fixed:\(c)" }
            let metres = accuracy == accuracy.rounded() && accuracy < 1e15 ? String(Int64(accuracy)) : String(accuracy)
            return "fixed:\(c),\(metres)"
        }
    }
}

/// A `--location` / `location =` value that could not be read:
/// `invalid location source "fixed:91,0": latitude must be in -90…90`.
public struct LocationSourceError: Error, Hashable, Sendable, CustomStringConvertible {
    public var text: String
    public var reason: String

    public init(text: String, reason: String) {
        self.text = text
        self.reason = reason
    }

    public var description: String { "invalid location source \"\(text)\": \(reason)" }
}
