import Testing
@testable import ChimeCore

// Every example of RFC 5545 §3.8.5.3 ("Recurrence Rule"), in the RFC's order. The expected
// lists are transcribed from the RFC text ("==> (1997 9:00 AM EDT) September 2-11" and so on);
// EDT is -04:00 and EST is -05:00, and the RFC says which applies to each line. "Forever" rules
// are compared on the occurrences the RFC lists before its "...".

private let newYork = try! ZoneRules.named("America/New_York")
private let EDT = "-04:00"
private let EST = "-05:00"

/// "(year 9:00 AM offset) Month d1,d2,…".
private func on(_ year: Int, _ month: Int, _ days: [Int], _ offset: String, at time: String = "09:00") -> [String] {
    ExpectedTimes.days(year, month, days, time, offset)
}

private func every(_ step: Int, _ range: ClosedRange<Int>) -> [Int] { Array(stride(from: range.lowerBound, through: range.upperBound, by: step)) }

/// The set of `DTSTART;TZID=America/New_York:<start>` with one RRULE (and EXDATEs in the same zone).
private func set(_ start: LocalDateTime, _ rule: String, exdates: [LocalDateTime] = []) throws -> RecurrenceSet {
    RecurrenceSet(
        start: .zoned(start, newYork), rules: [try RecurrenceRule(parsing: rule)],
        exceptionDates: exdates.map { .local($0) })
}

/// All occurrences of a bounded set. Asks for a few more than expected, so that a set that does
/// not stop where the RFC says shows its extra occurrences instead of hanging the test.
private func expectAll(
    _ start: LocalDateTime, _ rule: String, _ expected: [String],
    sourceLocation: SourceLocation = #_sourceLocation
) throws {
    let actual = try set(start, rule).first(expected.count + 5).wallClock(in: newYork)
    #expect(actual == expected, sourceLocation: sourceLocation)
}

/// The first occurrences of an unbounded set, as many as the RFC lists.
private func expectLeading(
    _ start: LocalDateTime, _ rule: String, exdates: [LocalDateTime] = [], _ expected: [String],
    sourceLocation: SourceLocation = #_sourceLocation
) throws {
    let actual = try set(start, rule, exdates: exdates).first(expected.count).wallClock(in: newYork)
    #expect(actual == expected, sourceLocation: sourceLocation)
}

private let sep2 = ExpectedTimes.local(1997, 9, 2, 9)

@Suite("RFC 5545 §3.8.5.3 examples")
struct RFC5545ExampleTests {
    @Test("Daily for 10 occurrences")
    func dailyFor10() throws {
        let expected = on(1997, 9, Array(2...11), EDT)
        try expectAll(sep2, "FREQ=DAILY;COUNT=10", expected)
    }

    @Test("Daily until December 24, 1997")
    func dailyUntilDecember24() throws {
        let expected =
            on(1997, 9, Array(2...30), EDT) + on(1997, 10, Array(1...25), EDT)
            + on(1997, 10, Array(26...31), EST) + on(1997, 11, Array(1...30), EST) + on(1997, 12, Array(1...23), EST)
        try expectAll(sep2, "FREQ=DAILY;UNTIL=19971224T000000Z", expected)
    }

    @Test("Every other day - forever")
    func everyOtherDay() throws {
        // "September 2,4,6,8...24,26,28,30; October 2,4,6...20,22,24" (EDT), then
        // "October 26,28,30; November 1,3,5,7...25,27,29; December 1,3,..." (EST).
        let expected =
            on(1997, 9, every(2, 2...30), EDT) + on(1997, 10, every(2, 2...24), EDT)
            + on(1997, 10, [26, 28, 30], EST) + on(1997, 11, every(2, 1...29), EST) + on(1997, 12, [1, 3], EST)
        try expectLeading(sep2, "FREQ=DAILY;INTERVAL=2", expected)
    }

    @Test("Every 10 days, 5 occurrences")
    func every10Days() throws {
        let expected = on(1997, 9, [2, 12, 22], EDT) + on(1997, 10, [2, 12], EDT)
        try expectAll(sep2, "FREQ=DAILY;INTERVAL=10;COUNT=5", expected)
    }

    @Test(
        "Every day in January, for 3 years",
        arguments: [
            "FREQ=YEARLY;UNTIL=20000131T140000Z;BYMONTH=1;BYDAY=SU,MO,TU,WE,TH,FR,SA",
            "FREQ=DAILY;UNTIL=20000131T140000Z;BYMONTH=1"
        ])
    func everyDayInJanuary(rule: String) throws {
        let expected = on(1998, 1, Array(1...31), EST) + on(1999, 1, Array(1...31), EST) + on(2000, 1, Array(1...31), EST)
        try expectAll(ExpectedTimes.local(1998, 1, 1, 9), rule, expected)
    }

    @Test("Weekly for 10 occurrences")
    func weeklyFor10() throws {
        let expected =
            on(1997, 9, [2, 9, 16, 23, 30], EDT) + on(1997, 10, [7, 14, 21], EDT)
            + on(1997, 10, [28], EST) + on(1997, 11, [4], EST)
        try expectAll(sep2, "FREQ=WEEKLY;COUNT=10", expected)
    }

    @Test("Weekly until December 24, 1997")
    func weeklyUntilDecember24() throws {
        let expected =
            on(1997, 9, [2, 9, 16, 23, 30], EDT) + on(1997, 10, [7, 14, 21], EDT)
            + on(1997, 10, [28], EST) + on(1997, 11, [4, 11, 18, 25], EST) + on(1997, 12, [2, 9, 16, 23], EST)
        try expectAll(sep2, "FREQ=WEEKLY;UNTIL=19971224T000000Z", expected)
    }

    @Test("Every other week - forever")
    func everyOtherWeek() throws {
        let expected =
            on(1997, 9, [2, 16, 30], EDT) + on(1997, 10, [14], EDT)
            + on(1997, 10, [28], EST) + on(1997, 11, [11, 25], EST) + on(1997, 12, [9, 23], EST)
            + on(1998, 1, [6, 20], EST) + on(1998, 2, [3, 17], EST)
        try expectLeading(sep2, "FREQ=WEEKLY;INTERVAL=2;WKST=SU", expected)
    }

    @Test(
        "Weekly on Tuesday and Thursday for five weeks",
        arguments: [
            "FREQ=WEEKLY;UNTIL=19971007T000000Z;WKST=SU;BYDAY=TU,TH",
            "FREQ=WEEKLY;COUNT=10;WKST=SU;BYDAY=TU,TH"
        ])
    func tuesdayThursdayFiveWeeks(rule: String) throws {
        let expected = on(1997, 9, [2, 4, 9, 11, 16, 18, 23, 25, 30], EDT) + on(1997, 10, [2], EDT)
        try expectAll(sep2, rule, expected)
    }

    @Test("Every other week on Monday, Wednesday, and Friday until December 24, 1997")
    func everyOtherWeekMondayWednesdayFriday() throws {
        let expected =
            on(1997, 9, [1, 3, 5, 15, 17, 19, 29], EDT) + on(1997, 10, [1, 3, 13, 15, 17], EDT)
            + on(1997, 10, [27, 29, 31], EST) + on(1997, 11, [10, 12, 14, 24, 26, 28], EST)
            + on(1997, 12, [8, 10, 12, 22], EST)
        let rule = "FREQ=WEEKLY;INTERVAL=2;UNTIL=19971224T000000Z;WKST=SU;BYDAY=MO,WE,FR"
        try expectAll(ExpectedTimes.local(1997, 9, 1, 9), rule, expected)
    }

    @Test("Every other week on Tuesday and Thursday, for 8 occurrences")
    func everyOtherWeekTuesdayThursday() throws {
        let expected = on(1997, 9, [2, 4, 16, 18, 30], EDT) + on(1997, 10, [2, 14, 16], EDT)
        try expectAll(sep2, "FREQ=WEEKLY;INTERVAL=2;COUNT=8;WKST=SU;BYDAY=TU,TH", expected)
    }

    @Test("Monthly on the first Friday for 10 occurrences")
    func firstFridayFor10() throws {
        let expected =
            on(1997, 9, [5], EDT) + on(1997, 10, [3], EDT) + on(1997, 11, [7], EST) + on(1997, 12, [5], EST)
            + on(1998, 1, [2], EST) + on(1998, 2, [6], EST) + on(1998, 3, [6], EST) + on(1998, 4, [3], EST)
            + on(1998, 5, [1], EDT) + on(1998, 6, [5], EDT)
        try expectAll(ExpectedTimes.local(1997, 9, 5, 9), "FREQ=MONTHLY;COUNT=10;BYDAY=1FR", expected)
    }

    @Test("Monthly on the first Friday until December 24, 1997")
    func firstFridayUntilDecember24() throws {
        let expected = on(1997, 9, [5], EDT) + on(1997, 10, [3], EDT) + on(1997, 11, [7], EST) + on(1997, 12, [5], EST)
        let rule = "FREQ=MONTHLY;UNTIL=19971224T000000Z;BYDAY=1FR"
        try expectAll(ExpectedTimes.local(1997, 9, 5, 9), rule, expected)
    }

    @Test("Every other month on the first and last Sunday of the month for 10 occurrences")
    func everyOtherMonthFirstAndLastSunday() throws {
        let expected =
            on(1997, 9, [7, 28], EDT) + on(1997, 11, [2, 30], EST)
            + on(1998, 1, [4, 25], EST) + on(1998, 3, [1, 29], EST) + on(1998, 5, [3, 31], EDT)
        let rule = "FREQ=MONTHLY;INTERVAL=2;COUNT=10;BYDAY=1SU,-1SU"
        try expectAll(ExpectedTimes.local(1997, 9, 7, 9), rule, expected)
    }

    @Test("Monthly on the second-to-last Monday of the month for 6 months")
    func secondToLastMonday() throws {
        let expected =
            on(1997, 9, [22], EDT) + on(1997, 10, [20], EDT) + on(1997, 11, [17], EST)
            + on(1997, 12, [22], EST) + on(1998, 1, [19], EST) + on(1998, 2, [16], EST)
        try expectAll(ExpectedTimes.local(1997, 9, 22, 9), "FREQ=MONTHLY;COUNT=6;BYDAY=-2MO", expected)
    }

    @Test("Monthly on the third-to-the-last day of the month, forever")
    func thirdToLastDay() throws {
        let expected =
            on(1997, 9, [28], EDT) + on(1997, 10, [29], EST) + on(1997, 11, [28], EST)
            + on(1997, 12, [29], EST) + on(1998, 1, [29], EST) + on(1998, 2, [26], EST)
        try expectLeading(ExpectedTimes.local(1997, 9, 28, 9), "FREQ=MONTHLY;BYMONTHDAY=-3", expected)
    }

    @Test("Monthly on the 2nd and 15th of the month for 10 occurrences")
    func secondAndFifteenth() throws {
        let expected =
            on(1997, 9, [2, 15], EDT) + on(1997, 10, [2, 15], EDT) + on(1997, 11, [2, 15], EST)
            + on(1997, 12, [2, 15], EST) + on(1998, 1, [2, 15], EST)
        try expectAll(sep2, "FREQ=MONTHLY;COUNT=10;BYMONTHDAY=2,15", expected)
    }

    @Test("Monthly on the first and last day of the month for 10 occurrences")
    func firstAndLastDay() throws {
        let expected =
            on(1997, 9, [30], EDT) + on(1997, 10, [1], EDT) + on(1997, 10, [31], EST)
            + on(1997, 11, [1, 30], EST) + on(1997, 12, [1, 31], EST) + on(1998, 1, [1, 31], EST) + on(1998, 2, [1], EST)
        try expectAll(ExpectedTimes.local(1997, 9, 30, 9), "FREQ=MONTHLY;COUNT=10;BYMONTHDAY=1,-1", expected)
    }

    @Test("Every 18 months on the 10th thru 15th of the month for 10 occurrences")
    func every18Months() throws {
        let expected = on(1997, 9, Array(10...15), EDT) + on(1999, 3, [10, 11, 12, 13], EST)
        let rule = "FREQ=MONTHLY;INTERVAL=18;COUNT=10;BYMONTHDAY=10,11,12,13,14,15"
        try expectAll(ExpectedTimes.local(1997, 9, 10, 9), rule, expected)
    }

    @Test("Every Tuesday, every other month")
    func everyTuesdayEveryOtherMonth() throws {
        let expected =
            on(1997, 9, [2, 9, 16, 23, 30], EDT) + on(1997, 11, [4, 11, 18, 25], EST)
            + on(1998, 1, [6, 13, 20, 27], EST) + on(1998, 3, [3, 10, 17, 24, 31], EST)
        try expectLeading(sep2, "FREQ=MONTHLY;INTERVAL=2;BYDAY=TU", expected)
    }

    @Test("Yearly in June and July for 10 occurrences")
    func yearlyJuneJuly() throws {
        let expected = (1997...2001).flatMap { on($0, 6, [10], EDT) + on($0, 7, [10], EDT) }
        try expectAll(ExpectedTimes.local(1997, 6, 10, 9), "FREQ=YEARLY;COUNT=10;BYMONTH=6,7", expected)
    }

    @Test("Every other year on January, February, and March for 10 occurrences")
    func everyOtherYearJanuaryFebruaryMarch() throws {
        let expected =
            on(1997, 3, [10], EST)
            + [1999, 2001, 2003].flatMap { on($0, 1, [10], EST) + on($0, 2, [10], EST) + on($0, 3, [10], EST) }
        let rule = "FREQ=YEARLY;INTERVAL=2;COUNT=10;BYMONTH=1,2,3"
        try expectAll(ExpectedTimes.local(1997, 3, 10, 9), rule, expected)
    }

    @Test("Every third year on the 1st, 100th, and 200th day for 10 occurrences")
    func everyThirdYearByYearDay() throws {
        let expected =
            on(1997, 1, [1], EST) + on(1997, 4, [10], EDT) + on(1997, 7, [19], EDT)
            + on(2000, 1, [1], EST) + on(2000, 4, [9], EDT) + on(2000, 7, [18], EDT)
            + on(2003, 1, [1], EST) + on(2003, 4, [10], EDT) + on(2003, 7, [19], EDT)
            + on(2006, 1, [1], EST)
        let rule = "FREQ=YEARLY;INTERVAL=3;COUNT=10;BYYEARDAY=1,100,200"
        try expectAll(ExpectedTimes.local(1997, 1, 1, 9), rule, expected)
    }

    @Test("Every 20th Monday of the year, forever")
    func twentiethMonday() throws {
        let expected = on(1997, 5, [19], EDT) + on(1998, 5, [18], EDT) + on(1999, 5, [17], EDT)
        try expectLeading(ExpectedTimes.local(1997, 5, 19, 9), "FREQ=YEARLY;BYDAY=20MO", expected)
    }

    @Test("Monday of week number 20 (where the default start of the week is Monday), forever")
    func mondayOfWeek20() throws {
        let expected = on(1997, 5, [12], EDT) + on(1998, 5, [11], EDT) + on(1999, 5, [17], EDT)
        try expectLeading(ExpectedTimes.local(1997, 5, 12, 9), "FREQ=YEARLY;BYWEEKNO=20;BYDAY=MO", expected)
    }

    @Test("Every Thursday in March, forever")
    func everyThursdayInMarch() throws {
        let expected = on(1997, 3, [13, 20, 27], EST) + on(1998, 3, [5, 12, 19, 26], EST) + on(1999, 3, [4, 11, 18, 25], EST)
        try expectLeading(ExpectedTimes.local(1997, 3, 13, 9), "FREQ=YEARLY;BYMONTH=3;BYDAY=TH", expected)
    }

    @Test("Every Thursday, but only during June, July, and August, forever")
    func everyThursdayInSummer() throws {
        let expected =
            on(1997, 6, [5, 12, 19, 26], EDT) + on(1997, 7, [3, 10, 17, 24, 31], EDT) + on(1997, 8, [7, 14, 21, 28], EDT)
            + on(1998, 6, [4, 11, 18, 25], EDT) + on(1998, 7, [2, 9, 16, 23, 30], EDT) + on(1998, 8, [6, 13, 20, 27], EDT)
            + on(1999, 6, [3, 10, 17, 24], EDT) + on(1999, 7, [1, 8, 15, 22, 29], EDT) + on(1999, 8, [5, 12, 19, 26], EDT)
        try expectLeading(ExpectedTimes.local(1997, 6, 5, 9), "FREQ=YEARLY;BYDAY=TH;BYMONTH=6,7,8", expected)
    }

    @Test("Every Friday the 13th, forever")
    func fridayThe13th() throws {
        // DTSTART (a Tuesday) is removed by EXDATE;TZID=America/New_York:19970902T090000.
        let expected =
            on(1998, 2, [13], EST) + on(1998, 3, [13], EST) + on(1998, 11, [13], EST)
            + on(1999, 8, [13], EDT) + on(2000, 10, [13], EDT)
        try expectLeading(sep2, "FREQ=MONTHLY;BYDAY=FR;BYMONTHDAY=13", exdates: [sep2], expected)
    }

    @Test("The first Saturday that follows the first Sunday of the month, forever")
    func firstSaturdayAfterFirstSunday() throws {
        let expected =
            on(1997, 9, [13], EDT) + on(1997, 10, [11], EDT) + on(1997, 11, [8], EST) + on(1997, 12, [13], EST)
            + on(1998, 1, [10], EST) + on(1998, 2, [7], EST) + on(1998, 3, [7], EST)
            + on(1998, 4, [11], EDT) + on(1998, 5, [9], EDT) + on(1998, 6, [13], EDT)
        let rule = "FREQ=MONTHLY;BYDAY=SA;BYMONTHDAY=7,8,9,10,11,12,13"
        try expectLeading(ExpectedTimes.local(1997, 9, 13, 9), rule, expected)
    }

    @Test("Every 4 years, the first Tuesday after a Monday in November, forever (U.S. Presidential Election day)")
    func presidentialElectionDay() throws {
        let expected = on(1996, 11, [5], EST) + on(2000, 11, [7], EST) + on(2004, 11, [2], EST)
        let rule = "FREQ=YEARLY;INTERVAL=4;BYMONTH=11;BYDAY=TU;BYMONTHDAY=2,3,4,5,6,7,8"
        try expectLeading(ExpectedTimes.local(1996, 11, 5, 9), rule, expected)
    }

    @Test("The third instance into the month of one of Tuesday, Wednesday, or Thursday, for the next 3 months")
    func thirdTuesdayWednesdayOrThursday() throws {
        let expected = on(1997, 9, [4], EDT) + on(1997, 10, [7], EDT) + on(1997, 11, [6], EST)
        let rule = "FREQ=MONTHLY;COUNT=3;BYDAY=TU,WE,TH;BYSETPOS=3"
        try expectAll(ExpectedTimes.local(1997, 9, 4, 9), rule, expected)
    }

    @Test("The second-to-last weekday of the month")
    func secondToLastWeekday() throws {
        let expected =
            on(1997, 9, [29], EDT) + on(1997, 10, [30], EST) + on(1997, 11, [27], EST) + on(1997, 12, [30], EST)
            + on(1998, 1, [29], EST) + on(1998, 2, [26], EST) + on(1998, 3, [30], EST)
        let rule = "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-2"
        try expectLeading(ExpectedTimes.local(1997, 9, 29, 9), rule, expected)
    }

    // The RFC prints 09:00, 12:00 and 15:00 EDT for UNTIL=19970902T170000Z, but 17:00Z is
    // 13:00 EDT and UNTIL is an inclusive bound (§3.3.10), so 15:00 EDT (19:00Z) lies after it:
    // the example is self-contradictory. The title's "to 5:00 PM" is 17:00 EDT = 21:00Z, and with
    // that UNTIL the printed list is right; with the rule as printed, only 09:00 and 12:00 remain.
    @Test(
        "Every 3 hours from 9:00 AM to 5:00 PM on a specific day",
        arguments: [
            ("FREQ=HOURLY;INTERVAL=3;UNTIL=19970902T210000Z", ["09:00", "12:00", "15:00"]),
            ("FREQ=HOURLY;INTERVAL=3;UNTIL=19970902T170000Z", ["09:00", "12:00"])
        ])
    func every3Hours(rule: String, times: [String]) throws {
        let expected = ExpectedTimes.times(1997, 9, 2, times, EDT)
        try expectAll(sep2, rule, expected)
    }

    @Test("Every 15 minutes for 6 occurrences")
    func every15Minutes() throws {
        let expected = ExpectedTimes.times(1997, 9, 2, ["09:00", "09:15", "09:30", "09:45", "10:00", "10:15"], EDT)
        try expectAll(sep2, "FREQ=MINUTELY;INTERVAL=15;COUNT=6", expected)
    }

    @Test("Every hour and a half for 4 occurrences")
    func everyHourAndAHalf() throws {
        let expected = ExpectedTimes.times(1997, 9, 2, ["09:00", "10:30", "12:00", "13:30"], EDT)
        try expectAll(sep2, "FREQ=MINUTELY;INTERVAL=90;COUNT=4", expected)
    }

    @Test(
        "Every 20 minutes from 9:00 AM to 4:40 PM every day",
        arguments: [
            "FREQ=DAILY;BYHOUR=9,10,11,12,13,14,15,16;BYMINUTE=0,20,40",
            "FREQ=MINUTELY;INTERVAL=20;BYHOUR=9,10,11,12,13,14,15,16"
        ])
    func every20MinutesDuringTheDay(rule: String) throws {
        // "(September 2, 1997 EDT) 9:00,9:20,9:40,10:00,10:20, ... 16:00,16:20,16:40", the same on September 3.
        let times = (9...16).flatMap { h in [0, 20, 40].map { m in ExpectedTimes.two(h) + ":" + ExpectedTimes.two(m) } }
        let expected = ExpectedTimes.times(1997, 9, 2, times, EDT) + ExpectedTimes.times(1997, 9, 3, times, EDT)
        try expectLeading(sep2, rule, expected)
    }

    @Test(
        "An example where the days generated makes a difference because of WKST",
        arguments: [
            ("FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=MO", [5, 10, 19, 24]),
            ("FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=SU", [5, 17, 19, 31])
        ])
    func weekStartMatters(rule: String, augustDays: [Int]) throws {
        let expected = on(1997, 8, augustDays, EDT)
        try expectAll(ExpectedTimes.local(1997, 8, 5, 9), rule, expected)
    }

    @Test("An example where an invalid date (i.e., February 30) is ignored")
    func february30IsIgnored() throws {
        let expected = on(2007, 1, [15, 30], EST) + on(2007, 2, [15], EST) + on(2007, 3, [15, 30], EDT)
        try expectAll(ExpectedTimes.local(2007, 1, 15, 9), "FREQ=MONTHLY;BYMONTHDAY=15,30;COUNT=5", expected)
    }
}
