/// RFC 5545 DURATION values (`-PT15M`, `P1D`, `P2W`, `PT1H30M`) as signed seconds.
///
/// ```swift
/// ISODuration.seconds("-PT15M")   // -900
/// ISODuration.format(-900)        // "-PT15M"
/// ```
public enum ISODuration {
    /// `[+-]P[nW][nD][T[nH][nM][nS]]`.
    public static func seconds(_ text: String) -> Int64? {
        // Read byte by byte, letters in either case: every alarm of a file passes here, and
        // upper-casing the text and reading it as Characters cost more than the rest of the alarm.
        var s = text.utf8[...]
        var sign: Int64 = 1
        if s.first == UInt8(ascii: "-") {
            sign = -1
            s = s.dropFirst()
        } else if s.first == UInt8(ascii: "+") {
            s = s.dropFirst()
        }
        guard let p = s.first, p & 0xDF == UInt8(ascii: "P") else { return nil }
        s = s.dropFirst()
        var total: Int64 = 0, number: Int64 = 0, inTime = false, digits = 0
        for byte in s {
            if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                number = number * 10 + Int64(byte - UInt8(ascii: "0"))
                digits += 1
                guard digits < 10 else { return nil }
                continue
            }
            let unit: Int64
            // An ASCII letter in upper case (0xDF clears the lower-case bit; no other byte becomes a letter).
            switch (byte & 0xDF, inTime) {
            case (UInt8(ascii: "T"), false):
                inTime = true
                continue
            case (UInt8(ascii: "W"), false): unit = 604_800
            case (UInt8(ascii: "D"), false): unit = 86_400
            case (UInt8(ascii: "H"), true): unit = 3600
            case (UInt8(ascii: "M"), true): unit = 60
            case (UInt8(ascii: "S"), true): unit = 1
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
