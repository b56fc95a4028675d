import ChimeCore
import ChimeStore
import Testing

@Suite("Spans on recurring events")
struct SpanTests {
    let t: TestStore
    let calendar: ChimeCore.Calendar
    let series: Event

    /// Daily at 09:00 UTC from 1 December 2026, 10 occurrences.
    init() throws {
        t = try TestStore()
        calendar = try t.store.defaultCalendarForNewEvents()
        var e = Event(title: "Daily", calendar: calendar.identifier, start: .utc(local(2026, 12, 1, 9)), duration: 1800)
        e.recurrenceRules = [try RecurrenceRule(parsing: "FREQ=DAILY;COUNT=10")]
        try t.store.save(e)
        series = e
    }

    var december: [Event] {
        get throws { Array(try t.store.events(matching: t.store.predicateForEvents(start: utc(2026, 12, 1), end: utc(2027, 1, 1)))) }
    }

    func occurrence(day: Int) throws -> Event {
        try #require(try december.first { $0.occurrenceDate == utc(2026, 12, day, 9) })
    }

    /// Removing an occurrence, or ending the series there (a removal or an edit of "this and
    /// later"), changes the series: another device that imports or syncs it must take the
    /// change, so its SEQUENCE goes up and its LAST-MODIFIED is the change's time.
    @Test func endingOrThinningASeriesRaisesItsSequence() throws {
        let stamp = t.clock.now.utcBasicFormat
        try t.store.remove(try occurrence(day: 3), span: .thisEvent)
        var master = try #require(try t.store.event(withIdentifier: series.identifier))
        #expect(master.sequence == series.sequence + 1 && master.icsExtras.contains("LAST-MODIFIED:\(stamp)"), "\(master.icsExtras)")
        _ = try t.store.modifyEvent(identifier: series.identifier, occurrence: utc(2026, 12, 6, 9), span: .futureEvents) { e in
            e.title = "Later"
            e.sequence += 1
        }
        master = try #require(try t.store.event(withIdentifier: series.identifier))
        #expect(master.sequence == series.sequence + 2 && master.title == "Daily")
        try t.store.remove(try occurrence(day: 5), span: .futureEvents)
        master = try #require(try t.store.event(withIdentifier: series.identifier))
        #expect(master.sequence == series.sequence + 3)
        // A plain save (an import's) leaves the numbers to the copy it stores.
        var copy = master
        copy.title = "Daily (from a file)"
        try t.store.save(copy)
        #expect(try t.store.event(withIdentifier: series.identifier)?.sequence == series.sequence + 3)
    }

    /// Another device removed an occurrence that was changed here (an EXDATE), or ended the
    /// series before it: a copy of the series saved as it came (an import, a sync) takes the
    /// changed occurrence with it, so it does not stay behind and ring.
    @Test func aSeriesThatNoLongerHasAnOccurrenceDropsItsChangedCopy() throws {
        var third = try occurrence(day: 3)
        third.title = "Moved"
        try t.store.save(third, span: .thisEvent)
        var eighth = try occurrence(day: 8)
        eighth.title = "Late"
        try t.store.save(eighth, span: .thisEvent)
        var copy = try #require(try t.store.event(withIdentifier: series.identifier))
        copy.occurrenceDate = nil
        copy.exceptionDates = [.instant(utc(2026, 12, 3, 9))]
        copy.sequence += 1
        try t.store.save(copy)
        var titles = try december.map(\.title)
        #expect(titles.count == 9 && !titles.contains("Moved") && titles.contains("Late"), "\(titles)")
        // Ended before the 8th, as "this and later" removed there.
        copy.recurrenceRules = [try RecurrenceRule(parsing: "FREQ=DAILY;UNTIL=20261206T090000Z")]
        copy.sequence += 1
        try t.store.save(copy)
        titles = try december.map(\.title)
        #expect(titles == Array(repeating: "Daily", count: 5), "\(titles)")
        #expect(try t.store.detachedOccurrences(ofSeries: series.identifier).isEmpty)
    }

    /// A changed occurrence of an instant the rules never made (kept with an extra date, as an
    /// invitation to one moved instance is) stays when a copy without that date arrives; and an
    /// edit here that changes the rule leaves changed occurrences to the edit's own handling.
    @Test func anExtraOccurrenceAndAnEditHereKeepChangedCopies() throws {
        var withExtra = try #require(try t.store.event(withIdentifier: series.identifier))
        withExtra.occurrenceDate = nil
        withExtra.recurrenceDates = [.instant(utc(2026, 12, 20, 9))]
        try t.store.save(withExtra)
        var extra = try #require(try december.first { $0.occurrenceDate == utc(2026, 12, 20, 9) })
        extra.title = "Extra"
        try t.store.save(extra, span: .thisEvent)
        var copy = withExtra
        copy.recurrenceDates = []
        copy.sequence += 1
        try t.store.save(copy)
        #expect(try december.contains { $0.title == "Extra" })
        var fourth = try occurrence(day: 4)
        fourth.title = "Fourth"
        try t.store.save(fourth, span: .thisEvent)
        _ = try t.store.modifyEvent(identifier: series.identifier, span: .futureEvents) { e in
            e.recurrenceRules = [try RecurrenceRule(parsing: "FREQ=DAILY;INTERVAL=2;COUNT=5")]
        }
        #expect(try t.store.detachedOccurrences(ofSeries: series.identifier).map(\.title).contains("Fourth"))
    }

    @Test func thisEventDetachesOneOccurrence() throws {
        var third = try occurrence(day: 3)
        third.title = "Moved"
        third.start = .utc(local(2026, 12, 3, 14))
        third.end = .utc(local(2026, 12, 3, 15))
        let saved = try t.store.save(third, span: .thisEvent)
        #expect(saved.isDetached)
        let all = try december
        #expect(all.count == 10)
        let moved = try #require(all.first { $0.title == "Moved" })
        #expect(moved.start == .utc(local(2026, 12, 3, 14)))
        #expect(moved.occurrenceDate == utc(2026, 12, 3, 9))
        #expect(moved.identifier == series.identifier)
        #expect(moved.isDetached)
        #expect(all.filter { $0.title == "Daily" }.count == 9)
        #expect(all.map { $0.start.instant(floatingZone: .utc) } == all.map { $0.start.instant(floatingZone: .utc) }.sorted())
        // Editing the detached occurrence again updates it in place.
        var again = moved
        again.title = "Moved twice"
        try t.store.save(again, span: .thisEvent)
        #expect(try december.filter { $0.title.hasPrefix("Moved") }.map(\.title) == ["Moved twice"])
        var refreshed = moved
        #expect(try t.store.refresh(&refreshed))
        #expect(refreshed.title == "Moved twice")
    }

    @Test func thisEventCannotChangeTheRule() throws {
        var third = try occurrence(day: 3)
        third.recurrenceRules = [try RecurrenceRule(parsing: "FREQ=WEEKLY")]
        #expect(throws: StoreError.invalid(.recurrenceChangeNeedsFutureSpan)) { try t.store.save(third, span: .thisEvent) }
    }

    @Test func aDateThatIsNotAnOccurrenceIsRefused() throws {
        var fake = try occurrence(day: 3)
        fake.occurrenceDate = utc(2026, 12, 3, 10)
        #expect(throws: StoreError.invalid(.notAnOccurrence("2026-12-03T10:00:00Z"))) { try t.store.save(fake, span: .thisEvent) }
    }

    @Test func futureEventsSplitsTheSeriesAndCarriesTheRemainingCount() throws {
        var sixth = try occurrence(day: 6)
        sixth.title = "Later"
        sixth.start = .utc(local(2026, 12, 6, 10))
        sixth.end = .utc(local(2026, 12, 6, 11))
        let successor = try t.store.save(sixth, span: .futureEvents)
        #expect(successor.identifier != series.identifier)
        let all = try december
        #expect(all.filter { $0.title == "Daily" }.map(\.occurrenceDate) == (1...5).map { utc(2026, 12, $0, 9) })
        #expect(all.filter { $0.title == "Later" }.map { $0.start } == (6...10).map { .utc(local(2026, 12, $0, 10)) })
        #expect(all.filter { $0.title == "Later" }.allSatisfy { $0.identifier == successor.identifier })
        let tail = try #require(try t.store.event(withIdentifier: successor.identifier))
        #expect(tail.recurrenceRules.map(\.rfc5545) == ["FREQ=DAILY;COUNT=5"])
    }

    @Test func futureEventsOnTheFirstOccurrenceChangesTheWholeSeries() throws {
        var first = try #require(try t.store.event(withIdentifier: series.identifier))
        first.title = "Renamed"
        let saved = try t.store.save(first, span: .futureEvents)
        #expect(saved.identifier == series.identifier)
        #expect(try december.map(\.title) == Array(repeating: "Renamed", count: 10))
    }

    @Test func removingThisEventExcludesOneOccurrence() throws {
        try t.store.remove(try occurrence(day: 4), span: .thisEvent)
        let all = try december
        #expect(all.count == 9)
        #expect(!all.contains { $0.occurrenceDate == utc(2026, 12, 4, 9) })
        #expect(try t.store.event(withIdentifier: series.identifier)?.exceptionDates == [.instant(utc(2026, 12, 4, 9))])
    }

    @Test func removingADetachedOccurrenceRemovesItToo() throws {
        var third = try occurrence(day: 3)
        third.title = "Moved"
        try t.store.save(third, span: .thisEvent)
        try t.store.remove(try occurrence(day: 3), span: .thisEvent)
        #expect(try december.count == 9)
        #expect(try !december.contains { $0.title == "Moved" })
    }

    @Test func removingFutureEventsEndsTheSeries() throws {
        try t.store.remove(try occurrence(day: 8), span: .futureEvents)
        #expect(try december.map(\.occurrenceDate) == (1...7).map { utc(2026, 12, $0, 9) })
        try t.store.remove(try occurrence(day: 1), span: .futureEvents)
        #expect(try december.isEmpty)
        #expect(try t.store.event(withIdentifier: series.identifier) == nil)
    }
}
