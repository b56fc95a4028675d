import ChimeCore
import ChimeStore
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

        let events = try t.store.events(matching: window)
        var occurrences: [EventOccurrence] = []
        try t.store.enumerateOccurrences(matching: window) { o, _ in occurrences.append(o) }
        #expect(occurrences.count == events.count)
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
        #expect(withoutAlarms.map { var e = $0; e.alarms = [.relative(-600)]; return e } == events)
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
