extension StringProtocol {
    /// The text in upper case, without a new string when it has no lower-case ASCII letter and is
    /// all ASCII: what an iCalendar reader does to names and keywords (`VEVENT`, `TZID`,
    /// `FREQ=WEEKLY`) that are nearly always upper case already, thousands of times per file.
    ///
    /// ```swift
    /// "vevent".asciiUppercased   // "VEVENT"
    /// "DTSTART".asciiUppercased  // "DTSTART", the same storage
    /// ```
    public var asciiUppercased: String {
        var needsWork = false
        for byte in utf8 where (byte >= 97 && byte <= 122) || byte >= 128 {
            needsWork = true
            break
        }
        if !needsWork, let same = self as? String { return same }
        return needsWork ? uppercased() : String(self)
    }
}
