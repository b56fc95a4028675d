import ChimeCore

/// Durations and alarm offsets on the command line: `15m`, `1h30m`, `-15m`, `2d`, `1w`, or an
/// RFC 5545 DURATION (`-PT15M`, `P1D`).
enum Durations {
    static let accepted = "15m, 1h30m, -10m, 2d, 1w, or -PT15M"

    static func seconds(_ text: String, option: String) throws -> Int64 {
        let t = text.filter { !$0.isWhitespace }
        if let iso = iso8601(t) { return iso }
        guard let seconds = try? DateExpression.offsetSeconds(t) else {
            throw InputError("\(option): \"\(text)\" is not a duration (use \(accepted))")
        }
        return seconds
    }

    /// `[+-]P[nW][nD][T[nH][nM][nS]]`.
    private static func iso8601(_ text: String) -> Int64? {
        var s = Substring(text.uppercased())
        var sign: Int64 = 1
        if s.first == "-" { sign = -1; s.removeFirst() } else if s.first == "+" { s.removeFirst() }
        guard s.first == "P" else { return nil }
        s.removeFirst()
        var total: Int64 = 0, number: Int64 = 0, inTime = false, digits = 0
        for c in s {
            if let d = c.wholeNumberValue { number = number * 10 + Int64(d); digits += 1; guard digits < 10 else { return nil }; continue }
            let unit: Int64
            switch (c, inTime) {
            case ("T", false): inTime = true; continue
            case ("W", false): unit = 604_800
            case ("D", false): unit = 86_400
            case ("H", true): unit = 3600
            case ("M", true): unit = 60
            case ("S", true): unit = 1
            default: return nil
            }
            guard digits > 0 else { return nil }
            total += number * unit
            number = 0
            digits = 0
        }
        return digits == 0 && !s.isEmpty ? sign * total : nil
    }
}

