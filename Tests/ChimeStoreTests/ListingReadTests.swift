import ChimeCore
@testable import ChimeStore
import ChimeTestSupport
import Testing

/// What a listing reads: rule texts through the rule cache (parsed once per text without its
/// COUNT or UNTIL) read exactly as the full parse reads them, and a predicate without details
/// finds the same occurrences, only without notes and the like.
@Suite("Listing reads")
struct ListingReadTests {
    static let ruleTexts = [
        "FREQ=DAILY;COUNT=56;INTERVAL=3", "FREQ=DAILY;INTERVAL=3;COUNT=57", "COUNT=3;FREQ=DAILY", "FREQ=DAILY;UNTIL=20261230",
        "FREQ=WEEKLY;UNTIL=20261221T235959Z;BYDAY=MO", "FREQ=WEEKLY;BYDAY=MO;UNTIL=20261221T235959", "FREQ=DAILY;COUNT=3;",
        "RRULE:FREQ=DAILY;COUNT=2", "FREQ=MONTHLY;BYDAY=-1FR;COUNT=12", "FREQ=DAILY",
        // Texts the full parse refuses must still be refused.
        "FREQ=DAILY;COUNT=3;UNTIL=20261230", "FREQ=DAILY;COUNT=0", "FREQ=DAILY;COUNT=3;count=4", "FREQ=DAILY;UNTIL=2026",
        "FREQ=DAILY;COUNT=", "COUNT=3", "FREQ=DAILY;COUNT=12345678901", "FREQ=DAILY;COUNT=+3",
        "FREQ=DAILY\nFREQ=WEEKLY;COUNT=2", "FREQ=DAILY;UNTIL=20261230;UNTIL=20261231"
    ]

    @Test func theDecodingCacheReadsEveryRuleTextAsTheFullParseDoes() {
        var cache = ItemRows.DecodingCache()
        for round in 0..<2 {
            for text in Self.ruleTexts {
                let expected = try? ListCodec.rules(text, item: "x")
                let cached = try? cache.rules(text, item: "x")
                #expect(cached == expected, "\(text) (round \(round))")
            }
        }
    }

    @Test func aListingFindsTheSameOccurrencesWithoutDetails() throws {
        let t = try TestStore(zone: .utc)
        let calendar = try t.store.defaultCalendarForNewEvents()
        var e = Event(
            title: "Stand-up", calendar: calendar.identifier,
            start: .zoned(LocalDateTime(year: 2026, month: 6, day: 1, hour: 9), try .named("Europe/Berlin")), duration: 900)
        e.recurrenceRules = [try RecurrenceRule(parsing: "FREQ=DAILY;COUNT=20")]
        e.notes = "Long notes a listing never shows"
        e.location = "Room 4"
        try t.store.save(e)
        var full = t.store.predicateForEvents(
            start: Instant(secondsSince1970: 1_780_272_000),
            end: Instant(secondsSince1970: 1_780_272_000 + 7 * 86_400))
        full.includesAlarms = false
        var listing = full
        listing.includesDetails = false
        var fullOccurrences: [EventOccurrence] = [], listed: [EventOccurrence] = []
        try t.store.enumerateOccurrences(matching: full) { o, _ in fullOccurrences.append(o) }
        try t.store.enumerateOccurrences(matching: listing) { o, _ in listed.append(o) }
        #expect(listed.count == 7)
        #expect(listed.map(\.start) == fullOccurrences.map(\.start))
        #expect(listed.map(\.occurrenceDate) == fullOccurrences.map(\.occurrenceDate))
        let shown = try #require(listed.first).source.event
        #expect(shown.title == "Stand-up" && shown.location == "Room 4" && shown.recurrenceRules == e.recurrenceRules)
        #expect(shown.notes == nil && shown.creationDate == nil)
        #expect(try #require(fullOccurrences.first).source.event.notes == e.notes)
    }
}
