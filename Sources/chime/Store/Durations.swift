import ChimeCore

/// Durations and alarm offsets on the command line: `15m`, `1h30m`, `-15m`, `2d`, `1w`, or an
/// RFC 5545 DURATION (`-PT15M`, `P1D`).
enum Durations {
    static let accepted = "15m, 1h30m, -10m, 2d, 1w, or -PT15M"

    static func seconds(_ text: String, option: String) throws -> Int64 {
        let t = text.filter { !$0.isWhitespace }
        if let iso = ISODuration.seconds(t) { return iso }
        guard let seconds = try? DateExpression.offsetSeconds(t) else {
            throw InputError("\(option): \"\(text)\" is not a duration (use \(accepted))")
        }
        return seconds
    }
}
