/// Short human texts shared by the CLI and notifications: day headings, clock times, offsets,
/// alarm descriptions. Pure formatting, no locale (English, 24-hour clock).
///
/// ```swift
/// DisplayText.offset(-900)                      // "-15m"
/// DisplayText.alarm(.relative(-900))            // "15m before the start/due date"
/// ```
public enum DisplayText {
    public static let weekdayNames = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]

    /// `Mon 2026-11-30`.
    public static func dayHeading(_ d: CivilDate) -> String { "\(weekdayNames[d.weekday.isoIndex]) \(d)" }

    public static func hhmm(_ l: LocalDateTime) -> String {
        (l.hour < 10 ? "0" : "") + "\(l.hour):" + (l.minute < 10 ? "0" : "") + "\(l.minute)"
    }

    public static func offset(_ seconds: Int64) -> String {
        let sign = seconds < 0 ? "-" : "+"
        var s = abs(seconds)
        var parts: [String] = []
        for (unit, name) in [(Int64(86_400), "d"), (3600, "h"), (60, "m"), (1, "s")] where s >= unit {
            parts.append("\(s / unit)\(name)")
            s %= unit
        }
        return sign + (parts.isEmpty ? "0m" : parts.joined())
    }

    /// True for characters that must not reach a terminal or a notification from item text:
    /// C0 and C1 controls, DEL, and the bidirectional overrides that reorder what is shown.
    public static func isInvisibleControl(_ c: Unicode.Scalar) -> Bool {
        switch c.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    public static func alarm(_ a: Alarm) -> String {
        switch a.trigger {
        case .absolute(let i): return "at \(i)"
        case .relative(let o, let relation):
            return "\(offset(o).dropFirst()) \(o < 0 ? "before" : "after") \(relation == .end ? "the end" : "the start/due date")"
        case .location(let p, let proximity):
            let radius = p.radius == 0 ? "default radius" : "\(Int(p.radius)) m"
            return "on \(proximity == .enter ? "arriving at" : "leaving") \(p.title) (\(p.latitude),\(p.longitude), \(radius))"
        }
    }
}
