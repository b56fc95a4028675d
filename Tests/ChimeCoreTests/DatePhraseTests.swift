import Testing
@testable import ChimeCore

/// The dates people type, read on a pinned now in two zones and across a DST change: each row is
/// the phrase, what it names, and (for wall times) the instant that wall time is in the zone.
@Suite("Date phrases: 9am, noon, tomorrow at 9, next friday, Dec 1, 12/01, in 2 hours")
struct DatePhraseTests {
    typealias Order = DateExpression.NumericDateOrder

    static func utc(_ y: Int, _ mo: Int, _ d: Int, _ h: Int = 0, _ mi: Int = 0) -> Instant {
        Instant(secondsSince1970: LocalDateTime(year: y, month: mo, day: d, hour: h, minute: mi).localSeconds)
    }
    static func local(_ y: Int, _ mo: Int, _ d: Int, _ h: Int = 0, _ mi: Int = 0) -> DateValue {
        .local(LocalDateTime(year: y, month: mo, day: d, hour: h, minute: mi))
    }
    static func date(_ y: Int, _ mo: Int, _ d: Int) -> DateValue { .date(CivilDate(year: y, month: mo, day: d)) }

    /// Friday 2026-11-20 15:00 UTC: 10:00 in New York, 16:00 in Berlin.
    static let now = utc(2026, 11, 20, 15)

    func parse(
        _ text: String, zone: String = "America/New_York", now: Instant = DatePhraseTests.now,
        order: Order = .unknown
    ) throws -> DateValue {
        try DateExpression.parse(text, now: now, zone: try ZoneRules.named(zone), numericOrder: order)
    }

    @Test(
        arguments: [
            // Times alone: the next such time (today's 9:00 has passed at 10:00).
            ("9am", local(2026, 11, 21, 9)), ("9:30", local(2026, 11, 21, 9, 30)), ("21:30", local(2026, 11, 20, 21, 30)),
            ("9:30pm", local(2026, 11, 20, 21, 30)), ("9:30 PM", local(2026, 11, 20, 21, 30)), ("noon", local(2026, 11, 20, 12)),
            ("midnight", local(2026, 11, 21)), ("12am", local(2026, 11, 21)), ("12pm", local(2026, 11, 20, 12)),
            ("at 11", local(2026, 11, 20, 11)),
            // A date and a time, either order, with or without `at`.
            ("tomorrow at 9", local(2026, 11, 21, 9)), ("tomorrow at 9:00", local(2026, 11, 21, 9)),
            ("tomorrow 9am", local(2026, 11, 21, 9)), ("9am tomorrow", local(2026, 11, 21, 9)),
            ("today at noon", local(2026, 11, 20, 12)), ("friday at 5pm", local(2026, 11, 20, 17)),
            ("next friday", date(2026, 11, 27)), ("next fri 9:00", local(2026, 11, 27, 9)), ("this friday", date(2026, 11, 20)),
            ("next monday", date(2026, 11, 23)), ("thurs", date(2026, 11, 26)),
            // Month names; without a year, the year that puts the date nearest to today.
            ("Dec 1", date(2026, 12, 1)), ("1 Dec", date(2026, 12, 1)), ("December 1st 2027", date(2027, 12, 1)),
            ("dec 1 at 9:30", local(2026, 12, 1, 9, 30)), ("1 December, 2028", date(2028, 12, 1)),
            ("Jan 5", date(2027, 1, 5)), ("Nov 1", date(2026, 11, 1)), ("sept 3rd", date(2026, 9, 3)),
            // Numbers: ISO without padding, day-first dots, a slash date only one way valid.
            ("2026-12-1", date(2026, 12, 1)), ("2026-12-1 9:00", local(2026, 12, 1, 9)), ("2026/12/01", date(2026, 12, 1)),
            ("01.12.", date(2026, 12, 1)), ("1.12.2026", date(2026, 12, 1)), ("13/01", date(2027, 1, 13)),
            ("12/25/2026", date(2026, 12, 25)),
            // Evenings and next week/month (Friday 2026-11-20).
            ("tonight 8pm", local(2026, 11, 20, 20)), ("tonight at 8", local(2026, 11, 20, 20)), ("tonight 9:30", local(2026, 11, 20, 21, 30)),
            ("tonight", local(2026, 11, 20, 20)), ("tonight 22:00", local(2026, 11, 20, 22)),
            ("next week", date(2026, 11, 23)), ("next week 9:00", local(2026, 11, 23, 9)), ("next month", date(2026, 12, 1))
        ] as [(String, DateValue)])
    func phrasesInNewYork(text: String, expected: DateValue) throws {
        #expect(try parse(text) == expected, "\(text)")
    }

    @Test func inAmountsAreExactSecondsFromNow() throws {
        let t = Self.now.secondsSince1970
        for (text, seconds) in [
            ("in 2 hours", 7200), ("in 30 min", 1800), ("in 1h30m", 5400), ("in an hour", 3600),
            ("in 3 days", 259_200), ("in 2 hours 30 minutes", 9000), ("in 1 week", 604_800),
            ("in two hours", 7200), ("in twelve days", 1_036_800), ("in a week and three days", 864_000)
        ] as [(String, Int64)] {
            #expect(try parse(text) == .instant(Instant(secondsSince1970: t + seconds)), "\(text)")
        }
    }

    @Test func theSameWordsInBerlinFollowBerlinsClock() throws {
        // 16:00 in Berlin: noon has passed, 21:30 has not.
        #expect(try parse("noon", zone: "Europe/Berlin") == Self.local(2026, 11, 21, 12))
        #expect(try parse("21:30", zone: "Europe/Berlin") == Self.local(2026, 11, 20, 21, 30))
        #expect(try parse("9am", zone: "Europe/Berlin") == Self.local(2026, 11, 21, 9))
        // 23:30 UTC is already Saturday in Berlin, still Friday in New York.
        let late = Self.utc(2026, 11, 20, 23, 30)
        #expect(try parse("tomorrow at 9", zone: "Europe/Berlin", now: late) == Self.local(2026, 11, 22, 9))
        #expect(try parse("tomorrow at 9", now: late) == Self.local(2026, 11, 21, 9))
    }

    @Test func acrossTheFallBackChangeWallTimesKeepTheirHour() throws {
        let ny = try ZoneRules.named("America/New_York")
        // Saturday 2026-10-31 12:00 EDT; clocks fall back on Sunday at 02:00.
        let saturday = Self.utc(2026, 10, 31, 16)
        let nine = try parse("tomorrow at 9", now: saturday)
        #expect(nine == Self.local(2026, 11, 1, 9))
        #expect(nine.instant(in: ny) == Self.utc(2026, 11, 1, 14))  // 09:00 EST
        #expect(try parse("in 1 day", now: saturday) == .instant(Self.utc(2026, 11, 1, 16)))  // 11:00 EST
        #expect(try parse("9am", now: saturday) == Self.local(2026, 11, 1, 9))
    }

    @Test func acrossTheSpringForwardChangeWallTimesKeepTheirHour() throws {
        let berlin = try ZoneRules.named("Europe/Berlin")
        // Saturday 2026-03-28 12:00 CET; clocks spring forward on Sunday at 02:00 (to 03:00 CEST).
        let saturday = Self.utc(2026, 3, 28, 11)
        let nine = try parse("tomorrow at 9", zone: "Europe/Berlin", now: saturday)
        #expect(nine == Self.local(2026, 3, 29, 9))
        #expect(nine.instant(in: berlin) == Self.utc(2026, 3, 29, 7))  // 09:00 CEST
        #expect(try parse("in 1 day", zone: "Europe/Berlin", now: saturday) == .instant(Self.utc(2026, 3, 29, 11)))  // 13:00 CEST
        // A bare time in the hour that does not exist that night is still that wall time; what
        // it becomes is the zone rules' to say, as for any time in a gap.
        #expect(try parse("2:30", zone: "Europe/Berlin", now: saturday) == Self.local(2026, 3, 29, 2, 30))
    }

    @Test func slashDatesFollowTheLocaleAndAmbiguityNamesBothReadings() throws {
        #expect(try parse("12/01", order: .monthFirst) == Self.date(2026, 12, 1))
        #expect(try parse("12/01", order: .dayFirst) == Self.date(2027, 1, 12))
        #expect(try parse("01.12.", order: .monthFirst) == Self.date(2026, 12, 1))  // dots are day first everywhere
        let error = #expect(throws: DateExpressionError.self) { try parse("12/01") }
        #expect(error?.reason == "ambiguous: 1 December or 12 January; write 2026-12-01 or 2027-01-12")
        // The same number twice is one date either way.
        #expect(try parse("05/05") == Self.date(2027, 5, 5))
    }

    @Test(arguments: [
        ("9", "9 is not a time"), ("fri 9", "9 is not a time"), ("13pm", "no such time of day as 13pm"),
        ("tomorrow tomorrow", "not a date"), ("9am 10am", "not a date"), ("next", "`next` takes a weekday"),
        ("tomorow", "not a date; did you mean \"tomorrow\"?"), ("thrusday 9:00", "not a date; did you mean \"thursday\"?"),
        ("Dec", "a month takes a day"), ("Feb 30", "no such calendar date"), ("in 2 parsecs", "after `in`"),
        ("12/01/26", "write the year with four digits"), ("31/31", "no such calendar date")
    ])
    func refusedPhrasesSayWhy(text: String, reason: String) throws {
        let error = #expect(throws: DateExpressionError.self) { try parse(text) }
        #expect(error?.reason.hasPrefix(reason) == true, "\(text): \(error?.reason ?? "no error")")
    }
}
