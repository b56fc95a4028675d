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

    /// The value of the first content line of `property` among `lines` (kept lines of an item or
    /// an alarm), spaces trimmed; nil when none is there. Lines of other properties are passed
    /// over on their first bytes, without splitting them: every alarm decision asks.
    ///
    /// ```swift
    /// ICalendarText.firstValue(of: "STATUS", in: ["SUMMARY:x", "STATUS;X-P=1:cancelled"])   // "cancelled"
    /// ```
    public static func firstValue(of property: String, in lines: [String]) -> String? {
        let name = Array(property.utf8)
        for line in lines {
            let bytes = line.utf8
            guard bytes.count > name.count,
                zip(bytes, name).allSatisfy({ $0 == $1 || ($0 >= 0x61 && $0 <= 0x7A && $0 - 0x20 == $1) }),
                let next = bytes.dropFirst(name.count).first, next == UInt8(ascii: ":") || next == UInt8(ascii: ";")
            else { continue }
            return Participant.split(line).2.trimmingSpaces()
        }
        return nil
    }
}
