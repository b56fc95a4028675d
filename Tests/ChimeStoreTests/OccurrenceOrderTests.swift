import ChimeCore
import Dispatch
@testable import ChimeStore
import ChimeTestSupport
import Foundation
import GRDB
import Testing

/// A whole list (`events(matching:)`) walks each stored event on its own and sorts the
/// occurrences once; a listing (`enumerateEvents`) merges them one at a time. Both must give
/// the same occurrences in the same order: by start, then by the stored events' order.
struct OccurrenceOrderTests {
    /// Identifier, occurrence date and start of each, in order.
    private func described(_ events: some Sequence<Event>, zone: ZoneRules) -> [String] {
        events.map { "\($0.identifier) \($0.occurrenceDate?.secondsSince1970 ?? -1) \($0.start.instant(floatingZone: zone).secondsSince1970)" }
    }

    private func streamed(_ store: EventStore, _ window: EventPredicate) throws -> [Event] {
        var events: [Event] = []
        try store.enumerateEvents(matching: window) { e, _ in events.append(e) }
        return events
    }

    @Test func aWholeListIsTheListingsOrderWithTiesMovedOccurrencesAndAllDayEvents() throws {
        let berlin = try ZoneRules.named("Europe/Berlin")
        let t = try TestStore(zone: berlin)
        let calendar = try t.store.defaultCalendarForNewEvents()
        var standup = Event(title: "standup", calendar: calendar.identifier, start: .zoned(local(2026, 11, 30, 9), berlin), duration: 900)
        standup.recurrenceRules = [try RecurrenceRule(parsing: "FREQ=DAILY;COUNT=30")]
        standup = try t.store.save(standup)
        // Ties at 09:00 with the series, a night under way when the window opens, all-day days.
        for title in ["tie A", "tie B"] {
            _ = try t.store.save(Event(title: title, calendar: calendar.identifier, start: .zoned(local(2026, 12, 3, 9), berlin), duration: 600))
        }
        _ = try t.store.save(Event(title: "night", calendar: calendar.identifier, start: .zoned(local(2026, 11, 30, 22), berlin), duration: 10 * 3_600))
        var holiday = Event(
            title: "holiday", calendar: calendar.identifier, start: .allDay(CivilDate(year: 2026, month: 12, day: 1)),
            end: .allDay(CivilDate(year: 2026, month: 12, day: 2)))
        holiday.recurrenceRules = [try RecurrenceRule(parsing: "FREQ=WEEKLY")]
        _ = try t.store.save(holiday)
        // A moved occurrence: its start is not the instant the series scheduled it at.
        let december = t.store.predicateForEvents(start: utc(2026, 12, 1), end: utc(2027, 1, 1))
        var moved = try #require(try t.store.events(matching: december).first { $0.title == "standup" && $0.start == .zoned(local(2026, 12, 2, 9), berlin) })
        moved.start = .zoned(local(2026, 12, 2, 7), berlin)
        moved.end = .zoned(local(2026, 12, 2, 7, 15), berlin)
        try t.store.save(moved, span: .thisEvent)

        let fresh = try EventStore(path: t.path, floatingZone: berlin)
        let list = try fresh.events(matching: december)
        #expect(described(list, zone: berlin) == described(try streamed(fresh, december), zone: berlin))
        #expect(list.first?.title == "night", "under way when the window opens")
        let movedCopy = try #require(list.first { $0.isDetached })
        #expect(movedCopy.start == .zoned(local(2026, 12, 2, 7), berlin))
        #expect(movedCopy.occurrenceDate == Instant(secondsSince1970: berlin.instantSeconds(forLocalSeconds: local(2026, 12, 2, 9).localSeconds)))
        let third = list.filter {
            $0.start.instant(floatingZone: berlin) == Instant(secondsSince1970: berlin.instantSeconds(forLocalSeconds: local(2026, 12, 3, 9).localSeconds))
        }
        // The series began earlier; the two single events, stored the same way, go by identifier.
        #expect(third.map(\.title).first == "standup" && third.count == 3)
        #expect(third.dropFirst().map(\.identifier) == third.dropFirst().map(\.identifier).sorted { Array($0.utf8).lexicographicallyPrecedes($1.utf8) })
        #expect(list.filter { $0.title == "holiday" }.count == 5)
    }

    /// Windows from the distant past to the far future cannot be packed into one key per
    /// occurrence; they are ordered the general way, with the same result.
    @Test func aWindowOfMillenniaGivesTheSameOrder() throws {
        let t = try TestStore(zone: .utc)
        let calendar = try t.store.defaultCalendarForNewEvents()
        for (i, year) in [1, 1970, 2026, 9999].enumerated() {
            _ = try t.store.save(Event(title: "e\(i)", calendar: calendar.identifier, start: .utc(local(year, 6, 1, 12)), duration: 3_600))
        }
        var yearly = Event(title: "yearly", calendar: calendar.identifier, start: .utc(local(2020, 6, 1, 12)), duration: 3_600)
        yearly.recurrenceRules = [try RecurrenceRule(parsing: "FREQ=YEARLY;COUNT=10")]
        _ = try t.store.save(yearly)
        let everything = t.store.predicateForEvents(start: Instant(secondsSince1970: .min / 2), end: Instant(secondsSince1970: .max / 2))
        let list = try t.store.events(matching: everything)
        #expect(list.count == 14)
        #expect(described(list, zone: .utc) == described(try streamed(t.store, everything), zone: .utc))
        #expect(list.first?.title == "e0" && list.last?.title == "e3")
    }

    @Test(arguments: [1, 9, 13, 26, 40, 64])
    func radixSortSortsAsSortDoes(bits: Int) {
        var random = SeededRandom(seed: UInt64(bits))
        let mask: UInt64 = bits == 64 ? .max : (1 << UInt64(bits)) - 1
        // Many equal keys too (the sort must not lose or reorder them).
        var keys = (0..<5_000).map { i in i % 7 == 0 ? 42 & mask : random.next() & mask }
        let expected = keys.sorted()
        RadixSort.sort(&keys, significantBits: bits)
        #expect(keys == expected)
        #expect(RadixSort.merged(Array(expected.prefix(1_234)).sorted(), []) == Array(expected.prefix(1_234)))
        let halves = (
            Array(expected.enumerated().filter { $0.offset % 3 == 0 }.map(\.element)), Array(expected.enumerated().filter { $0.offset % 3 != 0 }.map(\.element))
        )
        #expect(RadixSort.merged(halves.0, halves.1) == expected)
    }
}

/// A long window's alarms are read on a second connection while its rows are read; they are
/// taken only when that read saw the same change journal as the query's own.
struct ReadAsideTests {
    @Test func whatWasReadAsideIsTakenOnlyWhenBothReadsSawTheSameJournal() throws {
        let t = try TestStore(zone: .utc)
        let calendar = try t.store.defaultCalendarForNewEvents()
        _ = try t.store.save(Event(title: "one", calendar: calendar.identifier, start: .utc(local(2026, 12, 1, 9)), duration: 600))
        let journal = try t.store.pool.read { db in try Journal.lastSequence(db) }
        let count = { @Sendable (db: Database) throws -> Int in try Int.fetchOne(db, sql: "SELECT count(*) FROM item WHERE kind = 'event'") ?? 0 }
        func readAside(_ read: @escaping @Sendable (Database) throws -> Int) -> ReadAside<Int> {
            let aside = ReadAside(pool: t.store.pool, read: read)
            aside.waitUntilEnded()
            return aside
        }
        #expect(readAside(count).value(readAt: journal) == 1)
        // A write committed between the two reads: the caller reads it itself.
        #expect(readAside(count).value(readAt: journal - 1) == nil)
        struct Unreadable: Error {}
        #expect(readAside { _ in throw Unreadable() }.value(readAt: journal) == nil)
    }

    /// Every reader of the pool taken by callers that wait: a read aside that has no connection
    /// yet is given up at once, not waited for (which would wait for ever).
    @Test func aReadWithoutAConnectionIsGivenUpNotWaitedFor() throws {
        let t = try TestStore(zone: .utc)
        let pool = t.store.pool
        let readers = pool.configuration.maximumReaderCount
        let holding = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0), ended = DispatchSemaphore(value: 0)
        // Threads of their own: blocked work on the shared dispatch pool would wait for it to grow.
        for _ in 0..<readers {
            Thread {
                try? pool.read { _ in
                    holding.signal()
                    release.wait()
                }
                ended.signal()
            }.start()
        }
        for _ in 0..<readers { holding.wait() }
        let aside = ReadAside(pool: pool) { db in try Journal.lastSequence(db) }
        #expect(aside.value(readAt: 0) == nil)
        for _ in 0..<readers { release.signal() }
        for _ in 0..<readers { ended.wait() }
        aside.waitUntilEnded()
    }

    /// A year read with its alarms on a second connection is the year read on one, and each
    /// event comes back with the alarms it was saved with: relative, absolute, at a place, with
    /// iCalendar lines of their own; starts in two zones, UTC and floating. The year reads every
    /// alarm row (most of the store overlaps it); so are two months, March and December, whose
    /// few events' alarms are found by identifier.
    @Test func aYearWithItsAlarmsReadAsideIsTheYearReadOnOne() throws {
        let t = try TestStore(zone: .utc)
        let calendar = try t.store.defaultCalendarForNewEvents()
        let zones = [try ZoneRules.named("Europe/Berlin"), try ZoneRules.named("America/New_York")]
        let place = StructuredLocation(title: "Büro", latitude: 52.52, longitude: 13.4, radius: 120)
        var saved: [String: [Alarm]] = [:]
        for i in 0..<300 {
            let wall = local(2026, 1 + i % 12, 1 + i % 28, 8 + i % 9)
            let start: CalendarDate = i % 4 < 2 ? .zoned(wall, zones[i % 2]) : i % 4 == 2 ? .utc(wall) : .floating(wall)
            var e = Event(title: "e\(i)", calendar: calendar.identifier, start: start, duration: 1_800)
            if i % 3 == 0 { e.recurrenceRules = [try RecurrenceRule(parsing: "FREQ=WEEKLY;COUNT=\(5 + i % 7)")] }
            switch i % 5 {
            case 0: e.alarms = [.relative(-Int64(i) * 60)]
            case 1:
                var acknowledged = Alarm.relative(-600, relatedTo: .end)
                acknowledged.icsExtras = ["ACKNOWLEDGED:20261120T130100Z"]
                e.alarms = [.location(place, .enter), acknowledged, .absolute(Instant(secondsSince1970: 1_780_000_000 + Int64(i)))]
            default: e.alarms = []
            }
            saved[try t.store.save(e, commit: false).identifier] = e.alarms
        }
        try t.store.commit()
        for window in [(utc(2026, 1, 1), utc(2027, 1, 1)), (utc(2026, 3, 1), utc(2026, 4, 1)), (utc(2026, 12, 1), utc(2027, 1, 1))] {
            let predicate = t.store.predicateForEvents(start: window.0, end: window.1)
            let aside = try EventStore(path: t.path, floatingZone: .utc).events(matching: predicate)
            let one = try EventStore(path: t.path, floatingZone: .utc, longLived: true).events(matching: predicate)
            #expect(aside.count > (window.1.secondsSince1970 - window.0.secondsSince1970 > 40 * 86_400 ? 300 : 20))
            #expect(Array(aside) == Array(one))
            #expect(aside.contains { !$0.alarms.isEmpty } && aside.contains { $0.alarms.isEmpty })
            for event in aside { #expect(event.alarms == saved[event.identifier], "\(event.title)") }
        }
    }
}

@Suite("A query's rows read in place")
struct RowsReadInPlaceTests {
    /// An event read by a window query (its row read straight from SQLite) is the event read by
    /// its identifier (through GRDB's `Row`): empty texts stay empty and absent ones absent, a
    /// detached occurrence answers to its series, and preserved lines come back as saved.
    @Test func aWindowReadsEachRowAsTheLookupByIdentifierDoes() throws {
        let t = try TestStore(zone: .utc)
        let calendar = try t.store.defaultCalendarForNewEvents()
        var saved: [Event] = []
        for (i, (location, notes)) in [("", nil), (nil, ""), ("Büro 3", "Zeile 1\nZeile 2"), (nil, nil)].enumerated() {
            var e = Event(title: "e\(i)", calendar: calendar.identifier, start: .utc(local(2026, 3, 2 + i, 9)), duration: 1_800)
            e.location = location
            e.notes = notes
            e.url = i == 2 ? "https://example.org/a" : nil
            e.icsExtras = i == 3 ? ["X-A;P=1:v", "ATTENDEE;PARTSTAT=ACCEPTED:mailto:a@example.org"] : []
            saved.append(try t.store.save(e))
        }
        var series = Event(title: "weekly", calendar: calendar.identifier, start: .zoned(local(2026, 3, 2, 8), try .named("Europe/Berlin")), duration: 900)
        series.recurrenceRules = [try RecurrenceRule(parsing: "FREQ=WEEKLY;COUNT=4")]
        series = try t.store.save(series)
        let week = t.store.predicateForEvents(start: utc(2026, 3, 9), end: utc(2026, 3, 16))
        var moved = try #require(try t.store.events(matching: week).first { $0.identifier == series.identifier })
        moved.title = "weekly, moved"
        moved.start = moved.start.with(local: local(2026, 3, 10, 8))
        moved.end = moved.start.with(local: local(2026, 3, 10, 8, 15))
        _ = try t.store.save(moved, span: .thisEvent)

        let month = try EventStore(path: t.path, floatingZone: .utc).events(matching: t.store.predicateForEvents(start: utc(2026, 3, 1), end: utc(2026, 4, 1)))
        for event in saved {
            let read = try #require(month.first { $0.identifier == event.identifier })
            let looked = try #require(try t.store.event(withIdentifier: event.identifier))
            #expect(read.location == event.location && read.notes == event.notes && read.url == event.url, "\(event.title)")
            #expect(read.icsExtras == looked.icsExtras && read.title == looked.title && read.externalIdentifier == looked.externalIdentifier)
            #expect(read.creationDate == looked.creationDate && read.sequence == looked.sequence && read.start == looked.start)
        }
        let detached = try #require(month.first { $0.title == "weekly, moved" })
        #expect(detached.identifier == series.identifier && detached.isDetached)
        #expect(month.filter { $0.identifier == series.identifier }.count == 4)
    }
}
