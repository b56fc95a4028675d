/// iCalendar TEXT values (RFC 5545 §3.3.11): the one escaper every writer uses.
public enum ICalendarText {
    /// Backslash, semicolon and comma escaped; every line break — LF, CRLF or a lone CR (old Mac
    /// files) — written as `\n`, so no raw CR or LF ever ends up inside a content line.
    ///
    /// ```swift
    /// ICalendarText.escaped("Lunch; bring A, B\r\nRoom 4")   // "Lunch\\; bring A\\, B\\nRoom 4"
    /// ```
    public static func escaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for c in text {
            switch c {
            case "\\": out += "\\\\"
            case ";": out += "\\;"
            case ",": out += "\\,"
            case "\n", "\r\n", "\r": out += "\\n"
            default: out.append(c)
            }
        }
        return out
    }
}
