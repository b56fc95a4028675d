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
    /// The parts between each `separator`, as `split(separator:)` gives them, found by byte when
    /// the text is ASCII: splitting by Character reads the text grapheme by grapheme, which cost a
    /// third of reading an RRULE. Other text is split by Character, where a separator may be
    /// written as an equivalent character or carry a combining mark.
    ///
    /// ```swift
    /// "FREQ=DAILY;;COUNT=3"[...].splitASCII(";", omittingEmptySubsequences: false)   // ["FREQ=DAILY", "", "COUNT=3"]
    /// ```
    public func splitASCII(_ separator: Unicode.Scalar, omittingEmptySubsequences: Bool = true) -> [Substring] {
        var text = self
        guard text.withUTF8(ASCIICase.isASCII) else {
            return split(separator: Character(separator), omittingEmptySubsequences: omittingEmptySubsequences)
        }
        return utf8.split(separator: UInt8(ascii: separator), omittingEmptySubsequences: omittingEmptySubsequences).map { Substring($0) }
    }
}

extension String {
    /// ``Swift/Substring/splitASCII(_:omittingEmptySubsequences:)`` of the whole string.
    public func splitASCII(_ separator: Unicode.Scalar, omittingEmptySubsequences: Bool = true) -> [Substring] {
        self[...].splitASCII(separator, omittingEmptySubsequences: omittingEmptySubsequences)
    }

    /// The text after `prefix` (ASCII, without a carriage return) when the text starts with it,
    /// as `hasPrefix` and `dropFirst(prefix.count)` say; nil when it does not. Compared byte by
    /// byte where the text is ASCII, by Character where it is not (a canonically equivalent
    /// letter, a combining mark after the prefix): for the markers an import looks for in every item.
    ///
    /// ```swift
    /// "X-CHIME-CALENDAR:Work".droppingASCIIPrefix("X-CHIME-CALENDAR:")   // "Work"
    /// ```
    public func droppingASCIIPrefix(_ prefix: String) -> Substring? {
        var text = self, bytes = prefix
        let matched: Bool? = text.withUTF8 { text in
            bytes.withUTF8 { prefix in
                guard text.count >= prefix.count else { return false }
                for i in prefix.indices {
                    if text[i] >= 0x80 { return nil }
                    if text[i] != prefix[i] { return false }
                }
                return text.count > prefix.count && text[prefix.count] >= 0x80 ? nil : true
            }
        }
        switch matched {
        case true?: return Substring(utf8.dropFirst(prefix.utf8.count))
        case false?: return nil
        case nil: return hasPrefix(prefix) ? dropFirst(prefix.count) : nil
        }
    }

    /// Whether ``droppingASCIIPrefix(_:)`` finds `prefix`.
    ///
    /// ```swift
    /// "SKIP=BACKWARD".hasASCIIPrefix("SKIP=")   // true
    /// ```
    public func hasASCIIPrefix(_ prefix: String) -> Bool { droppingASCIIPrefix(prefix) != nil }
}

private enum ASCIICase {
    /// Whether a lower-case ASCII letter or a non-ASCII byte is in the text. Read from the
    /// string's own bytes: through `String.UTF8View` the check cost more than the rest of a
    /// property's reading.
    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in bytes where byte >= 0x80 { return false }
        return true
    }

    static func needsUppercasing(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in bytes where byte &- 97 < 26 || byte >= 128 { return true }
        return false
    }
}
