import ChimeCore
import ChimeStore
import ChimeTestSupport
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

    /// Random stores under random edits (moves, new rules and ends, alarms changed, occurrences
    /// detached, items removed, reminders completed): the whole-store read, which finds its
    /// candidates through indexes, chooses exactly what the SQL filter chooses, and never misses
    /// an item that the items themselves say can still fire (its last occurrence ends after
    /// `from`, it repeats forever, or an alarm fires after the item ended).
    @Test(arguments: [1, 2, 3, 4, 5])
    func wholeStoreReadAgreesWithTheItemsUnderRandomEdits(seed: Int) throws {
        let t = try TestStore()
        let store = t.store
        var g = SeededRandom(seed: UInt64(seed) * 7_919)
        let calendar = try store.defaultCalendarForNewEvents().identifier
        let list = try store.defaultCalendarForNewReminders().identifier
        let base = utc(2026, 1, 1)
        func randomStart() -> CalendarDate {
            let instant = Instant(secondsSince1970: base.secondsSince1970 + Int64(g.int(in: -1_500...400)) * 86_400 + Int64(g.int(in: 0...95)) * 900)
            let wall = ZoneRules.utc.localTime(at: instant)
            switch g.int(in: 0...3) {
            case 0: return .allDay(wall.date)
            case 1: return .floating(wall)
            case 2: return .zoned(wall, try! ZoneRules.named("Asia/Tokyo"))
            default: return .utc(wall)
            }
        }
        func randomAlarms(at start: CalendarDate) -> [Alarm] {
            let place = StructuredLocation(title: "Office", latitude: 52.5, longitude: 13.4, radius: 100)
            let at = start.instant(floatingZone: .utc).secondsSince1970
            return (0..<g.int(in: 0...2)).map { _ in
                switch g.int(in: 0...5) {
                case 0: .absolute(Instant(secondsSince1970: at + Int64(g.int(in: -3...400)) * 86_400))
                case 1: .relative(Int64(g.int(in: 1...48)) * 3_600)
                case 2: .location(place, .enter)
                default: .relative(-Int64(g.pick([300, 900, 86_400])))
                }
            }
        }
        func randomRules() -> [RecurrenceRule] {
            switch g.int(in: 0...5) {
            case 0: [try! RecurrenceRule(parsing: "FREQ=DAILY;COUNT=\(g.int(in: 2...40))")]
            case 1: [try! RecurrenceRule(parsing: "FREQ=WEEKLY;UNTIL=\(2020 + g.int(in: 0...8))0601T000000Z")]
            case 2: [try! RecurrenceRule(parsing: "FREQ=MONTHLY")]
            default: []
            }
        }
        func fixUntil(_ e: inout Event) {
            // UNTIL must match DTSTART's kind: a date for an all-day start.
            guard e.isAllDay else { return }
            e.recurrenceRules = e.recurrenceRules.map { rule in
                guard case .until = rule.end else { return rule }
                return try! rule.with(end: .count(5))
            }
        }
        for i in 0..<40 {
            let start = randomStart()
            var e = Event(title: "event \(i)", calendar: calendar, start: start, duration: 3_600 * Int64(g.int(in: 1...30)))
            if start.isAllDay { e.end = .allDay(start.local.date.adding(days: 1)) }
            e.recurrenceRules = randomRules()
            fixUntil(&e)
            e.alarms = randomAlarms(at: start)
            _ = try store.save(e)
        }
        for i in 0..<10 {
            var r = Reminder(title: "reminder \(i)", calendar: list)
            if g.chance(0.7) {
                r.dueDate = .utc(ZoneRules.utc.localTime(at: Instant(secondsSince1970: base.secondsSince1970 + Int64(g.int(in: -800...400)) * 86_400)))
            }
            r.alarms = g.chance(0.5) ? [.relative(-900)] : []
            r.isCompleted = g.chance(0.3)
            _ = try store.save(r)
        }

        for round in 0..<12 {
            // A few random edits of what is there now.
            for _ in 0..<6 {
                let items = try store.allItems(in: nil)
                guard !items.isEmpty else { break }
                switch g.pick(items) {
                case .event(var e) where !e.isDetached:
                    switch g.int(in: 0...5) {
                    case 0:
                        let start = randomStart()
                        let length = e.durationSeconds(floatingZone: .utc)
                        e.start = start
                        e.end =
                            start.isAllDay
                            ? .allDay(start.local.date.adding(days: max(1, Int(length / 86_400))))
                            : start.with(
                                instant: Instant(secondsSince1970: start.instant(floatingZone: .utc).secondsSince1970 + max(900, length)), floatingZone: .utc)
                        fixUntil(&e)
                        _ = try store.save(e, span: .futureEvents)
                    case 1:
                        e.recurrenceRules = randomRules()
                        fixUntil(&e)
                        _ = try store.save(e, span: .futureEvents)
                    case 2:
                        e.alarms = randomAlarms(at: e.start)
                        _ = try store.save(e, span: .futureEvents)
                    case 3 where e.isRecurring:
                        // Detach one of its occurrences in the next year, moved by an hour.
                        let window = store.predicateForEvents(start: utc(2026, 1, 1), end: utc(2027, 1, 1))
                        if var one = try store.events(matching: window).first(where: { $0.identifier == e.identifier }),
                            !one.isAllDay
                        {
                            one.start = one.start.with(
                                instant: Instant(secondsSince1970: one.start.instant(floatingZone: .utc).secondsSince1970 + 3_600), floatingZone: .utc)
                            one.end = one.end.with(
                                instant: Instant(secondsSince1970: one.end.instant(floatingZone: .utc).secondsSince1970 + 3_600), floatingZone: .utc)
                            _ = try store.save(one, span: .thisEvent)
                        }
                    case 4:
                        try store.remove(e, span: .futureEvents)
                    default:
                        break
                    }
                case .reminder(var r):
                    r.isCompleted.toggle()
                    _ = try store.save(r)
                default:
                    break
                }
            }

            let from = Instant(secondsSince1970: base.secondsSince1970 + Int64(g.int(in: -900...300)) * 86_400)
            var whole: [AlarmSource] = []
            try store.forEachAlarmSource(from: from) { whole.append($0) }
            let items = try store.allItems(in: nil)
            let chosen = try store.alarmSources(from: from, identifiers: Set(items.map(\.identifier)))
            func described(_ sources: [AlarmSource]) -> [String] {
                sources.map { "\($0.item.identifier) \($0.replaced.sorted())" }.sorted()
            }
            #expect(described(whole) == described(chosen), "seed \(seed), round \(round), from \(from)")

            // The items' own answer, without the stored ranges: a timed alarm, and an occurrence
            // that ends after `from` (the floating margin either side), or an alarm after it.
            func key(_ item: AnyCalendarItem) -> String {
                if case .event(let e) = item { return "\(e.identifier) \(e.start)" }
                return item.identifier
            }
            let wholeIDs = Set(whole.map { key($0.item) })
            for item in items {
                let key = key(item)
                guard case .event(let e) = item else {
                    if case .reminder(let r) = item { #expect(wholeIDs.contains(key) == !r.isCompleted, "\(r.title)") }
                    continue
                }
                let timed = e.alarms.filter { $0.structuredLocation == nil }
                let lateAlarm = timed.contains { alarm in
                    switch alarm.trigger {
                    case .absolute(let instant): instant >= from
                    case .relative(let offset, _): offset > 0
                    case .location: false
                    }
                }
                let length = e.durationSeconds(floatingZone: .utc)
                var lastEnd: Int64? = nil
                var endless = false
                if e.isRecurring {
                    var count = 0
                    for occurrence in e.recurrenceSet.occurrences(floatingZone: .utc) {
                        lastEnd = occurrence.instant.secondsSince1970 + length
                        count += 1
                        if count > 5_000 { endless = true; break }
                    }
                } else {
                    lastEnd = e.end.instant(floatingZone: .utc).secondsSince1970
                }
                let margin: Int64 = 2 * 86_400
                if timed.isEmpty {
                    #expect(!wholeIDs.contains(key), "\(e.title) has no timed alarm")
                } else if endless || lateAlarm || (lastEnd ?? 0) >= from.secondsSince1970 + margin {
                    #expect(wholeIDs.contains(key), "seed \(seed), round \(round): \(e.title) can still fire after \(from)")
                } else if (lastEnd ?? 0) < from.secondsSince1970 - margin {
                    #expect(!wholeIDs.contains(key), "seed \(seed), round \(round): \(e.title) ended before \(from)")
                }
            }
        }
    }
}
