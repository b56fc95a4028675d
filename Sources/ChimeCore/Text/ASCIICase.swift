extension String {
    /// The text in upper case, the same string when it has no lower-case ASCII letter and is all
    /// ASCII: what an iCalendar reader does to names and keywords (`VEVENT`, `TZID`,
    /// `FREQ=WEEKLY`) that are nearly always upper case already, thousands of times per file.
    ///
    /// ```swift
    /// "vevent".asciiUppercased   // "VEVENT"
    /// "DTSTART".asciiUppercased  // "DTSTART", the same storage
    /// ```
    public var asciiUppercased: String { ASCIICase.needsUppercasing(utf8) ? uppercased() : self }
}

extension Substring {
    /// ``Swift/String/asciiUppercased`` for a part of a string.
    ///
    /// ```swift
    /// "freq=weekly".split(separator: "=")[0].asciiUppercased   // "FREQ"
    /// ```
    public var asciiUppercased: String { ASCIICase.needsUppercasing(utf8) ? uppercased() : String(self) }
}

private enum ASCIICase {
    /// Whether a lower-case ASCII letter or a non-ASCII byte is in the text.
    static func needsUppercasing(_ utf8: some Sequence<UInt8>) -> Bool {
        utf8.contains { ($0 >= 97 && $0 <= 122) || $0 >= 128 }
    }
}
