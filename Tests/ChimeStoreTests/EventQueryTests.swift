import ChimeCore
import ChimeStore
import Testing

@Suite("events(matching:), enumerateEvents, event(withIdentifier:), refresh")
struct EventQueryTests {
    let t: TestStore
    let calendar: ChimeCore.Calendar
    let berlin: ZoneRules

    init() throws {
        berlin = try ZoneRules.named("Europe/Berlin")
        t = try TestStore(zone: berlin)
        calendar = try t.store.defaultCalendarForNewEvents()
    }

    func event(_ title: String, _ start: CalendarDate, minutes: Int64 = 60, rule: String? = nil) throws -> Event {
        var e = Event(title: title, calendar: calendar.identifier, start: start, duration: minutes * 60)
        if let rule { e.recurrenceRules = [try RecurrenceRule(parsing: rule)] }
        try t.store.save(e)
        return e
    }

    @Test func returnsEveryOverlappingOccurrenceSortedByStart() throws {
        _ = try event("weekly", .zoned(local(2026, 11, 2, 9), berlin), rule: "FREQ=WEEKLY")
        _ = try event("before", .zoned(local(2026, 11, 30, 7), berlin), minutes: 30)  // ends 07:30, before the window
        _ = try event("straddles", .zoned(local(2026, 11, 30, 7, 30), berlin), minutes: 60)  // 07:30–08:30 overlaps 08:00
        _ = try event("later", .zoned(local(2026, 12, 1, 12), berlin))
        let window = t.store.predicateForEvents(start: berlin.instant(for: local(2026, 11, 30, 8)), end: berlin.instant(for: local(2026, 12, 15)))
        let found = try t.store.events(matching: window)
        #expect(found.map(\.title) == ["straddles", "weekly", "later", "weekly", "weekly"])
        #expect(
            found.filter { $0.title == "weekly" }.map { $0.start } == [
                .zoned(local(2026, 11, 30, 9), berlin), .zoned(local(2026, 12, 7, 9), berlin), .zoned(local(2026, 12, 14, 9), berlin)
            ])
        #expect(
            found.filter { $0.title == "weekly" }.map { $0.occurrenceDate } == [
                berlin.instant(for: local(2026, 11, 30, 9)), berlin.instant(for: local(2026, 12, 7, 9)), berlin.instant(for: local(2026, 12, 14, 9))
            ])
        #expect(found.allSatisfy { $0.end.instant(floatingZone: berlin).secondsSince1970 - $0.start.instant(floatingZone: berlin).secondsSince1970 > 0 })
    }

    @Test func occurrencesKeepWallTimeAcrossDaylightSaving() throws {
        _ = try event("daily", .zoned(local(2026, 10, 24, 9), berlin), rule: "FREQ=DAILY;COUNT=3")
        let found = try t.store.events(matching: t.store.predicateForEvents(start: utc(2026, 10, 1), end: utc(2026, 11, 1)))
        #expect(found.map { $0.start.instant(floatingZone: berlin) } == [utc(2026, 10, 24, 7), utc(2026, 10, 25, 8), utc(2026, 10, 26, 8)])
    }

    @Test func floatingAndAllDayEventsAreReadInTheStoreZone() throws {
        _ = try event("floating", .floating(local(2026, 12, 1, 9)))
        _ = try event("all day", .allDay(CivilDate(year: 2026, month: 12, day: 2)), minutes: 24 * 60)
        // 09:00 in Berlin is 08:00Z: a window 08:00Z–08:30Z catches it; 09:00Z–10:00Z does not.
        #expect(try t.store.events(matching: t.store.predicateForEvents(start: utc(2026, 12, 1, 8), end: utc(2026, 12, 1, 8, 30))).map(\.title) == ["floating"])
        #expect(try t.store.events(matching: t.store.predicateForEvents(start: utc(2026, 12, 1, 9), end: utc(2026, 12, 1, 10))).isEmpty)
        // The all-day event covers Berlin's 2 December: 2026-12-01T23:00Z … 2026-12-02T23:00Z.
        #expect(try t.store.events(matching: t.store.predicateForEvents(start: utc(2026, 12, 1, 23), end: utc(2026, 12, 1, 23, 1))).map(\.title) == ["all day"])
        #expect(try t.store.events(matching: t.store.predicateForEvents(start: utc(2026, 12, 1, 22), end: utc(2026, 12, 1, 23))).isEmpty)
    }

    @Test func filtersByCalendar() throws {
        let other = ChimeCore.Calendar(title: "Other", entityType: .event)
        try t.store.saveCalendar(other)
        _ = try event("mine", .utc(local(2026, 12, 1, 9)))
        try t.store.save(Event(title: "theirs", calendar: other.identifier, start: .utc(local(2026, 12, 1, 10)), duration: 60))
        let all = t.store.predicateForEvents(start: utc(2026, 12, 1), end: utc(2026, 12, 2))
        let onlyOther = t.store.predicateForEvents(start: utc(2026, 12, 1), end: utc(2026, 12, 2), calendars: [other])
        #expect(try t.store.events(matching: all).map(\.title) == ["mine", "theirs"])
        #expect(try t.store.events(matching: onlyOther).map(\.title) == ["theirs"])
    }

    @Test func enumerateStreamsInOrderAndStops() throws {
        _ = try event("a", .utc(local(2026, 1, 1, 9)), rule: "FREQ=DAILY")
        _ = try event("b", .utc(local(2026, 1, 1, 10)), rule: "FREQ=DAILY")
        var seen: [String] = []
        try t.store.enumerateEvents(matching: t.store.predicateForEvents(start: utc(2026, 6, 1), end: utc(2027, 6, 1))) { e, stop in
            seen.append(e.title)
            if seen.count == 5 { stop = true }
        }
        #expect(seen == ["a", "b", "a", "b", "a"])
    }

    /// The caller's own error is the caller's: it comes out of the enumeration as thrown, not
    /// reported as a database error.
    @Test func anErrorTheCallerThrowsPassesThroughUntouched() throws {
        struct Enough: Error, Equatable { let seen: Int }
        _ = try event("a", .utc(local(2026, 1, 1, 9)), rule: "FREQ=DAILY")
        var seen = 0
        let window = t.store.predicateForEvents(start: utc(2026, 6, 1), end: utc(2027, 6, 1))
        #expect(throws: Enough(seen: 3)) {
            try t.store.enumerateEvents(matching: window) { _, _ in
                seen += 1
                if seen == 3 { throw Enough(seen: seen) }
            }
        }
        #expect(throws: Enough(seen: 1)) {
            try t.store.enumerateOccurrences(matching: window) { _, _ in throw Enough(seen: 1) }
        }
    }

    @Test func eventWithIdentifierIsTheFirstOccurrence() throws {
        let series = try event("series", .utc(local(2026, 1, 5, 9)), rule: "FREQ=WEEKLY")
        let first = try #require(try t.store.event(withIdentifier: series.identifier))
        #expect(first.occurrenceDate == utc(2026, 1, 5, 9))
        #expect(first.start == .utc(local(2026, 1, 5, 9)))
        #expect(try t.store.calendarItem(withIdentifier: series.identifier) == .event(first))
        #expect(try t.store.event(withIdentifier: "missing") == nil)
    }

    @Test func refreshReloadsAndReportsRemoval() throws {
        let e = try event("original", .utc(local(2026, 12, 1, 9)))
        var fetched = try #require(try t.store.event(withIdentifier: e.identifier))
        var edited = fetched
        edited.title = "renamed"
        try t.store.save(edited)
        #expect(try t.store.refresh(&fetched))
        #expect(fetched.title == "renamed")
        try t.store.remove(fetched)
        #expect(try t.store.refresh(&fetched) == false)
        #expect(fetched.title == "renamed")
    }

    @Test func validationErrorsNameTheProblem() throws {
        var backwards = Event(title: "x", calendar: calendar.identifier, start: .utc(local(2026, 12, 1, 9)), end: .utc(local(2026, 12, 1, 8)))
        #expect(throws: StoreError.invalid(.endBeforeStart(start: "20261201T090000Z", end: "20261201T080000Z"))) { try t.store.save(backwards) }
        backwards.end = backwards.start
        backwards.alarms = [.location(StructuredLocation(title: "Nowhere", latitude: 91, longitude: 0), .enter)]
        #expect(throws: StoreError.invalid(.latitudeOutOfRange(91))) { try t.store.save(backwards) }
        backwards.alarms = [.location(StructuredLocation(title: "Nowhere", latitude: 0, longitude: -181), .enter)]
        #expect(throws: StoreError.invalid(.longitudeOutOfRange(-181))) { try t.store.save(backwards) }
        backwards.alarms = [.location(StructuredLocation(title: "Nowhere", latitude: 0, longitude: 0, radius: -1), .leave)]
        #expect(throws: StoreError.invalid(.negativeRadius(-1))) { try t.store.save(backwards) }
        backwards.alarms = []
        backwards.title = ""
        #expect(try t.store.save(backwards).title == "")  // untitled, as RFC 5545 and EventKit allow
    }

    @Test func alarmsRoundTripIncludingOnesAfterTheStart() throws {
        var e = Event(title: "alarms", calendar: calendar.identifier, start: .utc(local(2026, 12, 1, 9)), duration: 3600)
        // RFC 5545 allows a trigger after the start (EventKit's UI does not): accepted as is.
        e.alarms = [
            .relative(-900), .relative(600), .relative(-300, relatedTo: .end), .absolute(utc(2026, 11, 30, 18)),
            .location(StructuredLocation(title: "Office", latitude: 52.52, longitude: 13.405, radius: 0), .leave)
        ]
        try t.store.save(e)
        #expect(try t.store.event(withIdentifier: e.identifier)?.alarms == e.alarms)
    }

    @Test func uncommittedSavesAreWrittenTogetherOrDropped() throws {
        let a = Event(title: "a", calendar: calendar.identifier, start: .utc(local(2026, 12, 1, 9)), duration: 60)
        let b = Event(title: "b", calendar: calendar.identifier, start: .utc(local(2026, 12, 1, 10)), duration: 60)
        try t.store.save(a, commit: false)
        try t.store.save(b, commit: false)
        let window = t.store.predicateForEvents(start: utc(2026, 12, 1), end: utc(2026, 12, 2))
        #expect(try t.store.events(matching: window).isEmpty)
        t.store.reset()
        try t.store.commit()
        #expect(try t.store.events(matching: window).isEmpty)
        try t.store.save(a, commit: false)
        try t.store.save(b, commit: false)
        try t.store.commit()
        #expect(try t.store.events(matching: window).map(\.title) == ["a", "b"])
    }

    @Test func aFailingWriteInABatchWritesNothing() throws {
        let a = Event(title: "a", calendar: calendar.identifier, start: .utc(local(2026, 12, 1, 9)), duration: 60)
        let ghost = Event(title: "ghost", calendar: calendar.identifier, start: .utc(local(2026, 12, 1, 10)), duration: 60)
        try t.store.save(a, commit: false)
        try t.store.remove(ghost, commit: false)  // not stored: fails inside the transaction
        #expect(throws: StoreError.unknownItem(ghost.identifier)) { try t.store.commit() }
        #expect(!t.store.hasUncommittedChanges)
        #expect(try t.store.events(matching: t.store.predicateForEvents(start: utc(2026, 12, 1), end: utc(2026, 12, 2))).isEmpty)
    }
    /// A query reads its events' alarms through the index when they are a small share of the
    /// store (a day of forty events here) and in one pass over the alarm table otherwise (the
    /// whole month): either way each event has exactly its own alarms, in order, a moved
    /// occurrence its own, and an event without alarms none.
    @Test func eachEventHasItsOwnAlarmsWhetherFewOrManyAreRead() throws {
        let place = StructuredLocation(title: "Office", latitude: 52.5, longitude: 13.4, radius: 100)
        var saved: [String: [Alarm]] = [:]
        for day in 1...40 {
            var e = Event(
                title: "day \(day)", calendar: calendar.identifier,
                start: .zoned(LocalDateTime(date: CivilDate(year: 2026, month: 11, day: 1).adding(days: day - 1), hour: 9, minute: 0), berlin),
                duration: 3_600)
            switch day % 4 {
            case 0: e.alarms = []
            case 1: e.alarms = [.relative(-Int64(day) * 60)]
            case 2: e.alarms = [.absolute(Instant(secondsSince1970: 1_790_000_000 + Int64(day))), .relative(-300, relatedTo: .end)]
            default: e.alarms = [.location(place, .enter), .relative(-60)]
            }
            saved[try t.store.save(e).identifier] = e.alarms
        }
        var daily = Event(title: "daily", calendar: calendar.identifier, start: .zoned(local(2026, 11, 1, 8), berlin), duration: 600)
        daily.recurrenceRules = [try RecurrenceRule(parsing: "FREQ=DAILY;COUNT=40")]
        daily.alarms = [.relative(-120)]
        daily = try t.store.save(daily)
        let oneDay = t.store.predicateForEvents(start: berlin.instant(for: local(2026, 11, 10)), end: berlin.instant(for: local(2026, 11, 11)))
        var moved = try #require(try t.store.events(matching: oneDay).first { $0.title == "daily" })
        moved.alarms = [.relative(-900), .relative(-30)]
        try t.store.save(moved, span: .thisEvent)

        let month = t.store.predicateForEvents(start: berlin.instant(for: local(2026, 11, 1)), end: berlin.instant(for: local(2026, 12, 11)))
        for window in [oneDay, month] {
            // A new store for each: nothing kept from an earlier query, every row read.
            let store = try EventStore(path: t.path, floatingZone: berlin)
            let found = Array(try store.events(matching: window))
            #expect(found.count > 1)
            for e in found where e.title != "daily" { #expect(e.alarms == saved[e.identifier], "\(e.title)") }
            let series = found.filter { $0.title == "daily" }
            #expect(series.filter { $0.isDetached }.map(\.alarms) == [[.relative(-900), .relative(-30)]])
            #expect(series.filter { !$0.isDetached }.allSatisfy { $0.alarms == [.relative(-120)] })
        }
    }
}
