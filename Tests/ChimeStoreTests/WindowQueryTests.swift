import ChimeCore
@testable import ChimeStore
import ChimeTestSupport
import Foundation
import GRDB
import Testing

/// Short windows pass over series whose day masks miss them (see ``DayMasks``): they must find
/// exactly what a query of more than a year (which filters nothing) finds in them, including
/// windows long after DTSTART, EXDATEs, RDATEs, moved occurrences, zones with DST, floating
/// and all-day series, multi-day occurrences; and an older store gets its masks on opening.
@Suite("Window queries against day masks")
struct WindowQueryTests {
    let t: TestStore
    let calendar: ChimeCore.Calendar
    let floating: ZoneRules

    init() throws {
        floating = try ZoneRules.named("America/New_York")
        t = try TestStore(zone: floating)
        calendar = try t.store.defaultCalendarForNewEvents()
    }

    static let rules = [
        "FREQ=DAILY", "FREQ=DAILY;INTERVAL=3", "FREQ=WEEKLY;BYDAY=MO", "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,TH",
        "FREQ=WEEKLY", "FREQ=MONTHLY;BYMONTHDAY=2,17", "FREQ=MONTHLY;BYMONTHDAY=-1", "FREQ=MONTHLY;BYDAY=-1FR",
        "FREQ=MONTHLY", "FREQ=YEARLY", "FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU", "FREQ=WEEKLY;BYDAY=SA;COUNT=30",
        "FREQ=HOURLY;INTERVAL=7", "FREQ=DAILY;BYHOUR=1,23"
    ]

    /// A seeded mix of series and single events in several zones.
    func fill() throws {
        var g = SeededRandom(seed: 0x0D41_5705)
        let zones: [ZoneRules?] = [
            nil, .utc, try .named("Europe/Berlin"), try .named("Australia/Sydney"),
            try .named("Pacific/Kiritimati"), try .named("America/New_York")
        ]
        for i in 0..<160 {
            let day = CivilDate(year: 2026, month: 1, day: 1).adding(days: g.int(in: 0...300))
            let local = LocalDateTime(date: day, hour: g.int(in: 0...23), minute: g.pick([0, 30]))
            let start: CalendarDate
            if g.chance(0.15) {
                start = .allDay(day)
            } else {
                switch g.pick(zones) {
                case nil: start = .floating(local);
                case let z?: start = z.isUTC ? .utc(local) : .zoned(local, z)
                }
            }
            let minutes = start.isAllDay ? Int64(g.pick([1, 1, 3])) * 1_440 : Int64(g.pick([0, 30, 60, 600, 1_500, 3_000]))
            var e = Event(title: "e\(i)", calendar: calendar.identifier, start: start, duration: minutes * 60)
            if g.chance(0.8) {
                e.recurrenceRules = [try RecurrenceRule(parsing: g.pick(Self.rules))]
                if g.chance(0.2) { e.exceptionDates = [.date(day.adding(days: 7 * g.int(in: 1...60)))] }
                if g.chance(0.1) { e.recurrenceDates = [.date(day.adding(days: g.int(in: 1...900)))] }
            }
            let saved = try t.store.save(e)
            if saved.isRecurring && g.chance(0.2) {
                // Move one occurrence a few days later.
                let window = t.store.predicateForEvents(start: utc(2026, 10, 1), end: utc(2027, 10, 1))
                if var o = try t.store.events(matching: window).first(where: { $0.identifier == saved.identifier }) {
                    let shift = Int64(g.int(in: 1...5)) * 86_400 + 3_600
                    if case .allDay(let d) = o.start {
                        o.start = .allDay(d.adding(days: 2)); o.end = .allDay(d.adding(days: 3))
                    } else {
                        o.start = o.start.with(
                            instant: Instant(secondsSince1970: o.start.instant(floatingZone: floating).secondsSince1970 + shift), floatingZone: floating)
                        o.end = o.end.with(
                            instant: Instant(secondsSince1970: o.end.instant(floatingZone: floating).secondsSince1970 + shift), floatingZone: floating)
                    }
                    try t.store.save(o, span: .thisEvent)
                }
            }
        }
    }

    func key(_ e: Event) -> String { "\(e.identifier)@\(e.occurrenceDate.map(\.secondsSince1970) ?? -1) \(e.title) \(e.start)" }

    func overlaps(_ e: Event, _ from: Instant, _ to: Instant) -> Bool {
        // A series' occurrence is where it was generated (an all-day series with an HOURLY rule
        // keeps its hours there, not in its start date).
        let s = (e.isRecurring ? e.occurrenceDate : nil) ?? e.start.instant(floatingZone: floating)
        let d = e.durationSeconds(floatingZone: floating)
        return s < to && (s.secondsSince1970 + d > from.secondsSince1970 || (d <= 0 && s >= from))
    }

    @Test func shortWindowsFindWhatALongQueryFindsInThem() throws {
        try fill()
        var g = SeededRandom(seed: 0x0D41_0001)
        for (first, last) in [(utc(2026, 9, 1), utc(2027, 12, 1)), (utc(2031, 1, 1), utc(2032, 3, 1))] {
            let all = try t.store.events(matching: t.store.predicateForEvents(start: first, end: last))
            #expect(all.count > 1_000)
            for _ in 0..<40 {
                let hours = Int64(g.int(in: 0...Int((last.secondsSince1970 - first.secondsSince1970) / 3_600 - 500)))
                let from = Instant(secondsSince1970: first.secondsSince1970 + hours * 3_600 + Int64(g.pick([0, 0, 1_800])))
                let length = Int64(g.pick([1, 6, 24, 24, 48, 24 * 7, 24 * 20])) * 3_600
                let to = Instant(secondsSince1970: from.secondsSince1970 + length)
                let found = try t.store.events(matching: t.store.predicateForEvents(start: from, end: to)).map(key)
                let expected = all.filter { overlaps($0, from, to) }.map(key)
                #expect(found == expected, "window \(from) + \(length / 3_600) h")
            }
        }
    }

    @Test func anOlderStoreGetsItsDayMasksWhenOpened() throws {
        try fill()
        let window = t.store.predicateForEvents(start: utc(2026, 11, 2), end: utc(2026, 11, 3))
        let before = try t.store.events(matching: window).map(key)
        #expect(!before.isEmpty)
        // Back to the schema before the masks: no columns, the old index, the migration not applied.
        try t.store.pool.write { db in
            try db.execute(
                sql: """
                    DROP INDEX item_event_range;
                    ALTER TABLE item DROP COLUMN day_weekdays;
                    ALTER TABLE item DROP COLUMN day_monthdays;
                    ALTER TABLE item DROP COLUMN day_months;
                    CREATE INDEX item_event_range ON item(kind, range_start, range_end);
                    DELETE FROM grdb_migrations WHERE identifier LIKE 'v11:%';
                    """)
        }
        let reopened = try EventStore(path: t.path, floatingZone: floating)
        let missing = try reopened.pool.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM item WHERE kind = 'event' AND day_weekdays IS NULL")
        }
        #expect(missing == 0)
        let masked = try reopened.pool.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM item WHERE kind = 'event' AND day_weekdays != 127")
        }
        #expect(masked ?? 0 > 0)
        #expect(try reopened.events(matching: window).map(key) == before)
    }
}
