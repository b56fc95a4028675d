import ChimeCore
@testable import ChimeStore
import Testing

@Suite("enumerateOccurrences: the light values agree with enumerateEvents")
struct EventOccurrenceTests {
    let t: TestStore
    let calendar: ChimeCore.Calendar
    let berlin: ZoneRules

    init() throws {
        berlin = try ZoneRules.named("Europe/Berlin")
        t = try TestStore(zone: berlin)
        calendar = try t.store.defaultCalendarForNewEvents()
    }

    func save(_ title: String, _ start: CalendarDate, minutes: Int64 = 60, rule: String? = nil) throws {
        var e = Event(title: title, calendar: calendar.identifier, start: start, duration: minutes * 60)
        if let rule { e.recurrenceRules = [try RecurrenceRule(parsing: rule)] }
        e.alarms = [.relative(-600)]
        try t.store.save(e)
    }

    @Test func sameOccurrencesSameOrderSameDates() throws {
        // Across the October change in Berlin, and an end that falls in the repeated hour.
        try save("daily zoned", .zoned(local(2026, 10, 20, 9), berlin), rule: "FREQ=DAILY;COUNT=12")
        try save("late", .zoned(local(2026, 10, 20, 23, 30), berlin), minutes: 180, rule: "FREQ=DAILY;COUNT=10")
        try save("all-day weekly", .allDay(CivilDate(year: 2026, month: 10, day: 19)), minutes: 2 * 24 * 60, rule: "FREQ=WEEKLY;COUNT=3")
        try save("floating", .floating(local(2026, 10, 25, 2, 30)))
        try save("single all-day", .allDay(CivilDate(year: 2026, month: 10, day: 25)), minutes: 24 * 60)
        // A detached occurrence, moved by an hour.
        let window = t.store.predicateForEvents(start: utc(2026, 10, 18), end: utc(2026, 11, 5))
        var moved = try #require(try t.store.events(matching: window).first { $0.title == "daily zoned" && $0.start == .zoned(local(2026, 10, 23, 9), berlin) })
        moved.start = .zoned(local(2026, 10, 23, 10), berlin)
        moved.end = .zoned(local(2026, 10, 23, 11), berlin)
        try t.store.save(moved, span: .thisEvent)

        let list = try t.store.events(matching: window)
        let events = Array(list)
        var occurrences: [EventOccurrence] = []
        try t.store.enumerateOccurrences(matching: window) { o, _ in occurrences.append(o) }
        var streamed: [Event] = []
        try t.store.enumerateEvents(matching: window) { e, _ in streamed.append(e) }
        #expect(occurrences.count == events.count)
        #expect(streamed == events)
        // The list's light values are the stream's, position by position. The list came from
        // the first query after the last write (rows read and decoded), the stream from the
        // store's kept events: the cold path against the warm one.
        #expect(t.store.decodedEvents.count > 0)
        for (i, o) in occurrences.enumerated() {
            let light = list.occurrence(at: i)
            #expect(light.source.event == o.source.event && light.start == o.start && light.occurrenceDate == o.occurrenceDate)
        }
        #expect(events.contains { $0.isDetached })
        for (o, e) in zip(occurrences, events) {
            #expect(o.event == e)
            #expect(o.start == e.start.instant(floatingZone: berlin))
            #expect(o.end == e.end.instant(floatingZone: berlin), "\(e.title) \(e.start)")
            #expect(o.occurrenceDate == e.occurrenceDate)
            #expect(o.isAllDay == e.isAllDay)
            if e.isAllDay { #expect(o.startDay == e.start.local.date) }
            #expect(o.isOccurrenceOfSeries == (e.isRecurring || e.isDetached))
        }

        // Without alarms: the same occurrences, the events without their alarm rows.
        var bare = window
        bare.includesAlarms = false
        var withoutAlarms: [Event] = []
        try t.store.enumerateOccurrences(matching: bare) { o, _ in withoutAlarms.append(o.event) }
        #expect(withoutAlarms.allSatisfy { $0.alarms.isEmpty })
        #expect(
            withoutAlarms.map {
                var e = $0; e.alarms = [.relative(-600)]; return e
            } == events)
    }

    /// The merge keeps series in hour buckets and only the current hour's in a heap: a series
    /// that comes back within its hour (every 7 minutes), ties between series (the same start),
    /// an occurrence under way when the window opens, and a window of more than 65,536 hours
    /// (longer buckets) must all still come out in start order, each series' occurrences those
    /// of its own expansion.
    @Test func startOrderAcrossBucketsAndTies() throws {
        try save("minutes", .utc(local(2026, 11, 2, 8, 3)), minutes: 5, rule: "FREQ=MINUTELY;INTERVAL=7;COUNT=400")
        try save("hourly", .utc(local(2026, 11, 2, 8, 10)), rule: "FREQ=HOURLY;COUNT=100")
        try save("daily A", .utc(local(2026, 11, 1, 9)), rule: "FREQ=DAILY")
        try save("daily B", .utc(local(2026, 11, 1, 9)), rule: "FREQ=DAILY")
        try save("under way", .utc(local(2026, 10, 31, 22)), minutes: 4 * 60)
        try save("yearly", .zoned(local(2026, 12, 31, 23, 30), berlin), rule: "FREQ=YEARLY")
        let everything = try t.store.events(matching: t.store.predicateForEvents(start: utc(2026, 10, 1), end: utc(2036, 1, 1)))
        for (from, to) in [(utc(2026, 11, 1), utc(2026, 11, 9)), (utc(2026, 11, 1), utc(2036, 1, 1))] {
            let window = t.store.predicateForEvents(start: from, end: to)
            var seen: [(title: String, start: Int64)] = []
            try t.store.enumerateOccurrences(matching: window) { o, _ in seen.append((o.source.event.title, o.start.secondsSince1970)) }
            #expect(zip(seen, seen.dropFirst()).allSatisfy { $0.start <= $1.start })
            // Ties come in one order throughout: daily A and daily B are saved one after the other.
            let a = seen.indices.filter { seen[$0].title == "daily A" }, b = seen.indices.filter { seen[$0].title == "daily B" }
            #expect(a.count == b.count && !a.isEmpty)
            #expect(zip(a, b).allSatisfy { $0 < $1 } || zip(a, b).allSatisfy { $0 > $1 })
            for title in ["minutes", "hourly", "daily A", "yearly"] {
                let stored = try #require(everything.first { $0.title == title })
                let series = try #require(try t.store.event(withIdentifier: stored.identifier))
                let duration = series.durationSeconds(floatingZone: berlin)
                let expected = series.recurrenceSet.occurrences(floatingZone: berlin).prefix { $0.instant < to }
                    .filter { $0.instant.secondsSince1970 + duration > from.secondsSince1970 }.map(\.instant.secondsSince1970)
                #expect(seen.filter { $0.title == title }.map(\.start) == Array(expected), "\(title)")
            }
            #expect(seen.contains { $0.title == "under way" })
        }
    }

    @Test func stopEndsEarly() throws {
        try save("daily", .utc(local(2026, 11, 1, 9)), rule: "FREQ=DAILY")
        var seen = 0
        try t.store.enumerateOccurrences(matching: t.store.predicateForEvents(start: utc(2026, 11, 1), end: utc(2027, 11, 1))) { _, stop in
            seen += 1
            stop = seen == 3
        }
        #expect(seen == 3)
    }
}
