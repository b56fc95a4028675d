import ChimeCore
import ChimeScheduler
import ChimeStore
import Testing

/// The agenda's lean bookkeeping (a series keeps its rules, not an iterator; a pending firing is
/// kept without its item) gives the same firings as walking the series directly.
@Suite struct AlarmAgendaTests {
    /// COUNT rules keep their iterator between steps (they cannot jump ahead); other rules restart one.
    @Test(arguments: ["FREQ=DAILY;COUNT=40;BYDAY=MO,TU,WE,TH,FR", "FREQ=DAILY;UNTIL=20270115T000000Z;BYDAY=MO,TU,WE,TH,FR"])
    func seriesTimelineGivesEveryOccurrenceOnceAndCopiesGoOnAlone(rule: String) throws {
        var event = Event(title: "Standup", calendar: "work", start: at(2026, 11, 2, 9), duration: 900)
        event.recurrenceRules = [try RecurrenceRule(parsing: rule)]
        event.exceptionDates = [.local(LocalDateTime(date: CivilDate(year: 2026, month: 11, day: 24), hour: 9, minute: 0, second: 0))]
        let alarm = Alarm.relative(-600)
        let moved = utc(2026, 11, 26, 9).secondsSince1970  // a detached copy replaces the 26th
        let from = utc(2026, 11, 20, 12)
        var timeline = try #require(AlarmTimeline(alarm: alarm, of: event, replaced: [moved], zone: .utc, from: from))

        let expected = event.recurrenceSet.occurrences(from: utc(2026, 11, 20, 12, 10), to: utc(2027, 6, 1), floatingZone: .utc)
            .occurrences.map(\.instant).filter { $0.secondsSince1970 != moved }
        var seen: [Instant] = []
        var copy: AlarmTimeline?
        while let firing = timeline.next() {
            #expect(firing.fireAt == firing.occurrenceStart!.adding(-600))
            #expect(firing.key.occurrence == firing.occurrenceStart)
            seen.append(firing.occurrenceStart!)
            if seen.count == 3 { copy = timeline }
        }
        #expect(seen == expected)
        #expect(seen.count > 10)
        // A copy taken after the third firing continues from the fourth, whatever the original did.
        var rest: [Instant] = []
        while var c = copy, let firing = c.next() { rest.append(firing.occurrenceStart!); copy = c }
        #expect(rest == Array(expected.dropFirst(3)))
    }

    /// A long COUNT series previewed over a week: each step goes on from the last, it does not
    /// count from DTSTART again (that made this preview quadratic).
    @Test func aLongCountedSeriesIsWalkedOnce() throws {
        var event = Event(title: "Ticker", calendar: "work", start: at(2026, 11, 1), duration: 30)
        event.recurrenceRules = [try RecurrenceRule(parsing: "FREQ=MINUTELY;COUNT=200000")]
        event.alarms = [.relative(0)]
        let from = utc(2026, 12, 15)
        let started = ContinuousClock.now
        let firings = AlarmAgenda.firings(of: [(.event(event), [])], zone: .utc, from: from, to: from.adding(7 * 86_400))
        #expect(firings.count == 7 * 1440 + 1)
        #expect(firings.first?.fireAt == from)
        // Walking the 200,000 minutes once takes milliseconds; from DTSTART at every step, minutes.
        #expect(ContinuousClock.now - started < .seconds(10))
    }

    @Test func releasingUnusedCapacityChangesNoFiring() throws {
        var items: [AnyCalendarItem] = []
        for n in 0..<300 {
            var event = Event(title: "E\(n)", calendar: "work", start: at(2026, 11, 20 + n % 7, 8 + n % 10, n % 60), duration: 1800)
            event.alarms = [.relative(-Int64(60 * (n % 30)))]
            if n % 3 == 0 { event.recurrenceRules = [try RecurrenceRule(parsing: n % 2 == 0 ? "FREQ=DAILY" : "FREQ=WEEKLY;COUNT=6")] }
            items.append(.event(event))
        }
        var kept = AlarmAgenda(zone: .utc, from: utc(2026, 11, 20))
        for item in items { kept.add(item) }
        var released = kept
        released.releaseUnusedCapacity()
        // Changes after the release still land in the right slots.
        released.remove(item: items[3].identifier)
        kept.remove(item: items[3].identifier)
        let extra = AnyCalendarItem.event(
            {
                var e = Event(title: "Late", calendar: "work", start: at(2026, 11, 21, 10), duration: 600)
                e.alarms = [.relative(-300)]
                return e
            }())
        released.add(extra)
        kept.add(extra)
        var a: [FiringKey] = [], b: [FiringKey] = []
        while let f = kept.popNext(through: utc(2026, 12, 31)) { a.append(f.key) }
        while let f = released.popNext(through: utc(2026, 12, 31)) { b.append(f.key) }
        #expect(a.count > 500)
        #expect(a == b)
    }

    @Test func streamedAlarmSourcesAreTheListedOnes() throws {
        let h = try SchedulerHarness()
        try h.addEvent("A", start: at(2026, 11, 20, 14), alarms: [.relative(-900)], rule: "FREQ=HOURLY;COUNT=5")
        try h.addEvent("Over", start: at(2026, 11, 1, 14), alarms: [.relative(-900)])
        try h.addReminder("B", due: at(2026, 11, 20, 15, 30), alarms: [.relative(-300)])
        try h.addReminder("No alarm", due: at(2026, 11, 22), alarms: [])
        let from = utc(2026, 11, 20, 12)
        var streamed: [AlarmSource] = []
        try h.store.forEachAlarmSource(from: from) { streamed.append($0) }
        let listed = try h.store.alarmSources(from: from)
        #expect(streamed == listed)
        #expect(Set(streamed.map(\.item.title)) == ["A", "B", "No alarm"])
    }
}
