import ChimeCore
import ChimeStore
import Testing

/// The whole-store read of timed alarm sources (the daemon's start) decides which items can still
/// fire in Swift, from the alarms it has read; the read of chosen items decides it in SQL. Both
/// must choose the same items, and the right ones.
@Suite struct AlarmSourceFilterTests {
    @Test func theWholeStoreReadChoosesWhatTheSQLFilterChooses() throws {
        let t = try TestStore()
        let store = t.store
        let calendar = try store.defaultCalendarForNewEvents().identifier
        let reminders = try store.defaultCalendarForNewReminders().identifier
        let from = utc(2026, 11, 20)
        let place = StructuredLocation(title: "Office", latitude: 52.5, longitude: 13.4, radius: 100)
        func event(_ title: String, _ start: CalendarDate, _ alarms: [Alarm], rule: String? = nil) throws -> Event {
            var e = Event(title: title, calendar: calendar, start: start, duration: 3_600)
            e.alarms = alarms
            if let rule { e.recurrenceRules = [try RecurrenceRule(parsing: rule)] }
            return try store.save(e)
        }
        _ = try event("future timed", .utc(local(2026, 11, 25, 9)), [.relative(-600)])
        _ = try event("ended, alarm before", .utc(local(2026, 10, 1, 9)), [.relative(-600)])
        _ = try event("ended, absolute alarm later", .utc(local(2026, 10, 1, 9)), [.absolute(utc(2026, 11, 21, 8))])
        _ = try event("ended, absolute alarm earlier", .utc(local(2026, 10, 1, 9)), [.absolute(utc(2026, 10, 1, 8))])
        _ = try event("ended, after-start alarm", .utc(local(2026, 10, 1, 9)), [.relative(3_600)])
        _ = try event("future, location alarm only", .utc(local(2026, 11, 25, 9)), [.location(place, .enter)])
        _ = try event("future, no alarm", .utc(local(2026, 11, 25, 9)), [])
        _ = try event("floating, ended within a zone's reach", .floating(local(2026, 11, 19, 20)), [.relative(-600)])
        _ = try event("series ended", .utc(local(2026, 9, 1, 9)), [.relative(-600)], rule: "FREQ=DAILY;COUNT=3")
        let series = try event(
            "series going on", .utc(local(2026, 1, 1, 9)), [.relative(-600), .location(place, .leave)],
            rule: "FREQ=WEEKLY")
        // One of its occurrences moved: a source of its own, and an override of the series.
        let window = store.predicateForEvents(start: utc(2026, 12, 3), end: utc(2026, 12, 4))
        var moved = try #require(try store.events(matching: window).first { $0.identifier == series.identifier })
        moved.start = .utc(local(2026, 12, 3, 11))
        moved.end = .utc(local(2026, 12, 3, 12))
        try store.save(moved, span: .thisEvent)
        func reminder(_ title: String, completed: Bool, _ alarms: [Alarm]) throws {
            var r = Reminder(title: title, calendar: reminders)
            r.dueDate = .utc(local(2026, 11, 22, 9))
            r.alarms = alarms
            r.isCompleted = completed
            _ = try store.save(r)
        }
        try reminder("reminder, no alarm", completed: false, [])
        try reminder("reminder, location alarm only", completed: false, [.location(place, .enter)])
        try reminder("reminder, completed", completed: true, [.relative(0)])

        var whole: [AlarmSource] = []
        try store.forEachAlarmSource(from: from) { whole.append($0) }
        let everyIdentifier = Set(try store.allItems(in: nil).map(\.identifier))
        let chosen = try store.alarmSources(from: from, identifiers: everyIdentifier)

        func described(_ sources: [AlarmSource]) -> [String] {
            sources.map { "\($0.item.title) \($0.item.identifier) \($0.replaced.sorted())" }.sorted()
        }
        #expect(described(whole) == described(chosen))
        #expect(
            Set(whole.map(\.item.title)) == [
                "future timed", "ended, absolute alarm later", "ended, after-start alarm",
                "floating, ended within a zone's reach", "series going on",
                "reminder, no alarm", "reminder, location alarm only"
            ])
        let seriesSources = whole.filter { $0.item.identifier == series.identifier }
        #expect(seriesSources.count == 2, "the series and its detached occurrence")
        #expect(seriesSources.contains { $0.replaced == [utc(2026, 12, 3, 9).secondsSince1970] })
    }
}
