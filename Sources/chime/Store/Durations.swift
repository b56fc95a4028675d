import ChimeCore
import Foundation

/// Durations and alarm offsets on the command line: `15m`, `1h30m`, `-15m`, `2d`, `1w`, or an
/// RFC 5545 DURATION (`-PT15M`, `P1D`).
enum Durations {
    static let accepted = "15m, 1h30m, -10m, 2d, 1w, or -PT15M"

    static func seconds(_ text: String, option: String) throws -> Int64 {
        let t = text.filter { !$0.isWhitespace }
        if let iso = ISODuration.seconds(t) { return iso }
        guard let seconds = try? DateExpression.offsetSeconds(t) else {
            throw InputError("\(option): \"\(text)\" is not a duration (use \(accepted))")
        }
        return seconds
    }

    static let alarmAccepted = "15m, 1h30m, 1d (before), +15m or 'after 15m' (after), 0 (at the time)"

    /// An alarm offset as people say it: no sign means *before* (as every calendar app reads
    /// "15 minutes"); `-15m` and `15m before` are the same; `+15m`, `after 15m` and `15m after`
    /// are after; `0` is at the start or due time. RFC 5545 durations (`-PT15M`) keep their sign;
    /// without one they are read as before too.
    static func alarmOffset(_ text: String) throws -> Int64 {
        var t = text.lowercased().trimmingCharacters(in: .whitespaces)
        var after = false
        for (word, isAfter) in [("after", true), ("before", false)] {
            if t.hasPrefix(word + " ") { t.removeFirst(word.count + 1); after = isAfter }
            else if t.hasSuffix(" " + word) { t.removeLast(word.count + 1); after = isAfter }
        }
        t = t.trimmingCharacters(in: .whitespaces)
        if t.hasPrefix("+") { after = true; t.removeFirst() } else if t.hasPrefix("-") { t.removeFirst() }
        if t == "0" { return 0 }
        // `15 min`, `1 hour`, `2 days`: the words `in 2 hours` takes for dates.
        if t.contains(" "), case .instant(let i)? = try? DateExpression.parse("in " + t, now: Instant(secondsSince1970: 0), zone: .utc) {
            return after ? i.secondsSince1970 : -i.secondsSince1970
        }
        let seconds = try Durations.seconds(t, option: "--alarm")
        guard seconds >= 0 else { throw InputError("--alarm: \"\(text)\" has two signs") }
        return after ? seconds : -seconds
    }
}
