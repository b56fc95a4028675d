import ChimeCore

/// What a typed date is read against: the instant "now", the zone words such as "tomorrow" are
/// read on, and how `12/01` reads. A command makes one for its milliseconds of life; the daemon's
/// D-Bus service makes one per call from its clock and the zone of that moment, so that a call on
/// the third day of its life reads "tomorrow" from that day.
///
/// ```swift
/// let context = InputContext(now: store.clock(), zone: SystemZone.current(), numericDateOrder: .dayFirst)
/// let due = try context.calendarDate("tomorrow 10:00", option: "--due", tz: nil)
/// ```
public struct InputContext: Sendable {
    public var now: Instant
    public var zone: ZoneRules
    public var numericDateOrder: DateExpression.NumericDateOrder
    /// The user's language's date words (`明天`, `через 2 часа`), read into English first;
    /// English is read in every language.
    public var phrases: DatePhrases
    /// How the dates an error names are written (`Sat 2026-12-05 09:00`, `5. Dez. 2026, Sa.`): the
    /// user's at a terminal; English on the D-Bus interface, whose errors are language-neutral.
    public var messages: Messages
    /// The user's language's length words (`1 Stunde`, `15 минут`) for `--duration`.
    public var durations: DatePhrases

    public init(
        now: Instant, zone: ZoneRules, numericDateOrder: DateExpression.NumericDateOrder, phrases: DatePhrases = .none,
        messages: Messages = .english, durations: DatePhrases = .none
    ) {
        self.now = now
        self.zone = zone
        self.numericDateOrder = numericDateOrder
        self.phrases = phrases
        self.messages = messages
        self.durations = durations
    }

    /// `text` in the words ``DateExpression`` reads: as typed when it reads so (English is read
    /// in every language: `in 2h` stays an offset in French, where `2h` is a time), else through
    /// the language's table.
    func english(_ text: String) -> String {
        phrases.english(text) { (try? DateExpression.parse($0, now: now, zone: zone, numericOrder: numericDateOrder)) != nil }
    }

    /// How `12/01` reads, from LC_ALL, LC_TIME or LANG (the first set) in `environment`. Month
    /// first where the locale writes it so (en_US, en_PH, ja, zh, ko); day first for other named
    /// locales; none (a date valid both ways is refused) for C and POSIX.
    public static func numericDateOrder(environment: [String: String]) -> DateExpression.NumericDateOrder {
        let locale = [environment["LC_ALL"], environment["LC_TIME"], environment["LANG"]].compactMap { $0 }.first { !$0.isEmpty } ?? ""
        let name = locale.prefix { $0 != "." && $0 != "@" }
        if name.isEmpty || name == "C" || name == "POSIX" { return .unknown }
        if ["en_US", "en_PH"].contains(name) || ["ja", "zh", "ko"].contains(name.prefix(2)) { return .monthFirst }
        return .dayFirst
    }

    /// Reads a date; `option` names it in the error. Words such as `tomorrow` or a bare time
    /// count from `relativeTo` (default: now): an end typed after a start counts from the start.
    /// `civilZone`: the zone words such as `today` are read on (default: ``zone``).
    /// `wallClock`: the zone the wall time will be placed in (an item's `--tz`), where "the next
    /// such time still ahead" is judged.
    public func date(
        _ text: String, option: String, relativeTo: Instant? = nil, on civilZone: ZoneRules? = nil,
        wallClock: ZoneRules? = nil
    ) throws(InputError) -> DateValue {
        let zone = civilZone ?? self.zone
        let value: DateValue
        let english = english(text)
        do {
            value = try DateExpression.parse(
                english, now: relativeTo ?? now, zone: zone, numericOrder: numericDateOrder,
                wallClock: wallClock)
        } catch {
            // Named as typed (never as the English it was rewritten into: `tomorrow at 25:00` means
            // nothing to a German user), what is wrong, the forms read in every language and
            // examples in the user's. Each clause is translated on its own; values first, so a
            // clause that does not apply is empty.
            var parts = ["reason": error.reasonText]
            // A slip in the language's own words is answered with its words, not English ones;
            // of equally near words, one that makes the date read.
            let reads = { (fixed: String) in
                (try? DateExpression.parse(self.english(fixed), now: relativeTo ?? self.now, zone: zone, numericOrder: self.numericDateOrder)) != nil
            }
            if error.unknownWord != nil, let near = phrases.wordMeant(in: text, fits: reads) {
                parts["reason"] = MessageText("not a date; did you mean \"{word}\"?", ["word": near])
            }
            parts["examples"] = phrases.examples.map { MessageText("; in your language: {examples}", ["examples": $0]) }
            let values: KeyValuePairs<String, String> = [
                "option": option, "text": text, "accepted": DateExpression.accepted, "examples": ""
            ]
            // An ambiguous date already names the two ways to write it; the list of forms would bury them.
            throw error.reason.hasPrefix("ambiguous")
                ? InputError(translatable: "{option}: \"{text}\": {reason}{examples}", values, parts: parts)
                : InputError(translatable: "{option}: \"{text}\": {reason}; use {accepted}{examples}", values, parts: parts)
        }
        try ValueBounds.check(option, text: text, instant: value.instant(in: zone))
        return value
    }

    /// A date as an item date: a date → all-day, a wall time → on `tz` (default ``zone``;
    /// `floating` keeps it floating), an instant → on `tz` too.
    public func calendarDate(
        _ text: String, option: String, tz: String?, relativeTo: Instant? = nil,
        on civilZone: ZoneRules? = nil
    ) throws(InputError) -> CalendarDate {
        var zone: ZoneRules? = self.zone
        if let tz {
            do {
                if case .zone(let named) = try ZoneArgument(tz) { zone = named } else { zone = nil }
            } catch { throw InputError("--tz: \(error)") }
        }
        switch try date(text, option: option, relativeTo: relativeTo, on: civilZone, wallClock: zone) {
        case .date(let d): return .allDay(d)
        case .local(let l):
            guard let zone else { return .floating(l) }
            return .wallTime(l, in: zone)
        case .instant(var i):
            // `in 2 hours`, `now`, `+30m` on an item: whole minutes, as calendars keep times.
            let english = english(text)
            if DateExpression.isOffset(english) || english.lowercased().trimmingCharacters(in: .whitespaces) == "now" {
                i = Instant(secondsSince1970: i.secondsSince1970 - ((i.secondsSince1970 % 60) + 60) % 60)
            }
            guard let zone else { return .floating(self.zone.localTime(at: i)) }
            return .wallTime(at: i, in: zone)
        }
    }

    /// A new time alone (`--start 10:00`) keeps the item's own day, as moving an entry in a
    /// calendar app does; anything with a date is read as usual. `fromItemsDay`: any phrase is
    /// read from that day (a weekday alone is then the first such day on or after it).
    public func keepingDate(
        of current: CalendarDate, _ text: String, option: String, tz: String?,
        fromItemsDay: Bool = false
    ) throws(InputError) -> CalendarDate {
        guard fromItemsDay || DateExpression.isTimeOfDay(english(text)) else {
            return try calendarDate(text, option: option, tz: tz)
        }
        // The item's own day on its own clock (an all-day or floating date as written).
        let clock = current.zone(floatingZone: zone)
        let day = clock.localTime(at: current.instant(floatingZone: zone)).date
        // Read as the first such time after that day's midnight.
        return try calendarDate(text, option: option, tz: tz, relativeTo: clock.instant(for: LocalDateTime(date: day)).adding(-1), on: clock)
    }
}
