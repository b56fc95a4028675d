import Testing
@testable import ChimeCore

/// The library example of docs/library.md, run as written, so the output it shows stays true
/// (README.md's command-line transcripts are run by ReadmeTranscriptTests).
@Suite("README library example")
struct ReadmeExampleTests {
    @Test func lastFridayExample() throws {
        let ny = try ZoneRules.named("America/New_York")
        let rule = try RecurrenceRule(parsing: "FREQ=MONTHLY;BYDAY=-1FR")
        let set = RecurrenceSet(
            start: .zoned(LocalDateTime(year: 2026, month: 1, day: 30, hour: 9), ny),
            rules: [rule], exceptionDates: [.local(LocalDateTime(year: 2026, month: 2, day: 27, hour: 9))])
        #expect(
            set.first(3).map(\.nominal) == [
                LocalDateTime(year: 2026, month: 1, day: 30, hour: 9),
                LocalDateTime(year: 2026, month: 3, day: 27, hour: 9),
                LocalDateTime(year: 2026, month: 4, day: 24, hour: 9)
            ])
        #expect(set.next(after: ny.instant(for: LocalDateTime(year: 2030, month: 6, day: 1)))?.instant.description == "2030-06-28T13:00:00Z")
        let june = set.occurrences(
            from: ny.instant(for: LocalDateTime(year: 2026, month: 6, day: 1)),
            to: ny.instant(for: LocalDateTime(year: 2026, month: 7, day: 1)), limit: 100)
        #expect(june.occurrences.map(\.instant.description) == ["2026-06-26T13:00:00Z"])
        #expect(!june.isTruncated && june.end == nil)
    }
}
