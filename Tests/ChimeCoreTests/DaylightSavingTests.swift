import Testing
@testable import ChimeCore

// Daylight-saving transitions, for zone conversion and for expansion. The transition instants and
// offsets are those `zdump -v` prints for the system tzdata, written here literally, e.g.
//   America/New_York  Sun Mar  8 07:00:00 2026 UT = Sun Mar  8 03:00:00 2026 EDT isdst=1 gmtoff=-14400
// Wall times that do not exist (spring gap) are read with the offset before the gap; wall times
// that happen twice (fall overlap) take the first instant (RFC 5545 §3.3.5).

private func zone(_ name: String) throws -> ZoneRules { try ZoneRules.named(name) }

/// Expands `rule` from `start` in `zoneName` and compares the first `n` occurrences, on that zone's
/// clock, with `expected`.
private func expectExpansion(
    _ zoneName: String, _ start: LocalDateTime, _ rule: String, first n: Int,
    _ expected: [String], sourceLocation: SourceLocation = #_sourceLocation
) throws {
    let z = try zone(zoneName)
    let set = RecurrenceSet(start: .zoned(start, z), rules: [try RecurrenceRule(parsing: rule)])
    #expect(set.first(n).wallClock(in: z) == expected, sourceLocation: sourceLocation)
}

private func L(_ y: Int, _ mo: Int, _ d: Int, _ h: Int = 0, _ mi: Int = 0) -> LocalDateTime {
    ExpectedTimes.local(y, mo, d, h, mi)
}

@Suite("Daylight saving time")
struct DaylightSavingTests {
    // MARK: - Instant → wall clock

    @Test(
        "Offsets and wall clocks either side of each transition (zdump)",
        arguments: [
            // New York 2026: EST → EDT at 07:00Z on March 8, EDT → EST at 06:00Z on November 1.
            ("America/New_York", "2026-03-08T06:59:59Z", "2026-03-08T01:59:59-05:00"),
            ("America/New_York", "2026-03-08T07:00:00Z", "2026-03-08T03:00:00-04:00"),
            ("America/New_York", "2026-11-01T05:59:59Z", "2026-11-01T01:59:59-04:00"),
            ("America/New_York", "2026-11-01T06:00:00Z", "2026-11-01T01:00:00-05:00"),
            ("America/New_York", "1997-09-02T13:00:00Z", "1997-09-02T09:00:00-04:00"),
            // Berlin 2026: CET → CEST at 01:00Z on March 29, back at 01:00Z on October 25.
            ("Europe/Berlin", "2026-03-29T00:59:59Z", "2026-03-29T01:59:59+01:00"),
            ("Europe/Berlin", "2026-03-29T01:00:00Z", "2026-03-29T03:00:00+02:00"),
            ("Europe/Berlin", "2026-10-25T00:59:59Z", "2026-10-25T02:59:59+02:00"),
            ("Europe/Berlin", "2026-10-25T01:00:00Z", "2026-10-25T02:00:00+01:00"),
            // Sydney 2026 (southern hemisphere): AEDT → AEST on April 5, AEST → AEDT on October 4.
            ("Australia/Sydney", "2026-04-04T15:59:59Z", "2026-04-05T02:59:59+11:00"),
            ("Australia/Sydney", "2026-04-04T16:00:00Z", "2026-04-05T02:00:00+10:00"),
            ("Australia/Sydney", "2026-10-03T15:59:59Z", "2026-10-04T01:59:59+10:00"),
            ("Australia/Sydney", "2026-10-03T16:00:00Z", "2026-10-04T03:00:00+11:00"),
            // Lord Howe 2026: a 30-minute shift, +11 → +10:30 on April 5, +10:30 → +11 on October 4.
            ("Australia/Lord_Howe", "2026-04-04T14:59:59Z", "2026-04-05T01:59:59+11:00"),
            ("Australia/Lord_Howe", "2026-04-04T15:00:00Z", "2026-04-05T01:30:00+10:30"),
            ("Australia/Lord_Howe", "2026-10-03T15:29:59Z", "2026-10-04T01:59:59+10:30"),
            ("Australia/Lord_Howe", "2026-10-03T15:30:00Z", "2026-10-04T02:30:00+11:00"),
            // New York after the precomputed table (2400): the POSIX TZ footer decides.
            ("America/New_York", "2400-12-31T12:00:00Z", "2400-12-31T07:00:00-05:00"),
            ("America/New_York", "2401-03-11T06:59:59Z", "2401-03-11T01:59:59-05:00"),
            ("America/New_York", "2401-03-11T07:00:00Z", "2401-03-11T03:00:00-04:00"),
            ("America/New_York", "2450-01-15T17:00:00Z", "2450-01-15T12:00:00-05:00"),
            ("America/New_York", "2450-03-13T06:59:59Z", "2450-03-13T01:59:59-05:00"),
            ("America/New_York", "2450-03-13T07:00:00Z", "2450-03-13T03:00:00-04:00"),
            ("America/New_York", "2450-07-04T16:00:00Z", "2450-07-04T12:00:00-04:00"),
            ("America/New_York", "2450-11-06T05:59:59Z", "2450-11-06T01:59:59-04:00"),
            ("America/New_York", "2450-11-06T06:00:00Z", "2450-11-06T01:00:00-05:00"),
            // Kolkata: no DST since 1945 (+05:30); +06:30 from 1942-09-01 to 1945-10-14.
            ("Asia/Kolkata", "1997-09-02T13:00:00Z", "1997-09-02T18:30:00+05:30"),
            ("Asia/Kolkata", "2026-03-08T07:00:00Z", "2026-03-08T12:30:00+05:30"),
            ("Asia/Kolkata", "2450-07-04T00:00:00Z", "2450-07-04T05:30:00+05:30"),
            ("Asia/Kolkata", "1944-01-01T00:00:00Z", "1944-01-01T06:30:00+06:30")
        ])
    func instantToWallClock(zoneName: String, utc: String, expected: String) throws {
        let z = try zone(zoneName)
        let instant = ExpectedTimes.instant(utc)
        #expect(ExpectedTimes.format(instant, in: z) == expected)
        #expect(z.localTime(at: instant).description == String(expected.prefix(19)))
    }

    @Test("The test helper's instants match date(1)")
    func helperInstantsMatchDate() {
        // `date -u -d '2026-03-08 07:00:00' +%s` and friends.
        #expect(ExpectedTimes.instant("2026-03-08T07:00:00Z").secondsSince1970 == 1_772_953_200)
        #expect(ExpectedTimes.instant("2026-11-01T01:59:59-04:00").secondsSince1970 == 1_793_512_799)
        #expect(ExpectedTimes.instant("2450-11-06T06:00:00Z").secondsSince1970 == 15_174_108_000)
        #expect(ExpectedTimes.instant("1997-09-02T09:00:00-04:00").secondsSince1970 == 873_205_200)
    }

    // MARK: - Wall clock → instant

    @Test(
        "Wall clock to instant: gaps move forward, overlaps take the first",
        arguments: [
            ("America/New_York", "2026-03-08T01:59:59", "2026-03-08T06:59:59Z"),
            ("America/New_York", "2026-03-08T02:00:00", "2026-03-08T07:00:00Z"),  // gap: 03:00 EDT
            ("America/New_York", "2026-03-08T02:30:00", "2026-03-08T07:30:00Z"),  // gap: 03:30 EDT
            ("America/New_York", "2026-03-08T03:00:00", "2026-03-08T07:00:00Z"),
            ("America/New_York", "2026-11-01T00:59:59", "2026-11-01T04:59:59Z"),
            ("America/New_York", "2026-11-01T01:00:00", "2026-11-01T05:00:00Z"),  // overlap: EDT
            ("America/New_York", "2026-11-01T01:30:00", "2026-11-01T05:30:00Z"),  // overlap: EDT
            ("America/New_York", "2026-11-01T02:00:00", "2026-11-01T07:00:00Z"),
            ("Europe/Berlin", "2026-03-29T02:30:00", "2026-03-29T01:30:00Z"),  // gap: 03:30 CEST
            ("Europe/Berlin", "2026-10-25T02:30:00", "2026-10-25T00:30:00Z"),  // overlap: CEST
            ("Europe/Berlin", "2026-10-25T03:00:00", "2026-10-25T02:00:00Z"),
            ("Australia/Sydney", "2026-10-04T02:30:00", "2026-10-03T16:30:00Z"),  // gap: 03:30 AEDT
            ("Australia/Sydney", "2026-04-05T02:30:00", "2026-04-04T15:30:00Z"),  // overlap: AEDT
            ("Australia/Sydney", "2026-04-05T03:00:00", "2026-04-04T17:00:00Z"),
            ("Australia/Lord_Howe", "2026-10-04T02:00:00", "2026-10-03T15:30:00Z"),  // gap: 02:30 +11
            ("Australia/Lord_Howe", "2026-10-04T02:15:00", "2026-10-03T15:45:00Z"),  // gap: 02:45 +11
            ("Australia/Lord_Howe", "2026-10-04T02:30:00", "2026-10-03T15:30:00Z"),
            ("Australia/Lord_Howe", "2026-04-05T01:30:00", "2026-04-04T14:30:00Z"),  // overlap: +11
            ("Australia/Lord_Howe", "2026-04-05T01:45:00", "2026-04-04T14:45:00Z"),  // overlap: +11
            ("Australia/Lord_Howe", "2026-04-05T02:00:00", "2026-04-04T15:30:00Z"),
            ("America/New_York", "2450-03-13T02:30:00", "2450-03-13T07:30:00Z"),  // footer gap
            ("America/New_York", "2450-11-06T01:30:00", "2450-11-06T05:30:00Z"),  // footer overlap
            ("America/New_York", "2450-11-06T02:00:00", "2450-11-06T07:00:00Z"),
            ("Asia/Kolkata", "2026-06-01T09:00:00", "2026-06-01T03:30:00Z")
        ])
    func wallClockToInstant(zoneName: String, wall: String, expectedUTC: String) throws {
        let z = try zone(zoneName)
        let local = LocalDateTime(localSeconds: ExpectedTimes.instant(wall + "Z").secondsSince1970)
        #expect(z.instant(for: local) == ExpectedTimes.instant(expectedUTC))
    }

    // MARK: - HOURLY across both New York transitions

    /// FREQ=HOURLY from 00:30 on the spring-forward day: wall-clock stepping; the generated 02:30
    /// falls in the gap and maps to 03:30 EDT, the same instant as the generated 03:30, kept once.
    private static func hourly() throws -> (RecurrenceSet, ZoneRules) {
        let ny = try zone("America/New_York")
        return (RecurrenceSet(start: .zoned(L(2026, 3, 8, 0, 30), ny), rules: [try RecurrenceRule(parsing: "FREQ=HOURLY")]), ny)
    }

    @Test("HOURLY across the New York spring gap")
    func hourlySpringForward() throws {
        let (set, ny) = try Self.hourly()
        let expected = [
            "2026-03-08T00:30:00-05:00", "2026-03-08T01:30:00-05:00", "2026-03-08T03:30:00-04:00",
            "2026-03-08T04:30:00-04:00", "2026-03-08T05:30:00-04:00"
        ]
        let first = set.first(5)
        #expect(first.wallClock(in: ny) == expected)
        #expect(first.map(\.nominal.hour) == [0, 1, 2, 4, 5])  // the gap instance keeps its generated 02:30
        let window = set.occurrences(
            from: ExpectedTimes.instant("2026-03-08T05:00:00Z"),
            to: ExpectedTimes.instant("2026-03-08T10:00:00Z"))
        #expect(window.occurrences.wallClock(in: ny) == expected)
        #expect(!window.isTruncated)
        #expect(set.next(after: ExpectedTimes.instant(expected[1]))?.wallClock(in: ny) == expected[2])
        #expect(set.next(after: ExpectedTimes.instant(expected[2]))?.wallClock(in: ny) == expected[3])
    }

    @Test("HOURLY across the New York fall overlap: 01:30 once, with the EDT instant")
    func hourlyFallBack() throws {
        let (set, ny) = try Self.hourly()
        let expected = [
            "2026-11-01T00:30:00-04:00", "2026-11-01T01:30:00-04:00",
            "2026-11-01T02:30:00-05:00", "2026-11-01T03:30:00-05:00"
        ]
        let window = set.occurrences(
            from: ExpectedTimes.instant("2026-11-01T04:00:00Z"),
            to: ExpectedTimes.instant("2026-11-01T09:00:00Z"))
        #expect(window.occurrences.wallClock(in: ny) == expected)
        #expect(window.occurrences.map(\.instant.secondsSince1970) == [1_793_507_400, 1_793_511_000, 1_793_518_200, 1_793_521_800])
        #expect(set.next(after: ExpectedTimes.instant("2026-11-01T05:30:00Z"))?.wallClock(in: ny) == expected[2])
        #expect(set.next(after: ExpectedTimes.instant("2026-11-01T06:29:59Z"))?.wallClock(in: ny) == expected[2])
    }

    @Test("DAILY;BYHOUR=1,2,3 on both New York transition days: one instance per instant")
    func dailyByHourOnTransitionDays() throws {
        let ny = try zone("America/New_York")
        let set = RecurrenceSet(start: .zoned(L(2026, 3, 7, 1), ny), rules: [try RecurrenceRule(parsing: "FREQ=DAILY;BYHOUR=1,2,3")])
        // March 8: 02:00 does not exist and maps to 03:00 EDT, the instant of 03:00 itself.
        #expect(
            set.first(8).wallClock(in: ny) == [
                "2026-03-07T01:00:00-05:00", "2026-03-07T02:00:00-05:00", "2026-03-07T03:00:00-05:00",
                "2026-03-08T01:00:00-05:00", "2026-03-08T03:00:00-04:00",
                "2026-03-09T01:00:00-04:00", "2026-03-09T02:00:00-04:00", "2026-03-09T03:00:00-04:00"
            ])
        // November 1: 01:00 happens twice and is produced once, in EDT.
        let window = set.occurrences(from: ExpectedTimes.instant("2026-11-01T04:00:00Z"), to: ExpectedTimes.instant("2026-11-01T12:00:00Z"))
        #expect(window.occurrences.wallClock(in: ny) == ["2026-11-01T01:00:00-04:00", "2026-11-01T02:00:00-05:00", "2026-11-01T03:00:00-05:00"])
    }

    @Test("EXDATE and RDATE written as wall times in the gap and the overlap")
    func datesInGapAndOverlap() throws {
        let ny = try zone("America/New_York")
        // The EXDATE names the nonexistent 02:30, which is the instance's own (generated) time.
        let daily = RecurrenceSet(
            start: .zoned(L(2026, 3, 6, 2, 30), ny), rules: [try RecurrenceRule(parsing: "FREQ=DAILY;COUNT=5")],
            exceptionDates: [.local(L(2026, 3, 8, 2, 30))])
        #expect(
            daily.first(10).wallClock(in: ny)
                == ["2026-03-06T02:30:00-05:00", "2026-03-07T02:30:00-05:00", "2026-03-09T02:30:00-04:00", "2026-03-10T02:30:00-04:00"])
        let rdates = RecurrenceSet(
            start: .zoned(L(2026, 3, 1, 9), ny),
            dates: [.local(L(2026, 11, 1, 1, 30)), .local(L(2026, 3, 8, 2, 30))])
        #expect(
            rdates.first(10).wallClock(in: ny)
                == ["2026-03-01T09:00:00-05:00", "2026-03-08T03:30:00-04:00", "2026-11-01T01:30:00-04:00"])
    }

    // MARK: - DTSTART in a gap or an overlap

    @Test("DAILY whose DTSTART is in the New York gap")
    func dailyStartingInGap() throws {
        let expected = ["2026-03-08T03:30:00-04:00", "2026-03-09T02:30:00-04:00", "2026-03-10T02:30:00-04:00"]
        try expectExpansion("America/New_York", L(2026, 3, 8, 2, 30), "FREQ=DAILY;COUNT=3", first: 10, expected)
        let ny = try zone("America/New_York")
        let set = RecurrenceSet(start: .zoned(L(2026, 3, 8, 2, 30), ny), rules: [try RecurrenceRule(parsing: "FREQ=DAILY;COUNT=3")])
        #expect(set.first(1).first?.nominal == L(2026, 3, 8, 2, 30))
    }

    @Test("DAILY at 02:30 stepping over the New York gap")
    func dailyAcrossGap() throws {
        let expected = ["2026-03-07T02:30:00-05:00", "2026-03-08T03:30:00-04:00", "2026-03-09T02:30:00-04:00"]
        try expectExpansion("America/New_York", L(2026, 3, 7, 2, 30), "FREQ=DAILY", first: 3, expected)
    }

    @Test("DAILY whose DTSTART is in the New York overlap")
    func dailyStartingInOverlap() throws {
        let expected = ["2026-11-01T01:30:00-04:00", "2026-11-02T01:30:00-05:00", "2026-11-03T01:30:00-05:00"]
        try expectExpansion("America/New_York", L(2026, 11, 1, 1, 30), "FREQ=DAILY;COUNT=3", first: 10, expected)
    }

    @Test("DAILY at 01:30 stepping over the New York overlap")
    func dailyAcrossOverlap() throws {
        let expected = ["2026-10-31T01:30:00-04:00", "2026-11-01T01:30:00-04:00", "2026-11-02T01:30:00-05:00"]
        try expectExpansion("America/New_York", L(2026, 10, 31, 1, 30), "FREQ=DAILY", first: 3, expected)
    }

    @Test("Berlin: DAILY at 02:30 over the March gap and the October overlap")
    func berlinDaily() throws {
        try expectExpansion(
            "Europe/Berlin", L(2026, 3, 28, 2, 30), "FREQ=DAILY;COUNT=3", first: 10,
            ["2026-03-28T02:30:00+01:00", "2026-03-29T03:30:00+02:00", "2026-03-30T02:30:00+02:00"])
        try expectExpansion(
            "Europe/Berlin", L(2026, 10, 24, 2, 30), "FREQ=DAILY;COUNT=3", first: 10,
            ["2026-10-24T02:30:00+02:00", "2026-10-25T02:30:00+02:00", "2026-10-26T02:30:00+01:00"])
    }

    @Test("Sydney: WEEKLY on Sunday 02:30 over the April overlap and the October gap")
    func sydneyWeekly() throws {
        try expectExpansion(
            "Australia/Sydney", L(2026, 3, 29, 2, 30), "FREQ=WEEKLY;COUNT=3", first: 10,
            ["2026-03-29T02:30:00+11:00", "2026-04-05T02:30:00+11:00", "2026-04-12T02:30:00+10:00"])
        try expectExpansion(
            "Australia/Sydney", L(2026, 9, 27, 2, 30), "FREQ=WEEKLY;COUNT=3", first: 10,
            ["2026-09-27T02:30:00+10:00", "2026-10-04T03:30:00+11:00", "2026-10-11T02:30:00+11:00"])
    }

    @Test("Lord Howe: DAILY over the 30-minute gap and overlap")
    func lordHoweDaily() throws {
        try expectExpansion(
            "Australia/Lord_Howe", L(2026, 10, 3, 2, 15), "FREQ=DAILY;COUNT=3", first: 10,
            ["2026-10-03T02:15:00+10:30", "2026-10-04T02:45:00+11:00", "2026-10-05T02:15:00+11:00"])
        try expectExpansion(
            "Australia/Lord_Howe", L(2026, 4, 4, 1, 45), "FREQ=DAILY;COUNT=3", first: 10,
            ["2026-04-04T01:45:00+11:00", "2026-04-05T01:45:00+11:00", "2026-04-06T01:45:00+10:30"])
    }

    // MARK: - Far future and zones without DST

    @Test("New York in 2450 (POSIX footer): DAILY over the gap and the overlap")
    func farFutureDaily() throws {
        try expectExpansion(
            "America/New_York", L(2450, 3, 12, 2, 30), "FREQ=DAILY;COUNT=3", first: 10,
            ["2450-03-12T02:30:00-05:00", "2450-03-13T03:30:00-04:00", "2450-03-14T02:30:00-04:00"])
        try expectExpansion(
            "America/New_York", L(2450, 11, 5, 1, 30), "FREQ=DAILY;COUNT=3", first: 10,
            ["2450-11-05T01:30:00-04:00", "2450-11-06T01:30:00-04:00", "2450-11-07T01:30:00-05:00"])
    }

    @Test("New York across the end of the precomputed table (2400 → 2401)")
    func acrossTableEnd() throws {
        try expectExpansion(
            "America/New_York", L(2400, 12, 30, 12), "FREQ=DAILY;COUNT=4", first: 10,
            ["2400-12-30T12:00:00-05:00", "2400-12-31T12:00:00-05:00", "2401-01-01T12:00:00-05:00", "2401-01-02T12:00:00-05:00"])
        try expectExpansion(
            "America/New_York", L(2399, 7, 4, 12), "FREQ=YEARLY;COUNT=4", first: 10,
            ["2399-07-04T12:00:00-04:00", "2400-07-04T12:00:00-04:00", "2401-07-04T12:00:00-04:00", "2402-07-04T12:00:00-04:00"])
    }

    @Test("New York in 2450: window and next(after:) far from DTSTART")
    func farFutureWindow() throws {
        let ny = try zone("America/New_York")
        let set = RecurrenceSet(start: .zoned(L(2026, 1, 4, 2, 30), ny), rules: [try RecurrenceRule(parsing: "FREQ=WEEKLY;BYDAY=SU")])
        let window = set.occurrences(from: ExpectedTimes.instant("2450-03-05T00:00:00Z"), to: ExpectedTimes.instant("2450-03-21T00:00:00Z"))
        #expect(
            window.occurrences.wallClock(in: ny)
                == ["2450-03-06T02:30:00-05:00", "2450-03-13T03:30:00-04:00", "2450-03-20T02:30:00-04:00"])
        #expect(set.next(after: ExpectedTimes.instant("2450-11-01T00:00:00Z"))?.wallClock(in: ny) == "2450-11-06T02:30:00-05:00")
    }

    @Test("Kolkata (no DST): constant +05:30 while New York changes")
    func kolkata() throws {
        try expectExpansion(
            "Asia/Kolkata", L(2026, 3, 7, 9), "FREQ=DAILY;COUNT=3", first: 10,
            ["2026-03-07T09:00:00+05:30", "2026-03-08T09:00:00+05:30", "2026-03-09T09:00:00+05:30"])
        try expectExpansion(
            "Asia/Kolkata", L(2026, 10, 25, 2, 30), "FREQ=WEEKLY;INTERVAL=1", first: 3,
            ["2026-10-25T02:30:00+05:30", "2026-11-01T02:30:00+05:30", "2026-11-08T02:30:00+05:30"])
        let z = try zone("Asia/Kolkata")
        for utc in ["2026-03-08T07:00:00Z", "2026-11-01T06:00:00Z", "2450-03-13T07:00:00Z"] {
            #expect(z.offset(at: ExpectedTimes.instant(utc)) == 19_800)
        }
    }
}
