/// Short human texts shared by the CLI and notifications: day headings, clock times, offsets,
/// alarm descriptions. Pure formatting, no locale (English, 24-hour clock); a place's alarm in
/// the user's words through ``alarm(_:messages:)``.
///
/// ```swift
/// DisplayText.offset(-900)                      // "-15m"
/// DisplayText.alarm(.relative(-900))            // "15m before the start/due date"
/// DisplayText.singleLine("Lunch\n09:00\u{1b}[31m")  // "Lunch 09:00[31m"
/// ```
public enum DisplayText {
    /// Text from an item (title, notes, place, calendar name, identifier) made safe to print on
    /// one terminal line: line and tab characters become a space; the other control characters
    /// (C0, DEL, C1 — ESC among them, so no escape sequence survives) and the bidirectional
    /// overrides and isolates (U+202A–U+202E, U+2066–U+2069, which reorder what follows them)
    /// are dropped. Every human-readable output of item text goes through here.
    public static func singleLine(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 || $0 == 0xE2 }) else { return text }
        var out = String.UnicodeScalarView()
        for u in text.unicodeScalars {
            switch role(of: u) {
            case .lineBreak, .tab: out.append(" ")
            case .dropped: continue
            case .kept: out.append(u)
            }
        }
        return String(out)
    }

    /// An item's title as people read it: ``singleLine(_:)``, and "(no title)" for an untitled
    /// item (RFC 5545 makes SUMMARY optional; Google exports events without one).
    public static func itemTitle(_ title: String) -> String {
        let line = singleLine(title)
        return line.allSatisfy(\.isWhitespace) ? "(no title)" : line
    }

    /// What item text does with a character when it is shown to people.
    public enum ScalarRole: Sendable {
        /// LF, VT, FF, CR, NEL, U+2028, U+2029: a new line where lines are allowed, else a space.
        case lineBreak
        case tab
        /// C0 and C1 controls (ESC among them), DEL, bidirectional overrides and isolates.
        case dropped
        case kept
    }

    /// The one classification ``singleLine(_:)`` and notification text use.
    public static func role(of u: Unicode.Scalar) -> ScalarRole {
        switch u.value {
        case 0x09: return .tab
        case 0x0A...0x0D, 0x85, 0x2028, 0x2029: return .lineBreak
        case 0x00..<0x20, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: return .dropped
        default: return .kept
        }
    }

    /// True for the scalars ``singleLine(_:)`` replaces or drops.
    public static func isUnsafe(_ u: Unicode.Scalar) -> Bool { role(of: u) != .kept }

    /// `Mon` … `Sun`, in ISO order (index ``Weekday/isoIndex``).
    public static let weekdayNames = (0..<7).map { String(Weekday(isoIndex: $0).name.prefix(3)) }

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

    public static func alarm(_ a: Alarm) -> String {
        switch a.trigger {
        case .absolute(let i): return "at \(i)"
        case .relative(let o, let relation):
            return "\(offset(o).dropFirst()) \(o < 0 ? "before" : "after") \(relation == .end ? "the end" : "the start/due date")"
        case .location: return alarm(a, messages: .english)
        }
    }

    /// ``alarm(_:)`` with a location alarm's words in the user's language (`beim Ankommen bei
    /// Supermarkt (52.525,13.402, Standardradius)`); the other kinds as ``alarm(_:)`` says them.
    ///
    /// ```swift
    /// DisplayText.alarm(.location(StructuredLocation(title: "Office", latitude: 52.5, longitude: 13.4), .leave),
    ///                   messages: messages)  // "on leaving Office (52.5,13.4, default radius)" in English
    /// ```
    public static func alarm(_ a: Alarm, messages: Messages) -> String {
        guard case .location(let p, let proximity) = a.trigger else { return alarm(a) }
        let radius =
            p.radius == 0
            ? messages("default radius", context: "alarm") : messages("{meters} m", context: "alarm", ["meters": "\(Int(p.radius))"])
        let values: KeyValuePairs = ["place": singleLine(p.title), "latitude": "\(p.latitude)", "longitude": "\(p.longitude)", "radius": radius]
        return proximity == .enter
            ? messages("on arriving at {place} ({latitude},{longitude}, {radius})", context: "alarm", values)
            : messages("on leaving {place} ({latitude},{longitude}, {radius})", context: "alarm", values)
    }
}
