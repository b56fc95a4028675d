import Testing
@testable import ChimeCore

@Suite("Rules that can never match again end, and say why")
struct SearchHorizonTests {
    static let impossible = [
        "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30",
        "FREQ=MONTHLY;BYMONTH=4;BYMONTHDAY=31",
        "FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30",
        "FREQ=WEEKLY;BYMONTH=6;BYDAY=MO;BYSETPOS=9",
        "FREQ=HOURLY;INTERVAL=2;BYHOUR=1",
        "FREQ=MINUTELY;INTERVAL=2;BYMINUTE=1",
        "FREQ=SECONDLY;INTERVAL=2;BYSECOND=1",
        "FREQ=SECONDLY;BYSECOND=60",
        "FREQ=DAILY;BYSECOND=60"
    ]

    @Test(arguments: impossible)
    func endsAtTheSearchHorizonWithOnlyDTSTART(_ text: String) throws {
        let start = LocalDateTime(year: 2100, month: 1, day: 1)
        let set = RecurrenceSet(start: .utc(start), rules: [try RecurrenceRule(parsing: text)])
        var iterator = set.occurrences().makeIterator()
        #expect(iterator.next()?.nominal == start, "DTSTART is always the first instance")
        #expect(iterator.next() == nil)
        #expect(iterator.end == .searchHorizon)
        let window = set.occurrences(from: Instant(secondsSince1970: 0), to: Instant(secondsSince1970: 253_402_300_799))
        #expect(window.occurrences.count == 1 && window.end == .searchHorizon && !window.isTruncated)
    }

    @Test func rareButPossibleRulesAreNotCutShort() throws {
        // February 29th at midnight, SECONDLY: one instance every four (around 2100: eight) years.
        let set = RecurrenceSet(
            start: .utc(LocalDateTime(year: 2096, month: 3, day: 1)),
            rules: [try RecurrenceRule(parsing: "FREQ=SECONDLY;BYMONTH=2;BYMONTHDAY=29;BYHOUR=0;BYMINUTE=0;BYSECOND=0")])
        #expect(set.first(3).map(\.date.description) == ["2096-03-01", "2104-02-29", "2108-02-29"])
        // Friday the 13th in February only: gaps of up to 11 years.
        let f13 = RecurrenceSet(
            start: .utc(LocalDateTime(year: 2026, month: 2, day: 13)),
            rules: [try RecurrenceRule(parsing: "FREQ=MONTHLY;BYMONTH=2;BYDAY=FR;BYMONTHDAY=13")])
        #expect(f13.first(4).map(\.date.description) == ["2026-02-13", "2032-02-13", "2037-02-13", "2043-02-13"])
    }

    @Test func endOfCalendar() throws {
        let set = RecurrenceSet(start: .utc(LocalDateTime(year: 9998, month: 6, day: 1)), rules: [try RecurrenceRule(parsing: "FREQ=YEARLY")])
        var iterator = set.occurrences().makeIterator()
        var years: [Int] = []
        while let o = iterator.next() { years.append(o.nominal.date.year) }
        #expect(years == [9998, 9999])
        #expect(iterator.end == .endOfCalendar)
    }

    @Test func countAndUntilAreReported() throws {
        let counted = RecurrenceSet(start: .utc(LocalDateTime(year: 2026, month: 1, day: 1)), rules: [try RecurrenceRule(parsing: "FREQ=DAILY;COUNT=3")])
        var a = counted.occurrences().makeIterator()
        while a.next() != nil {}
        #expect(a.end == .count)
        let until = RecurrenceSet(
            start: .utc(LocalDateTime(year: 2026, month: 1, day: 1)), rules: [try RecurrenceRule(parsing: "FREQ=DAILY;UNTIL=20260103T000000Z")])
        var b = until.occurrences().makeIterator()
        var n = 0
        while b.next() != nil { n += 1 }
        #expect(n == 3 && b.end == .until)
    }
}
