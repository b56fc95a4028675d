import ChimeCore
@testable import ChimeStore
import ChimeTestSupport
import Testing

/// A listing of many stored events merges a few batches ahead on a thread of its own: what the
/// caller sees is the same occurrences in the same order, called on its own thread, and it can
/// still stop early or throw.
struct LongListingTests {
    let t: TestStore
    let window: EventPredicate

    init() throws {
        let berlin = try ZoneRules.named("Europe/Berlin")
        t = try TestStore(zone: berlin)
        let calendar = try t.store.defaultCalendarForNewEvents()
        // More stored events than the merge-ahead threshold: series of several kinds, singles,
        // and many occurrences at the same instant (the merge's ties).
        var random = SeededRandom(seed: 2026)
        let rules = ["FREQ=WEEKLY", "FREQ=DAILY;INTERVAL=3", "FREQ=MONTHLY;BYDAY=1MO,-1FR", "FREQ=WEEKLY;BYDAY=MO,WE;COUNT=20", nil, nil]
        for i in 0..<(EventStore.mergedAheadFrom + 200) {
            let day = random.int(in: 1...28), hour = [9, 9, 9, 14, 17][i % 5]
            var e = Event(title: "e\(i)", calendar: calendar.identifier, start: .zoned(local(2026, 1 + i % 12, day, hour), berlin), duration: 1_800)
            if let rule = rules[i % rules.count] { e.recurrenceRules = [try RecurrenceRule(parsing: rule)] }
            _ = try t.store.save(e, commit: false)
        }
        try t.store.commit()
        window = t.store.predicateForEvents(start: utc(2026, 3, 1), end: utc(2027, 3, 1))
    }

    @Test func theListingIsTheQuerysOccurrencesInOrder() throws {
        let expected = try t.store.events(matching: window).map { "\($0.identifier) \($0.occurrenceDate?.secondsSince1970 ?? 0)" }
        var seen: [String] = []
        try t.store.enumerateOccurrences(matching: window) { o, _ in
            seen.append("\(o.source.event.identifier) \(o.occurrenceDate.secondsSince1970)")
        }
        #expect(expected.count > 20 * EventStore.mergedBatch, "the merge runs ahead over many batches")
        #expect(seen == expected)
    }

    @Test func aListingStopsWhereItsCallerSays() throws {
        var count = 0
        try t.store.enumerateOccurrences(matching: window) { _, stop in
            count += 1
            if count == 2 * EventStore.mergedBatch + 7 { stop = true }
        }
        #expect(count == 2 * EventStore.mergedBatch + 7)
    }

    @Test func theCallersErrorComesOutAsThrown() throws {
        struct Full: Error {}
        var count = 0
        #expect(throws: Full.self) {
            try t.store.enumerateOccurrences(matching: window) { _, _ in
                count += 1
                if count == 5_000 { throw Full() }
            }
        }
        #expect(count == 5_000)
    }
}
