import ChimeCore
import Foundation

/// Durations and alarm offsets on the command line: `15m`, `1h30m`, `-15m`, `2d`, `1w`, or an
/// RFC 5545 DURATION (`-PT15M`, `P1D`).
public enum Durations {
    public static let accepted = "15m, 1h30m, 90 min, 1.5h, -10m, 2d, 1w, or -PT15M"

    public static func seconds(_ text: String, option: String, phrases: DatePhrases = .none) throws(InputError) -> Int64 {
        if let seconds = englishSeconds(text) { return seconds }
        // In the user's language (`15 минут`, `1 Stunde 30 Minuten`), when English does not read it.
        let english = phrases.english(text) { englishSeconds($0) != nil }
        if english != text, let seconds = englishSeconds(english) { return seconds }
        throw InputError(translatable: "{option}: \"{text}\" is not a duration (use {accepted})", ["option": option, "text": text, "accepted": accepted])
    }

    private static func englishSeconds(_ text: String) -> Int64? {
        let t = text.filter { !$0.isWhitespace }
        if let iso = ISODuration.seconds(t) { return iso }
        if let seconds = try? DateExpression.offsetSeconds(t) { return seconds }
        let words = text.lowercased().trimmingCharacters(in: .whitespaces)
        // `90 min`, `1 hour 30 minutes`: the words `in 2 hours` takes for dates.
        if case .instant(let i)? = try? DateExpression.parse("in " + words, now: Instant(secondsSince1970: 0), zone: .utc) {
            return i.secondsSince1970
        }
        return fraction(words)
    }

    /// `1.5h`, `2,5 hours`, `0.5 d`: a decimal amount of one unit, to the whole minute.
    private static func fraction(_ text: String) -> Int64? {
        let number = text.prefix { $0.isNumber || $0 == "." || $0 == "," }
        let unit = text.dropFirst(number.count).trimmingCharacters(in: .whitespaces)
        let units: [String: Double] = [
            "m": 60, "min": 60, "mins": 60, "minute": 60, "minutes": 60,
            "h": 3600, "hr": 3600, "hrs": 3600, "hour": 3600, "hours": 3600,
            "d": 86_400, "day": 86_400, "days": 86_400, "w": 604_800, "week": 604_800, "weeks": 604_800
        ]
        guard let scale = units[unit], let amount = Double(number.replacingOccurrences(of: ",", with: ".")),
            amount.isFinite, amount >= 0, amount < 1e7
        else { return nil }
        return Int64((amount * scale / 60).rounded()) * 60
    }

    public static let alarmAccepted = "15m, 1h30m, 1d (before), +15m or 'after 15m' (after), 0 (at the time)"

    /// An alarm offset as people say it: no sign means *before* (as every calendar app reads
    /// "15 minutes"); `-15m` and `15m before` are the same; `+15m`, `after 15m` and `15m after`
    /// are after; `0` is at the start or due time. RFC 5545 durations (`-PT15M`) keep their sign;
    /// without one they are read as before too.
    public static func alarmOffset(_ text: String, phrases: DatePhrases = .none) throws(InputError) -> Int64 {
        var t = text.lowercased().trimmingCharacters(in: .whitespaces)
        var after = false
        for (word, isAfter) in [("after", true), ("before", false)] {
            if t.hasPrefix(word + " ") {
                t.removeFirst(word.count + 1); after = isAfter
            } else if t.hasSuffix(" " + word) {
                t.removeLast(word.count + 1); after = isAfter
            }
        }
        t = t.trimmingCharacters(in: .whitespaces)
        if t.hasPrefix("+") { after = true; t.removeFirst() } else if t.hasPrefix("-") { t.removeFirst() }
        if t == "0" { return 0 }
        let seconds = try Durations.seconds(t, option: "--alarm", phrases: phrases)
        guard seconds >= 0 else { throw InputError(translatable: "--alarm: \"{text}\" has two signs", ["text": text]) }
        return after ? seconds : -seconds
    }
}
