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

    /// The item's own lines among its kept ones: a component kept whole inside it (an email
    /// `VALARM` from Google, with its own `ATTENDEE`, the address it mails) is passed over from its
    /// `BEGIN:` to its `END:`, so its lines never read as the item's.
    ///
    /// ```swift
    /// ICalendarText.topLevel(["STATUS:CONFIRMED", "BEGIN:VALARM", "ATTENDEE:mailto:me@example.com", "END:VALARM"])
    /// // ["STATUS:CONFIRMED"]
    /// ```
    public static func topLevel(_ lines: [String]) -> [String] {
        guard lines.contains(where: isBegin) else { return lines }
        return topLevelIndices(lines).map { lines[$0] }
    }

    /// The positions of ``topLevel(_:)``'s lines in `lines`, for a caller that takes some out.
    ///
    /// ```swift
    /// ICalendarText.topLevelIndices(["STATUS:CONFIRMED", "BEGIN:VALARM", "ACTION:EMAIL", "END:VALARM", "X-A:1"])
    /// // [0, 4]
    /// ```
    public static func topLevelIndices(_ lines: [String]) -> [Int] {
        guard lines.contains(where: isBegin) else { return Array(lines.indices) }
        var depth = 0
        return lines.indices.filter { i in
            let line = lines[i]
            if isBegin(line) {
                depth += 1
                return false
            }
            if depth > 0 {
                if line.utf8.count >= 4, line.prefix(4).uppercased() == "END:" { depth -= 1 }
                return false
            }
            return true
        }
    }

    /// Kept lines without the components kept whole inside them that are named `name` (the
    /// e-mail VALARMs Chime keeps but does not send), from each `BEGIN:` to its `END:`.
    ///
    /// ```swift
    /// ICalendarText.removingComponents(named: "VALARM", from: ["X-A:1", "BEGIN:VALARM", "ACTION:EMAIL", "END:VALARM"])
    /// // ["X-A:1"]
    /// ```
    public static func removingComponents(named name: String, from lines: [String]) -> [String] {
        guard lines.contains(where: isBegin) else { return lines }
        let begin = "BEGIN:" + name.uppercased()
        var depth = 0, removing = false
        return lines.filter { line in
            if isBegin(line) {
                if depth == 0 { removing = line.uppercased() == begin }
                depth += 1
                return !removing
            }
            if depth > 0 {
                if line.utf8.count >= 4, line.prefix(4).uppercased() == "END:" { depth -= 1 }
                return !removing
            }
            return true
        }
    }

    /// An item's kept lines after its location changed: the place Apple's Calendar and Reminders
    /// pin to the location (`X-APPLE-STRUCTURED-LOCATION`, with its map coordinates) goes when it
    /// is still the one stored with the old location, so no client shows the old pin beside the
    /// new text. One the writer brought itself (a server's newer copy) stays.
    ///
    /// ```swift
    /// let pin = "X-APPLE-STRUCTURED-LOCATION;VALUE=URI;X-TITLE=Office:geo:52.52,13.40"
    /// ICalendarText.keptAfterLocationChange(["X-A:1", pin], stored: [pin])   // ["X-A:1"]
    /// ```
    public static func keptAfterLocationChange(_ lines: [String], stored: [String]) -> [String] {
        let property = "X-APPLE-STRUCTURED-LOCATION"
        guard lines.contains(where: { isLine($0, of: property) }) else { return lines }
        let storedPins = Set(topLevel(stored).filter { isLine($0, of: property) })
        let top = Set(topLevelIndices(lines))
        return lines.indices.filter { !(top.contains($0) && storedPins.contains(lines[$0])) }.map { lines[$0] }
    }

    private static func isBegin(_ line: String) -> Bool { beginsComponent(line) }

    /// Whether a kept line is a component's `BEGIN:` (any case). Byte by byte: an export asks
    /// this of every kept line of thousands of items.
    public static func beginsComponent(_ line: String) -> Bool {
        var bytes = line.utf8.makeIterator()
        for expected in "BEGIN:".utf8 {
            guard let byte = bytes.next() else { return false }
            // ASCII letters compare without case; ':' must match as it is.
            if byte != expected && (expected == UInt8(ascii: ":") || byte | 0x20 != expected | 0x20) { return false }
        }
        return true
    }

    /// The value of the first content line of `property` among `lines` (kept lines of an item or
    /// an alarm), spaces trimmed; nil when none is there. Lines of other properties are passed
    /// over on their first bytes, without splitting them: every alarm decision asks.
    ///
    /// ```swift
    /// ICalendarText.firstValue(of: "STATUS", in: ["SUMMARY:x", "STATUS;X-P=1:cancelled"])   // "cancelled"
    /// ```
    public static func firstValue(of property: String, in lines: [String]) -> String? {
        lines.first { isLine($0, of: property) }.map { Participant.split($0).2.trimmingSpaces() }
    }

    /// Whether `line` is a content line of `property` (its name, in any case, then `:` or `;`).
    /// `property` is written in uppercase.
    ///
    /// ```swift
    /// ICalendarText.isLine("x-moz-lastack:20261201T090000Z", of: "X-MOZ-LASTACK")   // true
    /// ```
    public static func isLine(_ line: String, of property: String) -> Bool {
        guard hasNamePrefix(line, property) else { return false }
        let next = line.utf8.dropFirst(property.utf8.count).first
        return next == UInt8(ascii: ":") || next == UInt8(ascii: ";")
    }

    /// Whether `line` starts with `uppercaseName` in any case of ASCII letters, without copying it.
    public static func hasNamePrefix(_ line: String, _ uppercaseName: String) -> Bool {
        let bytes = line.utf8, name = uppercaseName.utf8
        return bytes.count >= name.count
            && zip(bytes, name).allSatisfy { $0 == $1 || ($0 >= 0x61 && $0 <= 0x7A && $0 - 0x20 == $1) }
    }
}
