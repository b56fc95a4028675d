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
    public var reason: String { reasonText.english }
    /// ``reason`` for translation.
    public let reasonText: MessageText

    /// The word no date is made of (`tomorow`), when one is why: a reader of another language
    /// offers its own near word for it.
    public let unknownWord: String?

    public init(text: String, reason: MessageText, unknownWord: String? = nil) {
        self.text = text
        self.reasonText = reason
        self.unknownWord = unknownWord
    }

    /// The whole message, for the user's language: the text, what is wrong, and the forms read.
    public var message: MessageText {
        // An ambiguous date already names the two ways to write it; the list of forms would bury them.
        reason.hasPrefix("ambiguous")
            ? MessageText("\"{text}\": {reason}", ["text": text], parts: ["reason": reasonText])
            : MessageText("\"{text}\": {reason}; use {accepted}", ["text": text, "accepted": DateExpression.accepted], parts: ["reason": reasonText])
    }

    public var description: String { message.english }

    public static func == (a: Self, b: Self) -> Bool { a.text == b.text && a.reason == b.reason }
    public func hash(into hasher: inout Hasher) {
        hasher.combine(text)
        hasher.combine(reason)
    }
}

/// The one parser for dates typed on the command line. Pure: the present comes from `now`
/// and civil dates are read on `zone`; nothing reads the system clock.
///
/// Forms (case-insensitive, surrounding whitespace ignored):
/// - ISO 8601 `2026-03-08`, `2026-03-08T02:30[:00]` (or a space for `T`), with `Z`, `±HH:MM`,
///   `±HHMM` or `±HH`; RFC 5545 basic `20260308`, `20260308T023000`, `20260308T023000Z`.
///   A date alone is `.date`, without a zone `.local`, with `Z` or an offset `.instant`.
/// - `now` → `.instant(now)`; `in 2 hours`, `in 30 min`, `in 1h30m` → `.instant`.
/// - Dates: `today`, `tomorrow`, `yesterday`; `mon`…`sun` (on or after today), `next fri`
///   (after today); `Dec 1`, `1 Dec`, `December 1st 2026`; `2026-12-1`; `12/01`, `12/01/2026`
///   read by ``NumericDateOrder`` (a date both ways valid is refused, naming both, when the
///   order is unknown); `01.12.` and `1.12.2026`, day first. Without a year, the year that puts
///   the date nearest to today. A date alone is `.date`.
/// - Times: `9:30`, `21:30`, `9:30:15`, `9:30pm`, `9am`, `12am` (midnight), `noon`, `midnight`,
///   and a bare hour after `at` (`tomorrow at 9`). With a date → `.local`; a weekday with a time
///   (`fri 17:00`) is the first such day whose time is still ahead of `now`; a time alone is the
///   next such time (today, else tomorrow).
/// - Offsets from `now`: a sign, then numbers with units `w`, `d`, `h`, `m`, `s` in that order
///   (`+2h`, `-30m`, `+1h30m`, `+2d4h`) → `.instant`. Days and weeks are exact 86,400 and
///   604,800 seconds added to the instant, so across a DST change `+1d` moves the wall clock
///   by 23 or 25 hours; `tomorrow 9:00` is the wall-clock alternative.
///
/// ```swift
/// let ny = try ZoneRules.named("America/New_York")
/// let now = Instant(secondsSince1970: 1_795_186_800)  // Fri 2026-11-20 10:00 EST
/// try DateExpression.parse("fri 9:00", now: now, zone: ny)  // .local(2026-11-27T09:00:00)
/// try DateExpression.parse("tomorrow at 9", now: now, zone: ny)  // .local(2026-11-21T09:00:00)
/// try DateExpression.parse("+1h30m", now: now, zone: ny)    // .instant(2026-11-20T16:30:00Z)
/// try DateExpression.parse("2026-02-30", now: now, zone: ny) // throws: no such calendar date
/// try DateExpression.parse("03/04", now: now, zone: ny)      // throws: ambiguous: 4 March or 3 April …
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

    /// The day this value falls on, reading an instant on `zone`.
    ///
    /// ```swift
    /// try DateExpression.parse("+2h", now: now, zone: tokyo).day(in: tokyo)   // the day in Tokyo two hours on
    /// ```
    public func day(in zone: ZoneRules) -> CivilDate {
        switch self {
        case .date(let d): return d
        case .local(let l): return l.date
        case .instant(let i): return zone.localTime(at: i).date
        }
    }
}

public enum DateExpression {
    /// A one-line description of the accepted forms, for --help texts.
    public static let accepted =
        "2026-12-01[T09:30], today, tomorrow at 9, fri 5pm, next mon, Dec 1, "
        + "12/01, 01.12., 9:30, noon, in 2 hours, now, +2h, -30m"

    /// How a numeric date with slashes (`12/01`) is read: month first (the United States) or day
    /// first (most other places); `unknown` refuses one that is valid both ways, naming both.
    public enum NumericDateOrder: Sendable, Hashable {
        case monthFirst, dayFirst, unknown
    }

    /// Reads `text`; see ``DateExpression`` for the forms.
    ///
    /// - Parameter wallClock: the zone the result's wall time will be placed in, when not `zone`
    ///   (an item written in another zone): "the next such time still ahead" is judged there.
    public static func parse(
        _ text: String, now: Instant, zone: ZoneRules,
        numericOrder: NumericDateOrder = .unknown, wallClock: ZoneRules? = nil
    ) throws(DateExpressionError) -> DateValue {
        var s = Substring(text.lowercased())
        while s.first?.isWhitespace == true { s.removeFirst() }
        while s.last?.isWhitespace == true { s.removeLast() }
        do throws(Reason) {
            guard let first = s.utf8.first else { throw Reason(translatable: "empty") }
            if first == UInt8(ascii: "+") || first == UInt8(ascii: "-") { return try relative(s, now: now) }
            if first >= 48 && first <= 57 {
                // Not ISO 8601 or RFC 5545 (`2026-12-1`, `12/01`, `9:30`): read as a phrase.
                do throws(Reason) { return try absolute(s) } catch { if error.text != Reason.notADate.text { throw error } }
            }
            return try phrase(s, now: now, zone: zone, wallClock: wallClock ?? zone, order: numericOrder)
        } catch {
            throw DateExpressionError(text: text, reason: error.message, unknownWord: error.unknownWord)
        }
    }

    /// A date written out in full, in ISO 8601 (`2026-12-08T10:00`, `2026-12-08T10:00:00Z`,
    /// `2026-12-08`) or RFC 5545's basic form (`20261208T100000`): no words, no clock, no zone
    /// asked; nil for anything else. For inputs that must mean the same whenever they are read.
    ///
    /// ```swift
    /// DateExpression.written("2026-12-08T10:00")   // .local(2026-12-08 10:00)
    /// DateExpression.written("tomorrow")           // nil
    /// ```
    public static func written(_ text: String) -> DateValue? {
        var s = Substring(text.lowercased())
        while s.first?.isWhitespace == true { s.removeFirst() }
        while s.last?.isWhitespace == true { s.removeLast() }
        return try? absolute(s)
    }

    /// True when `text` names only a time of day (`10:00`, `9am`, `at 9`, `noon`): a command that
    /// changes an item's time can then keep the item's own date.
    ///
    /// ```swift
    /// DateExpression.isTimeOfDay("2:30pm")     // true
    /// DateExpression.isTimeOfDay("fri 2:30pm") // false
    /// ```
    public static func isTimeOfDay(_ text: String) -> Bool {
        var words = text.lowercased().split(whereSeparator: \.isWhitespace).map(String.init)
        if words.first == "at" { words.removeFirst() }
        if words.count == 2, words[1] == "am" || words[1] == "pm" { words = [words[0] + words[1]] }
        guard words.count == 1 else { return false }
        if words[0] == "noon" || words[0] == "midnight" { return true }
        return (try? timeOfDay(Substring(words[0]), hourAlone: text.lowercased().hasPrefix("at"))) != nil
    }

    /// True when `text` names its day by a weekday alone (`wed`, `wed 17:00`, not `next wed`):
    /// a day that is read as the first such day from some point, so an event's end can be read
    /// from its start's day.
    ///
    /// ```swift
    /// DateExpression.namesBareWeekday("wed 17:00")   // true
    /// DateExpression.namesBareWeekday("tomorrow")    // false
    /// ```
    public static func namesBareWeekday(_ text: String) -> Bool {
        let words = text.lowercased().split(whereSeparator: { $0.isWhitespace || $0 == "," })
        return words.indices.contains { i in
            weekday(String(words[i])) != nil && (i == 0 || (words[i - 1] != "next" && words[i - 1] != "this"))
        }
    }

    /// True when `text` is a length counted from a point (`+1h`, `-30m`, `in 2 hours`).
    public static func isOffset(_ text: String) -> Bool {
        let lower = text.lowercased().drop { $0.isWhitespace }
        return lower.hasPrefix("+") || lower.hasPrefix("-") || lower.hasPrefix("in ")
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
            throw DateExpressionError(text: text, reason: error.message)
        }
    }

    // MARK: - Private

    /// What is wrong, written for translation (`Reason(translatable: "no such time of day")`).
    private struct Reason: Error {
        let message: MessageText
        var unknownWord: String?
        init(translatable template: StaticString, _ values: KeyValuePairs<String, String> = [:], unknownWord: String? = nil) {
            message = MessageText(template, values)
            self.unknownWord = unknownWord
        }
        var text: String { message.english }
        static let notADate = Reason(translatable: "not a date")
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
        guard date.isValid else { throw Reason(translatable: "no such calendar date") }
        if s.atEnd { return .date(date) }
        guard s.take("t") || (extended && s.take(" ")),
            let h = s.digits(2), !extended || s.take(":"), let mi = s.digits(2)
        else { throw .notADate }
        var sec = 0
        if !extended || s.take(":") {
            guard let x = s.digits(2) else { throw .notADate }
            sec = x
        }
        // The basic form reads a leap second (60) as 59, as RFC 5545 permits.
        guard h < 24, mi < 60, sec < (extended ? 60 : 61) else { throw Reason(translatable: "no such time of day") }
        let local = LocalDateTime(date: date, hour: h, minute: mi, second: min(sec, 59))
        if s.atEnd { return .local(local) }
        if s.take("z") {
            guard s.atEnd else { throw .notADate }
            return .instant(Instant(utc: local))
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
        guard oh < 24, om < 60 else { throw Reason(translatable: "no such UTC offset") }
        return .instant(Instant(secondsSince1970: local.localSeconds - sign * Int64(oh * 3600 + om * 60)))
    }

    /// `+2h`, `-1d`, `+1h30m`: units strictly from weeks down to seconds.
    private static func relative(_ text: Substring, now: Instant) throws(Reason) -> DateValue {
        let bad = Reason(translatable: "an offset takes a sign, then numbers with units w, d, h, m, s in that order (+1h30m)")
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
        guard !overflow else { throw Reason(translatable: "out of range") }
        return .instant(Instant(secondsSince1970: seconds))
    }

    /// The words a phrase is made of, for "did you mean …?".
    private static let vocabulary =
        [
            "today", "tomorrow", "yesterday", "tonight", "noon", "midnight", "next", "this", "week", "month",
            "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"
        ] + monthNames

    private static let monthNames = [
        "january", "february", "march", "april", "may", "june", "july", "august",
        "september", "october", "november", "december"
    ]

    /// The weekday a word names (`fri`, `friday`, `thurs`), as an ISO index (Monday 1 … Sunday 7).
    private static func weekday(_ word: String) -> Int? { Weekday(word: word)?.isoIndex }

    /// The month a word names (`dec`, `december`, `sept`), 1…12.
    static func month(_ word: String) -> Int? {
        guard word.count >= 3, let index = monthNames.firstIndex(where: { $0.hasPrefix(word) }) else { return nil }
        return index + 1
    }

    /// A day of the month: `1`, `01`, `1st`, `22nd`.
    static func dayNumber(_ word: String) -> Int? {
        var digits = Substring(word)
        for suffix in ["st", "nd", "rd", "th"] where digits.hasSuffix(suffix) { digits = digits.dropLast(2); break }
        guard (1...2).contains(digits.count), let n = Int(digits), (1...31).contains(n) else { return nil }
        return n
    }

    /// `month`/`day` in the year that puts it nearest to `today` (a year back, this year or next):
    /// on 24 November, `Dec 1` is next week and `Nov 1` three weeks ago, not a year away.
    private static func nearest(month: Int, day: Int, to today: CivilDate) -> CivilDate? {
        let candidates = [today.year - 1, today.year, today.year + 1]
            .map { CivilDate(year: $0, month: month, day: day) }.filter(\.isValid)
        let here = today.daysSinceEpoch
        return candidates.min { abs($0.daysSinceEpoch - here) < abs($1.daysSinceEpoch - here) }
    }

    private static func fullDate(_ year: Int?, _ month: Int, _ day: Int, today: CivilDate) throws(Reason) -> CivilDate {
        guard let year else {
            guard let date = nearest(month: month, day: day, to: today) else { throw Reason(translatable: "no such calendar date") }
            return date
        }
        let date = CivilDate(year: year, month: month, day: day)
        guard date.isValid else { throw Reason(translatable: "no such calendar date") }
        return date
    }

    private static func spoken(_ month: Int, _ day: Int) -> String {
        "\(day) \(monthNames[month - 1].prefix(1).uppercased() + monthNames[month - 1].dropFirst())"
    }

    /// `12/01`, `12/01/2026`, `01.12.`, `1.12.2026`, `2026/12/01`, `2026-12-1`.
    private static func numericDate(_ word: String, today: CivilDate, order: NumericDateOrder) throws(Reason) -> CivilDate? {
        let separator: Character
        if word.contains("/") {
            separator = "/"
        } else if word.contains(".") {
            separator = "."
        } else if word.contains("-") {
            separator = "-"
        } else {
            return nil
        }
        var parts = word.split(separator: separator, omittingEmptySubsequences: false).map(String.init)
        if separator == ".", parts.last == "" { parts.removeLast() }  // `01.12.`: the German form ends in a dot
        guard (2...3).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && Int($0) != nil })
        else { return nil }
        let numbers = parts.map { Int($0)! }
        if parts[0].count == 4 {  // year first, as ISO 8601 orders it
            guard numbers.count == 3 else { return nil }
            return try fullDate(numbers[0], numbers[1], numbers[2], today: today)
        }
        guard separator != "-" else { return nil }
        // `9.30` is a time written the German way, not the 30th month.
        if separator == ".", parts.count == 2, numbers[0] < 24, numbers[1] > 12, numbers[1] < 60, parts[1].count == 2 {
            throw Reason(translatable: "not a date; for a time write {time}", ["time": "\(numbers[0]):\(parts[1])"])
        }
        var year: Int?
        if numbers.count == 3 {
            guard parts[2].count == 4 else { throw Reason(translatable: "write the year with four digits") }
            year = numbers[2]
        }
        let (a, b) = (numbers[0], numbers[1])
        // Dots are day first everywhere they are used (de, ru, pl…); a slash follows the locale.
        if separator == "." || order == .dayFirst { return try fullDate(year, b, a, today: today) }
        if order == .monthFirst { return try fullDate(year, a, b, today: today) }
        let monthFirst = try? fullDate(year, a, b, today: today)
        let dayFirst = try? fullDate(year, b, a, today: today)
        switch (monthFirst, dayFirst) {
        case (let m?, let d?) where m != d:
            // {first} and {second} spell the months in English; a translation names the two days
            // by {firstDate} and {secondDate} alone.
            throw Reason(
                translatable: "ambiguous: {first} or {second}; write {firstDate} or {secondDate}",
                ["first": spoken(a, b), "second": spoken(b, a), "firstDate": formatted(m), "secondDate": formatted(d)])
        case (let m?, _): return m
        case (nil, let d?): return d
        case (nil, nil): throw Reason(translatable: "no such calendar date")
        }
    }

    private static func formatted(_ d: CivilDate) -> String {
        func pad(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(d.year)-\(pad(d.month))-\(pad(d.day))"
    }

    /// `a`, `an` and the English numbers to twelve, as people type them after `in`: `in two hours`.
    static func numberWord(_ word: String) -> Int64? {
        if word == "a" || word == "an" { return 1 }
        let words = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"]
        return words.firstIndex(of: word).map { Int64($0) + 1 }
    }

    /// The words after `in`: `2 hours`, `90 min`, `2h`, `1h30m`, `an hour`, `two weeks`, `2 hours 30 minutes`.
    private static func amount(_ words: ArraySlice<String>, now: Instant) throws(Reason) -> DateValue {
        let units: [(names: [String], seconds: Int64)] = [
            (["w", "wk", "wks", "week", "weeks"], 604_800), (["d", "day", "days"], 86_400),
            (["h", "hr", "hrs", "hour", "hours"], 3600), (["m", "min", "mins", "minute", "minutes"], 60),
            (["s", "sec", "secs", "second", "seconds"], 1)
        ]
        let bad = Reason(translatable: "after `in`, give an amount and a unit: in 2 hours, in 30 min, in 3 days, in 1h30m")
        var total: Int64 = 0
        var words = words
        guard !words.isEmpty else { throw bad }
        while let word = words.first {
            words.removeFirst()
            if word == "and" { continue }
            if let n = Self.numberWord(word) ?? Int64(word), n >= 0, n < 1_000_000_000 {
                guard let unitWord = words.first, let unit = units.first(where: { $0.names.contains(unitWord) }) else { throw bad }
                words.removeFirst()
                total += n * unit.seconds
            } else if case .instant(let i) = try? relative(Substring("+" + word), now: Instant(secondsSince1970: 0)) {
                total += i.secondsSince1970
            } else {
                throw bad
            }
        }
        let (seconds, overflow) = now.secondsSince1970.addingReportingOverflow(total)
        guard !overflow else { throw Reason(translatable: "out of range") }
        return .instant(Instant(secondsSince1970: seconds))
    }

    /// A date, a time, or both, in the words people type: `today`, `tomorrow at 9`, `fri 5pm`,
    /// `next monday`, `Dec 1`, `1 Dec 2026`, `12/01`, `01.12.`, `9:30pm`, `noon`, `in 2 hours`.
    private static func phrase(
        _ text: Substring, now: Instant, zone: ZoneRules, wallClock: ZoneRules,
        order: NumericDateOrder
    ) throws(Reason) -> DateValue {
        let words = text.split(whereSeparator: { $0.isWhitespace || $0 == "," }).map(String.init)
        guard let first = words.first else { throw .notADate }
        if words == ["now"] { return .instant(now) }
        if first == "in" { return try amount(words.dropFirst(), now: now) }
        let today = zone.localTime(at: now).date
        var day: CivilDate?
        var weekdayAhead = false  // a bare weekday with a time names the next such time still ahead
        var evening = false  // `tonight`: 8 means 20:00, and no time means 20:00
        // `morning`, `afternoon`, `evening`: a part of the day, which says how an hour reads (3
        // in the afternoon is 15:00) and, with no time, gives one (09:00, 15:00, 20:00).
        var partOfDay: (pm: Bool, defaultHour: Int)?
        var time: (Int, Int, Int)?
        var i = 0
        var afterAt = false
        func setDay(_ d: CivilDate) throws(Reason) {
            guard day == nil else { throw .notADate }
            day = d
        }
        func setTime(_ t: (Int, Int, Int)) throws(Reason) {
            guard time == nil else { throw .notADate }
            time = t
        }
        while i < words.count {
            let word = words[i]
            let nextWord = i + 1 < words.count ? words[i + 1] : nil
            i += 1
            if word == "at" { afterAt = true; continue }
            // `on dec 24`, `on friday at 9`: what German `am`, French `le`, Spanish `el` become.
            if word == "on" && nextWord != nil { continue }
            defer { afterAt = false }
            switch word {
            case "today": try setDay(today); continue
            case "tomorrow": try setDay(today.adding(days: 1)); continue
            case "overmorrow": try setDay(today.adding(days: 2)); continue  // the day after tomorrow
            case "morning": partOfDay = (false, 9); continue
            case "afternoon": partOfDay = (true, 15); continue
            case "evening": partOfDay = (true, 20); continue
            case "yesterday": try setDay(today.adding(days: -1)); continue
            case "tonight": try setDay(today); evening = true; continue
            case "noon": try setTime((12, 0, 0)); continue
            case "midnight": try setTime((0, 0, 0)); continue
            case "next" where nextWord == "week", "this" where nextWord == "week":
                // The next week's Monday, or a weekday of that week (`next week friday`, as
                // "下周五" says it); `this week friday` is this week's, even when past.
                i += 1
                let monday = today.adding(days: (word == "next" ? 7 : 0) - today.weekday.isoIndex)
                if i < words.count, let target = weekday(words[i]) {
                    i += 1
                    try setDay(monday.adding(days: target))
                } else if word == "next" {
                    try setDay(monday)
                } else {
                    throw Reason(translatable: "`this week` takes a weekday: this week friday")
                }
                continue
            case "next" where nextWord == "month":
                i += 1
                try setDay(today.month == 12 ? CivilDate(year: today.year + 1, month: 1, day: 1) : CivilDate(year: today.year, month: today.month + 1, day: 1))
                continue
            case "next", "this":
                guard let nextWord, let target = weekday(nextWord) else {
                    throw Reason(translatable: "`{word}` takes a weekday, `week` or `month`: {word} friday", ["word": word])
                }
                i += 1
                let ahead = (target - today.weekday.isoIndex + 7) % 7
                try setDay(today.adding(days: word == "next" && ahead == 0 ? 7 : ahead))
                continue
            default: break
            }
            if let target = weekday(word) {
                try setDay(today.adding(days: (target - today.weekday.isoIndex + 7) % 7))
                weekdayAhead = true
                continue
            }
            if let m = month(word) {  // Dec 1, Dec 1 2026, December 1st
                guard let nextWord, let d = dayNumber(nextWord) else { throw Reason(translatable: "a month takes a day: {word} 1", ["word": word]) }
                i += 1
                var year: Int?
                if i < words.count, words[i].count == 4, let y = Int(words[i]) { year = y; i += 1 }
                try setDay(try fullDate(year, m, d, today: today))
                continue
            }
            if let d = dayNumber(word), let nextWord, let m = month(nextWord) {  // 1 Dec, 1st December 2026
                i += 1
                var year: Int?
                if i < words.count, words[i].count == 4, let y = Int(words[i]) { year = y; i += 1 }
                try setDay(try fullDate(year, m, d, today: today))
                continue
            }
            if !word.contains(":"), let date = try numericDate(word, today: today, order: order) {
                try setDay(date)
                continue
            }
            var timeWord = word
            if nextWord == "am" || nextWord == "pm" { timeWord += nextWord!; i += 1 }
            let body = timeWord.hasSuffix("am") || timeWord.hasSuffix("pm") ? timeWord.dropLast(2) : Substring(timeWord)
            guard !body.isEmpty, body.allSatisfy({ $0 == ":" || ("0"..."9").contains($0) }) else {
                if let near = EditDistance.closest(to: word, in: vocabulary) {
                    throw Reason(translatable: "not a date; did you mean \"{word}\"?", ["word": near], unknownWord: word)
                }
                throw Reason(translatable: "not a date", unknownWord: word)
            }
            try setTime(try timeOfDay(Substring(timeWord), hourAlone: afterAt))
        }
        if evening {
            if let (h, m, s) = time, (1...11).contains(h) { time = (h + 12, m, s) }
            time = time ?? (20, 0, 0)
        }
        if let partOfDay {
            if partOfDay.pm, let (h, m, s) = time, (1...11).contains(h) { time = (h + 12, m, s) }
            if !partOfDay.pm, let (h, m, s) = time, h == 12 { time = (0, m, s) }
            time = time ?? (partOfDay.defaultHour, 0, 0)
        }
        switch (day, time) {
        case (let day?, nil): return .date(day)
        case (let day?, let (h, m, s)?):
            var local = LocalDateTime(date: day, hour: h, minute: m, second: s)
            if weekdayAhead && wallClock.instant(for: local) <= now { local.date = day.adding(days: 7) }
            return .local(local)
        case (nil, let (h, m, s)?):
            // A time alone is the next such time: today's if still ahead, else tomorrow's.
            var local = LocalDateTime(date: today, hour: h, minute: m, second: s)
            if wallClock.instant(for: local) <= now { local.date = today.adding(days: 1) }
            return .local(local)
        case (nil, nil): throw .notADate
        }
    }

    /// `H:MM`, `HH:MM`, `HH:MM:SS`, each with an optional `am`/`pm`; `9am`, `9pm`; a bare hour
    /// (`9`) only after `at`, where nothing else can be meant.
    private static func timeOfDay(_ text: Substring, hourAlone: Bool = false) throws(Reason) -> (Int, Int, Int) {
        var body = text
        var meridiem: Int?  // 0 am, 12 pm
        if body.hasSuffix("am") || body.hasSuffix("pm") {
            meridiem = body.hasSuffix("pm") ? 12 : 0
            body = body.dropLast(2)
        }
        let notATime = Reason(translatable: "{text} is not a time (9:30, 21:30, 9:30pm, 9am, noon)", ["text": String(text)])
        var s = Scanner(body)
        guard let h = s.number(max: 2) else { throw notATime }
        var m = 0, sec = 0
        if s.take(":") {
            guard let x = s.digits(2) else { throw notATime }
            m = x
            if s.take(":") {
                guard let y = s.digits(2) else { throw notATime }
                sec = y
            }
        } else if meridiem == nil && !hourAlone {
            throw notATime
        }
        guard s.atEnd else { throw notATime }
        if let meridiem {
            guard (1...12).contains(h), m < 60, sec < 60 else { throw Reason(translatable: "no such time of day as {text}", ["text": String(text)]) }
            return (h % 12 + meridiem, m, sec)
        }
        guard h < 24, m < 60, sec < 60 else { throw Reason(translatable: "no such time of day as {text}", ["text": String(text)]) }
        return (h, m, sec)
    }
}
