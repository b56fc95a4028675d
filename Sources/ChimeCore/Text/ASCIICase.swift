extension String {
    /// The text in upper case, the same string when it has no lower-case ASCII letter and is all
    /// ASCII: what an iCalendar reader does to names and keywords (`VEVENT`, `TZID`,
    /// `FREQ=WEEKLY`) that are nearly always upper case already, thousands of times per file.
    ///
    /// ```swift
    /// "vevent".asciiUppercased   // "VEVENT"
    /// "DTSTART".asciiUppercased  // "DTSTART", the same storage
    /// ```
    public var asciiUppercased: String {
        var text = self
        return text.withUTF8(ASCIICase.needsUppercasing) ? uppercased() : self
    }
}

extension Substring {
    /// ``Swift/String/asciiUppercased`` for a part of a string.
    ///
    /// ```swift
    /// "freq=weekly".split(separator: "=")[0].asciiUppercased   // "FREQ"
    /// ```
    public var asciiUppercased: String {
        var text = self
        return text.withUTF8(ASCIICase.needsUppercasing) ? uppercased() : String(self)
    }
}

extension Substring {
    /// The parts between each `separator`, as `split(separator:)` gives them, found by byte:
    /// splitting by Character reads the text grapheme by grapheme, which cost a third of reading
    /// an RRULE. Only for an ASCII separator in text such as `FREQ=WEEKLY;BYDAY=MO,TU`, where a
    /// separator is never followed by a combining mark.
    ///
    /// ```swift
    /// "FREQ=DAILY;;COUNT=3"[...].splitASCII(";", omittingEmptySubsequences: false)   // ["FREQ=DAILY", "", "COUNT=3"]
    /// ```
    public func splitASCII(_ separator: Unicode.Scalar, omittingEmptySubsequences: Bool = true) -> [Substring] {
        utf8.split(separator: UInt8(ascii: separator), omittingEmptySubsequences: omittingEmptySubsequences).map { Substring($0) }
    }
}

extension String {
    /// ``Swift/Substring/splitASCII(_:omittingEmptySubsequences:)`` of the whole string.
    public func splitASCII(_ separator: Unicode.Scalar, omittingEmptySubsequences: Bool = true) -> [Substring] {
        self[...].splitASCII(separator, omittingEmptySubsequences: omittingEmptySubsequences)
    }
}

extension String {
    /// Whether the text starts with `prefix`, compared byte by byte in the strings' own storage
    /// (no Unicode normalization): for the ASCII names and markers an import looks for in every item.
    ///
    /// ```swift
    /// "X-CHIME-CALENDAR:Work".hasASCIIPrefix("X-CHIME-CALENDAR:")   // true
    /// ```
    public func hasASCIIPrefix(_ prefix: String) -> Bool {
        var text = self, prefix = prefix
        return text.withUTF8 { text in
            prefix.withUTF8 { prefix in
                guard text.count >= prefix.count else { return false }
                for i in prefix.indices where text[i] != prefix[i] { return false }
                return true
            }
        }
    }
}

private enum ASCIICase {
    /// Whether a lower-case ASCII letter or a non-ASCII byte is in the text. Read from the
    /// string's own bytes: through `String.UTF8View` the check cost more than the rest of a
    /// property's reading.
    static func needsUppercasing(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in bytes where byte &- 97 < 26 || byte >= 128 { return true }
        return false
    }
}
