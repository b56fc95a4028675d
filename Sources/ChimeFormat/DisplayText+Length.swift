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
}
