import ChimeCore

extension DisplayText {
    /// `15 min`, `1 h 30 min`, `2 days`, `1 week`.
    public static func length(_ seconds: Int64) -> String {
        var parts: [String] = []
        var rest = seconds
        for (unit, one, many) in [
            (Int64(604_800), "week", "weeks"), (86_400, "day", "days"), (3600, "h", "h"),
            (60, "min", "min"), (1, "s", "s")
        ] where rest >= unit {
            let n = rest / unit
            parts.append("\(n) \(n == 1 ? one : many)")
            rest %= unit
        }
        return parts.joined(separator: " ")
    }

    /// ``length(_:)`` in the user's language: `15 Min.`, `2 дня`, `1 h 30 min` (English as above).
    ///
    /// ```swift
    /// DisplayText.length(5_400, messages: .english)   // "1 h 30 min"
    /// ```
    public static func length(_ seconds: Int64, messages: Messages) -> String {
        guard messages.language != nil else { return length(seconds) }
        var parts: [String] = []
        var rest = seconds
        for unit: Int64 in [604_800, 86_400, 3600, 60, 1] where rest >= unit {
            let n = rest / unit
            rest %= unit
            switch unit {
            case 604_800: parts.append(messages.plural("{count} week", "{count} weeks", count: Int(n)))
            case 86_400: parts.append(messages.plural("{count} day", "{count} days", count: Int(n)))
            case 3600: parts.append(messages("{n} h", context: "snooze length", ["n": "\(n)"]))
            case 60: parts.append(messages("{n} min", context: "snooze length", ["n": "\(n)"]))
            default: parts.append(messages("{n} s", context: "length", ["n": "\(n)"]))
            }
        }
        return parts.joined(separator: " ")
    }

    /// The columns `text` takes on a terminal: East Asian wide and full-width characters (CJK,
    /// kana, hangul, full-width forms) take two, combining marks none, the rest one. For lining
    /// up labels (`show`); titles are cut by characters (``LineFit``).
    public static func columns(_ text: String) -> Int {
        var n = 0
        for scalar in text.unicodeScalars {
            let v = scalar.value
            if scalar.properties.generalCategory == .nonspacingMark || scalar.properties.generalCategory == .enclosingMark { continue }
            let wide =
                (0x1100...0x115F).contains(v) || (0x2E80...0x303E).contains(v) || (0x3041...0x33FF).contains(v)
                || (0x3400...0x4DBF).contains(v) || (0x4E00...0x9FFF).contains(v) || (0xA000...0xA4CF).contains(v)
                || (0xAC00...0xD7A3).contains(v) || (0xF900...0xFAFF).contains(v) || (0xFE30...0xFE4F).contains(v)
                || (0xFF00...0xFF60).contains(v) || (0xFFE0...0xFFE6).contains(v) || (0x20000...0x3FFFD).contains(v)
            n += wide ? 2 : 1
        }
        return n
    }
}
