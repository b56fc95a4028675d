/// What a date expression names: an all-day date, a wall-clock time with no zone, or an instant.
public enum DateValue: Hashable, Sendable {
    case date(CivilDate)
    case local(LocalDateTime)
    case instant(Instant)
}

/// A date expression that could not be read; `description` is one sentence naming the text,
/// saying what is wrong and listing the accepted forms.
public struct DateExpressionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The text as given.
    public let text: String
    /// What is wrong with it, e.g. `"no such calendar date"`.
    public let reason: String

    public init(text: String, reason: String) {
        self.text = text
        self.reason = reason
    }

    public var description: String { "\"\(text)\": \(reason); use \(DateExpression.accepted)" }
}

/// The one parser for dates typed on the command line. Pure: the present comes from `now`
/// and civil dates are read on `zone`; nothing reads the system clock.
///
/// Forms (case-insensitive, surrounding whitespace ignored):
/// - ISO 8601 `2026-03-08`, `2026-03-08T02:30[:00]` (or a space for `T`), with `Z`, `±HH:MM`,
///   `±HHMM` or `±HH`; RFC 5545 basic `20260308`, `20260308T023000`, `20260308T023000Z`.
///   A date alone is `.date`, without a zone `.local`, with `Z` or an offset `.instant`.
/// - `now` → `.instant(now)`.
/// - `today`, `tomorrow`, `yesterday` → `.date`; with a time (`tomorrow 9:30`) → `.local`.
/// - `mon`…`sun`, `monday`…`sunday` → `.date` of that weekday on or after today; with a time
///   (`fri 17:00`) → `.local` on the first such day whose time is still ahead of `now`.
/// - Offsets from `now`: a sign, then numbers with units `w`, `d`, `h`, `m`, `s` in that order
///   (`+2h`, `-30m`, `+1h30m`, `+2d4h`) → `.instant`. Days and weeks are exact 86,400 and
///   604,800 seconds added to the instant, so across a DST change `+1d` moves the wall clock
///   by 23 or 25 hours; `tomorrow 9:00` is the wall-clock alternative.
///
/// ```swift
/// let ny = try ZoneRules.named("America/New_York")
/// let now = Instant(secondsSince1970: 1_795_186_800)  // Fri 2026-11-20 10:00 EST
/// try DateExpression.parse("fri 9:00", now: now, zone: ny)  // .local(2026-11-27T09:00:00)
/// try DateExpression.parse("+1h30m", now: now, zone: ny)    // .instant(2026-11-20T16:30:00Z)
/// try DateExpression.parse("2026-02-30", now: now, zone: ny) // throws: no such calendar date
/// ```
extension DateValue {
    /// The instant this value names, reading dates (at midnight) and wall times on `zone`.
    public func instant(in zone: ZoneRules) -> Instant {
        switch self {
        case .date(let d): return zone.instant(for: LocalDateTime(date: d))
        case .local(let l): return zone.instant(for: l)
        case .instant(let i): return i
        }
    }
}

public enum DateExpression {
    /// A one-line description of the accepted forms, for --help texts.
    public static let accepted = "YYYY-MM-DD[THH:MM[:SS]][Z|±HH:MM], YYYYMMDD[THHMMSS][Z], "
        + "today/tomorrow/yesterday [HH:MM], mon…sun [HH:MM], now, +2h, +3d, -30m"

    /// Reads `text`; see ``DateExpression`` for the forms.
    public static func parse(_ text: String, now: Instant, zone: ZoneRules) throws(DateExpressionError) -> DateValue {
        var s = Substring(text.lowercased())
        while s.first?.isWhitespace == true { s.removeFirst() }
        while s.last?.isWhitespace == true { s.removeLast() }
        do throws(Reason) {
            guard let first = s.utf8.first else { throw Reason("empty") }
            if first == UInt8(ascii: "+") || first == UInt8(ascii: "-") { return try relative(s, now: now) }
            if first >= 48 && first <= 57 { return try absolute(s) }
            return try words(s, now: now, zone: zone)
        } catch {
            throw DateExpressionError(text: text, reason: error.text)
        }
    }

    /// A signed length of time in the offset form (`15m`, `-1h30m`, `+2d`), in seconds; no
    /// sign means positive.
    ///
    /// ```swift
    /// try DateExpression.offsetSeconds("-1h30m")   // -5400
    /// ```
    public static func offsetSeconds(_ text: String) throws(DateExpressionError) -> Int64 {
        var s = Substring(text.lowercased().filter { !$0.isWhitespace })
        if s.first != "+" && s.first != "-" { s = "+" + s }
        do throws(Reason) {
            guard case .instant(let i) = try relative(s, now: Instant(secondsSince1970: 0)) else { throw Reason.notADate }
            return i.secondsSince1970
        } catch {
            throw DateExpressionError(text: text, reason: error.text)
        }
    }

    // MARK: - Private

    private struct Reason: Error {
        let text: String
        init(_ text: String) { self.text = text }
        static let notADate = Reason("not a date")
    }

    /// A cursor over ASCII bytes.
    private struct Scanner {
        let b: [UInt8]
        var i = 0
        init(_ text: Substring) { b = Array(text.utf8) }

        var atEnd: Bool { i == b.count }

        mutating func take(_ c: Character) -> Bool {
            guard i < b.count, b[i] == c.asciiValue! else { return false }
            i += 1
            return true
        }

        /// Exactly `count` digits.
        mutating func digits(_ count: Int) -> Int? { number(min: count, max: count) }

        /// Between `min` and `max` digits, as many as there are.
        mutating func number(min: Int = 1, max: Int) -> Int? {
            var v = 0
            var n = 0
            while n < max, i + n < b.count, b[i + n] >= 48, b[i + n] <= 57 {
                v = v * 10 + Int(b[i + n] - 48)
                n += 1
            }
            guard n >= min else { return nil }
            i += n
            return v
        }
    }

    /// ISO 8601 extended and RFC 5545 basic forms.
    private static func absolute(_ text: Substring) throws(Reason) -> DateValue {
        var s = Scanner(text)
        guard let y = s.digits(4) else { throw .notADate }
        let extended = s.take("-")
        guard let mo = s.digits(2), !extended || s.take("-"), let d = s.digits(2) else { throw .notADate }
        let date = CivilDate(year: y, month: mo, day: d)
        guard date.isValid else { throw Reason("no such calendar date") }
        if s.atEnd { return .date(date) }
        guard s.take("t") || (extended && s.take(" ")),
              let h = s.digits(2), !extended || s.take(":"), let mi = s.digits(2) else { throw .notADate }
        var sec = 0
        if !extended || s.take(":") {
            guard let x = s.digits(2) else { throw .notADate }
            sec = x
        }
        // The basic form reads a leap second (60) as 59, as RFC 5545 permits.
        guard h < 24, mi < 60, sec < (extended ? 60 : 61) else { throw Reason("no such time of day") }
        let local = LocalDateTime(date: date, hour: h, minute: mi, second: min(sec, 59))
        if s.atEnd { return .local(local) }
        if s.take("z") {
            guard s.atEnd else { throw .notADate }
            return .instant(Instant(secondsSince1970: local.localSeconds))
        }
        let sign: Int64 = s.take("+") ? 1 : s.take("-") ? -1 : 0
        guard extended, sign != 0, let oh = s.digits(2) else { throw .notADate }
        var om = 0
        if !s.atEnd {
            _ = s.take(":")
            guard let m = s.digits(2) else { throw .notADate }
            om = m
        }
        guard s.atEnd else { throw .notADate }
        guard oh < 24, om < 60 else { throw Reason("no such UTC offset") }
        return .instant(Instant(secondsSince1970: local.localSeconds - sign * Int64(oh * 3600 + om * 60)))
    }

    /// `+2h`, `-1d`, `+1h30m`: units strictly from weeks down to seconds.
    private static func relative(_ text: Substring, now: Instant) throws(Reason) -> DateValue {
        let bad = Reason("an offset takes a sign, then numbers with units w, d, h, m, s in that order (+1h30m)")
        var s = Scanner(text)
        let sign: Int64 = s.take("-") ? -1 : s.take("+") ? 1 : 0
        var total: Int64 = 0
        var previousUnit = Int64.max
        repeat {
            // At most 9 digits per amount, so the total cannot overflow.
            guard let n = s.number(max: 9), !s.atEnd else { throw bad }
            let unit: Int64
            switch s.b[s.i] {
            case UInt8(ascii: "w"): unit = 604_800
            case UInt8(ascii: "d"): unit = 86_400
            case UInt8(ascii: "h"): unit = 3600
            case UInt8(ascii: "m"): unit = 60
            case UInt8(ascii: "s"): unit = 1
            default: throw bad
            }
            guard unit < previousUnit else { throw bad }
            s.i += 1
            previousUnit = unit
            total += Int64(n) * unit
        } while !s.atEnd
        let (seconds, overflow) = now.secondsSince1970.addingReportingOverflow(sign * total)
        guard !overflow else { throw Reason("out of range") }
        return .instant(Instant(secondsSince1970: seconds))
    }

    private static let weekdayNames = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]

    /// `now`, `today`/`tomorrow`/`yesterday` and weekday names, the latter two with an optional time.
    private static func words(_ text: Substring, now: Instant, zone: ZoneRules) throws(Reason) -> DateValue {
        let parts = text.split(whereSeparator: \.isWhitespace)
        guard parts.count <= 2 else { throw .notADate }
        let word = parts[0]
        if word == "now" && parts.count == 1 { return .instant(now) }
        let today = zone.localTime(at: now).date
        var day = today
        var isWeekday = false
        switch word {
        case "today": break
        case "tomorrow": day = today.adding(days: 1)
        case "yesterday": day = today.adding(days: -1)
        default:
            guard let index = weekdayNames.firstIndex(where: { $0 == word || $0.prefix(3) == word }) else {
                throw .notADate
            }
            day = today.adding(days: (Weekday(rawValue: index + 1)!.isoIndex - today.weekday.isoIndex + 7) % 7)
            isWeekday = true
        }
        guard parts.count == 2 else { return .date(day) }
        let (h, m, s) = try timeOfDay(parts[1])
        var local = LocalDateTime(date: day, hour: h, minute: m, second: s)
        // A weekday with a time names the next such time still ahead of `now`.
        if isWeekday && zone.instant(for: local) <= now { local.date = day.adding(days: 7) }
        return .local(local)
    }

    /// `H:MM`, `HH:MM` or `HH:MM:SS`.
    private static func timeOfDay(_ text: Substring) throws(Reason) -> (Int, Int, Int) {
        var s = Scanner(text)
        guard let h = s.number(max: 2), s.take(":"), let m = s.digits(2) else { throw Reason("\(text) is not a time (HH:MM)") }
        var sec = 0
        if s.take(":") {
            guard let x = s.digits(2) else { throw Reason("\(text) is not a time (HH:MM)") }
            sec = x
        }
        guard s.atEnd else { throw Reason("\(text) is not a time (HH:MM)") }
        guard h < 24, m < 60, sec < 60 else { throw Reason("no such time of day as \(text)") }
        return (h, m, sec)
    }
}
