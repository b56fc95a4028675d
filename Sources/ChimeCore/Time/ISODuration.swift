/// RFC 5545 DURATION values (`-PT15M`, `P1D`, `P2W`, `PT1H30M`) as signed seconds.
///
/// ```swift
/// ISODuration.seconds("-PT15M")   // -900
/// ISODuration.format(-900)        // "-PT15M"
/// ```
public enum ISODuration {
    /// `[+-]P[nW][nD][T[nH][nM][nS]]`.
    public static func seconds(_ text: String) -> Int64? {
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

    /// The canonical text of a duration: weeks when whole weeks, else days and a time part.
    public static func format(_ seconds: Int64) -> String {
        var s = seconds.magnitude
        var out = seconds < 0 ? "-P" : "P"
        if s == 0 { return "PT0S" }
        if s % 604_800 == 0 { return out + "\(s / 604_800)W" }
        if s >= 86_400 { out += "\(s / 86_400)D"; s %= 86_400 }
        if s > 0 {
            out += "T"
            if s >= 3600 { out += "\(s / 3600)H"; s %= 3600 }
            if s >= 60 { out += "\(s / 60)M"; s %= 60 }
            if s > 0 { out += "\(s)S" }
        }
        return out
    }
}
