import ChimeCore

extension DisplayText {
    /// `15 min`, `1 h 30 min`, `2 days`, `1 week`.
    public static func length(_ seconds: Int64) -> String { length(seconds, messages: .english) }

    /// ``length(_:)`` in the user's language: `15 Min.`, `2 дня`, `1 h 30 min` (English: the
    /// catalog's source texts, `1 week`, `2 days`).
    ///
    /// ```swift
    /// DisplayText.length(5_400, messages: .english)   // "1 h 30 min"
    /// ```
    public static func length(_ seconds: Int64, messages: Messages) -> String {
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

    /// How long ago, in the coarsest unit that still says it: `45 s ago`, `12 min ago`, `3 h ago`,
    /// `2 days ago` (a plural, so `1 day ago`).
    ///
    /// ```swift
    /// DisplayText.ago(7_300, messages: .english)   // "2 h ago"
    /// ```
    public static func ago(_ seconds: Int64, messages: Messages) -> String {
        if seconds < 120 { return messages("{n} s ago", ["n": "\(seconds)"]) }
        if seconds < 7200 { return messages("{n} min ago", ["n": "\(seconds / 60)"]) }
        if seconds < 172_800 { return messages("{n} h ago", ["n": "\(seconds / 3600)"]) }
        return messages.plural("{count} day ago", "{count} days ago", count: Int(seconds / 86_400))
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
