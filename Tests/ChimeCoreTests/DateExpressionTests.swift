import Testing
@testable import ChimeCore

@Suite("Date expressions: absolute, relative and named dates from a fixed now and zone")
struct DateExpressionTests {
    /// Friday 2026-11-20, 10:00 EST.
    static let now = utc(2026, 11, 20, 15)

    static func utc(_ y: Int, _ mo: Int, _ d: Int, _ h: Int = 0, _ mi: Int = 0, _ s: Int = 0) -> Instant {
        Instant(secondsSince1970: LocalDateTime(year: y, month: mo, day: d, hour: h, minute: mi, second: s).localSeconds)
    }

    static func local(_ y: Int, _ mo: Int, _ d: Int, _ h: Int = 0, _ mi: Int = 0, _ s: Int = 0) -> DateValue {
        .local(LocalDateTime(year: y, month: mo, day: d, hour: h, minute: mi, second: s))
    }

    static func date(_ y: Int, _ mo: Int, _ d: Int) -> DateValue { .date(CivilDate(year: y, month: mo, day: d)) }

    func parse(_ text: String, now: Instant = DateExpressionTests.now) throws -> DateValue {
        try DateExpression.parse(text, now: now, zone: try ZoneRules.named("America/New_York"))
    }

    @Test func fixedNowIsAFridayMorningInNewYork() throws {
        let ny = try ZoneRules.named("America/New_York")
        #expect(ny.localTime(at: Self.now) == LocalDateTime(year: 2026, month: 11, day: 20, hour: 10))
        #expect(ny.localTime(at: Self.now).date.weekday == .friday)
    }

    @Test func iso8601Forms() throws {
        #expect(try parse("2026-03-08") == Self.date(2026, 3, 8))
        #expect(try parse("2026-03-08T02:30") == Self.local(2026, 3, 8, 2, 30))
        #expect(try parse("2026-03-08 02:30") == Self.local(2026, 3, 8, 2, 30))
        #expect(try parse("2026-03-08T02:30:15") == Self.local(2026, 3, 8, 2, 30, 15))
        #expect(try parse("2026-03-08T02:30:00Z") == .instant(Self.utc(2026, 3, 8, 2, 30)))
        #expect(try parse("2026-03-08T02:30Z") == .instant(Self.utc(2026, 3, 8, 2, 30)))
        #expect(try parse("2026-03-08T02:30:00+01:00") == .instant(Self.utc(2026, 3, 8, 1, 30)))
        #expect(try parse("2026-03-08T02:30-0500") == .instant(Self.utc(2026, 3, 8, 7, 30)))
        #expect(try parse("2026-03-08T02:30+05") == .instant(Self.utc(2026, 3, 7, 21, 30)))
        #expect(try parse("2026-03-08T23:30:00-05:30") == .instant(Self.utc(2026, 3, 9, 5)))
        // Case-insensitive, surrounding whitespace ignored.
        #expect(try parse("  2026-03-08t02:30:00z\n") == .instant(Self.utc(2026, 3, 8, 2, 30)))
    }

    @Test func rfc5545BasicForms() throws {
        #expect(try parse("20260308") == Self.date(2026, 3, 8))
        #expect(try parse("20260308T023000") == Self.local(2026, 3, 8, 2, 30))
        #expect(try parse("20260308T023000Z") == .instant(Self.utc(2026, 3, 8, 2, 30)))
        #expect(try parse("20260308t023000z") == .instant(Self.utc(2026, 3, 8, 2, 30)))
        // A leap second is read as the last second of the minute, as before.
        #expect(try parse("20261231T235960Z") == .instant(Self.utc(2026, 12, 31, 23, 59, 59)))
    }

    @Test func nowTodayTomorrowYesterday() throws {
        #expect(try parse("now") == .instant(Self.now))
        #expect(try parse("NOW") == .instant(Self.now))
        #expect(try parse("today") == Self.date(2026, 11, 20))
        #expect(try parse("tomorrow") == Self.date(2026, 11, 21))
        #expect(try parse("yesterday") == Self.date(2026, 11, 19))
        #expect(try parse("today 17:00") == Self.local(2026, 11, 20, 17))
        #expect(try parse("Tomorrow 9:30") == Self.local(2026, 11, 21, 9, 30))
        #expect(try parse("tomorrow 09:30:15") == Self.local(2026, 11, 21, 9, 30, 15))
        #expect(try parse("yesterday  23:59") == Self.local(2026, 11, 19, 23, 59))
    }

    @Test func namedDaysFollowTheZoneAndCrossMonthAndYearEnds() throws {
        // 03:00 UTC on the 21st is still Friday the 20th, 22:00, in New York.
        let lateFriday = Self.utc(2026, 11, 21, 3)
        #expect(try parse("today", now: lateFriday) == Self.date(2026, 11, 20))
        #expect(try parse("sat", now: lateFriday) == Self.date(2026, 11, 21))
        let endOfNovember = Self.utc(2026, 11, 30, 15)
        #expect(try parse("tomorrow", now: endOfNovember) == Self.date(2026, 12, 1))
        #expect(try parse("tomorrow 8:00", now: endOfNovember) == Self.local(2026, 12, 1, 8))
        let newYear = Self.utc(2027, 1, 1, 15)
        #expect(try parse("yesterday", now: newYear) == Self.date(2026, 12, 31))
        #expect(try parse("tomorrow", now: Self.utc(2028, 2, 28, 15)) == Self.date(2028, 2, 29))
    }

    @Test func weekdaysWithoutATime() throws {
        #expect(try parse("fri") == Self.date(2026, 11, 20))  // today is Friday
        #expect(try parse("friday") == Self.date(2026, 11, 20))
        #expect(try parse("sat") == Self.date(2026, 11, 21))
        #expect(try parse("Sunday") == Self.date(2026, 11, 22))
        #expect(try parse("mon") == Self.date(2026, 11, 23))
        #expect(try parse("tue") == Self.date(2026, 11, 24))
        #expect(try parse("wednesday") == Self.date(2026, 11, 25))
        #expect(try parse("thu") == Self.date(2026, 11, 26))
    }

    @Test func weekdaysWithATimeNameTheNextOneAhead() throws {
        // Now is Friday 10:00 local.
        #expect(try parse("fri 17:00") == Self.local(2026, 11, 20, 17))
        #expect(try parse("fri 10:00:01") == Self.local(2026, 11, 20, 10, 0, 1))
        #expect(try parse("fri 10:00") == Self.local(2026, 11, 27, 10))  // exactly now: not ahead
        #expect(try parse("fri 9:00") == Self.local(2026, 11, 27, 9))
        #expect(try parse("sat 8:00") == Self.local(2026, 11, 21, 8))
        #expect(try parse("thursday 23:00") == Self.local(2026, 11, 26, 23))
        // Friday 18:00 local: this Friday's 17:00 is past.
        let fridayEvening = Self.utc(2026, 11, 20, 23)
        #expect(try parse("fri 17:00", now: fridayEvening) == Self.local(2026, 11, 27, 17))
        #expect(try parse("fri 19:00", now: fridayEvening) == Self.local(2026, 11, 20, 19))
        #expect(try parse("fri", now: fridayEvening) == Self.date(2026, 11, 20))
    }

    @Test func relativeOffsetsAreAddedToTheInstant() throws {
        let t = Self.now.secondsSince1970
        #expect(try parse("+2h") == .instant(Instant(secondsSince1970: t + 7200)))
        #expect(try parse("+30m") == .instant(Instant(secondsSince1970: t + 1800)))
        #expect(try parse("+45s") == .instant(Instant(secondsSince1970: t + 45)))
        #expect(try parse("+3d") == .instant(Instant(secondsSince1970: t + 3 * 86_400)))
        #expect(try parse("+1w") == .instant(Instant(secondsSince1970: t + 604_800)))
        #expect(try parse("-1d") == .instant(Instant(secondsSince1970: t - 86_400)))
        #expect(try parse("-30m") == .instant(Instant(secondsSince1970: t - 1800)))
        #expect(try parse("+1h30m") == .instant(Instant(secondsSince1970: t + 5400)))
        #expect(try parse("+2d4h") == .instant(Instant(secondsSince1970: t + 2 * 86_400 + 4 * 3600)))
        #expect(try parse("+1w2d3h4m5s") == .instant(Instant(secondsSince1970: t + 604_800 + 172_800 + 10_800 + 245)))
        #expect(try parse(" +2H ") == .instant(Instant(secondsSince1970: t + 7200)))
    }

    @Test func dayOffsetsAcrossDSTMoveTheWallClockBy23Or25Hours() throws {
        let ny = try ZoneRules.named("America/New_York")
        // Saturday 2026-10-31 12:00 EDT; clocks fall back on Sunday 2026-11-01 at 02:00.
        let beforeFallBack = Self.utc(2026, 10, 31, 16)
        #expect(ny.localTime(at: beforeFallBack) == LocalDateTime(year: 2026, month: 10, day: 31, hour: 12))
        let plusDay = try parse("+1d", now: beforeFallBack)
        #expect(plusDay == .instant(Self.utc(2026, 11, 1, 16)))
        #expect(ny.localTime(at: Self.utc(2026, 11, 1, 16)) == LocalDateTime(year: 2026, month: 11, day: 1, hour: 11))  // 23 h on the wall
        // The wall-clock alternative is 25 real hours later.
        #expect(try parse("tomorrow 12:00", now: beforeFallBack) == Self.local(2026, 11, 1, 12))
        #expect(ny.instant(for: LocalDateTime(year: 2026, month: 11, day: 1, hour: 12)) == Self.utc(2026, 11, 1, 17))
        // Saturday 2026-03-07 12:00 EST; clocks spring forward on Sunday 2026-03-08.
        let beforeSpringForward = Self.utc(2026, 3, 7, 17)
        #expect(try parse("+1d", now: beforeSpringForward) == .instant(Self.utc(2026, 3, 8, 17)))
        #expect(ny.localTime(at: Self.utc(2026, 3, 8, 17)) == LocalDateTime(year: 2026, month: 3, day: 8, hour: 13))  // 25 h on the wall
    }

    @Test(
        arguments: [
            ("2026-02-30", "no such calendar date"),
            ("2026-13-01", "no such calendar date"),
            ("20260230", "no such calendar date"),
            ("2026-03-08T24:00", "no such time of day"),
            ("20260308T240000", "no such time of day"),
            ("2026-03-08T12:60", "no such time of day"),
            ("2026-03-08T12:00:60", "no such time of day"),
            ("2026-03-08T12:00+25:00", "no such UTC offset"),
            ("25:00", "no such time of day as 25:00"),
            ("+3x", "an offset takes a sign"),
            ("+", "an offset takes a sign"),
            ("+3", "an offset takes a sign"),
            ("+30m1h", "an offset takes a sign"),
            ("+1h1h", "an offset takes a sign"),
            ("-1d ", nil),
            ("fri 25:00", "no such time of day as 25:00"),
            ("fri 9", "9 is not a time"),
            ("today 13:00 pm", "no such time of day"),
            ("now 12:00", "not a date"),
            ("", "empty"),
            ("   ", "empty"),
            ("tomorrowx", "not a date"),
            ("next-ish", "not a date"),
            ("fr", "not a date"),
            ("2026-03-08T02:30:00Zx", "not a date"),
            ("20260308T023000+01:00", "not a date"),
            ("2026-3-32", "no such calendar date"),
            ("2026-03-08T2:30", "not a date")
        ] as [(String, String?)])
    func invalidInputsThrowNamingTheText(text: String, reason: String?) throws {
        guard let reason else {
            // Control row: the same shape parses, so the rows above fail for the reason given.
            _ = try parse(text)
            return
        }
        let error = #expect(throws: DateExpressionError.self) { try parse(text) }
        #expect(error?.text == text)
        #expect(error?.reason.hasPrefix(reason) == true, "\(error?.reason ?? "no error")")
        #expect(error?.description == "\"\(text)\": \(error?.reason ?? ""); use \(DateExpression.accepted)")
    }

    @Test func errorMessageIsOneSentenceListingTheForms() {
        let error = #expect(throws: DateExpressionError.self) { try parse("next-ish") }
        #expect(
            error?.description == "\"next-ish\": not a date; use 2026-12-01[T09:30], today, tomorrow at 9, "
                + "fri 5pm, next mon, Dec 1, 12/01, 01.12., 9:30, noon, in 2 hours, now, +2h, -30m")
    }
}
