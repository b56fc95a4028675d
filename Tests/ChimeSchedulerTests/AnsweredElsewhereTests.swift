import ChimeCore
import ChimeScheduler
import ChimeStore
import Testing

/// Alarms answered on another device or by another client (RFC 9074 `ACKNOWLEDGED`, Thunderbird's
/// `X-MOZ-LASTACK` and `X-MOZ-SNOOZE-TIME`), in virtual time: they do not ring, are not missed,
/// and leave this screen when the answer arrives.
@Suite struct AnsweredElsewhereTests {
    /// Answered elsewhere while this machine was off: nothing shown, nothing counted as missed.
    @Test func anAlarmAnsweredElsewhereIsNeitherShownNorMissed() throws {
        let h = try SchedulerHarness()
        var answered = Alarm.relative(-600)
        answered.icsExtras = ["ACTION:DISPLAY", "ACKNOWLEDGED:20261120T135200Z"]
        try h.addEvent("Answered on the phone", start: at(2026, 11, 20, 14), alarms: [answered])
        var thunderbird = try h.addEvent("Closed in Thunderbird", start: at(2026, 11, 20, 15), alarms: [.relative(-600), .relative(-300)])
        thunderbird.icsExtras = ["X-MOZ-LASTACK:20261120T145600Z"]
        _ = try h.store.save(thunderbird)
        try h.addEvent("Not answered", start: at(2026, 11, 20, 16), alarms: [.relative(-600)])
        try h.start()  // checkpoint 12:00
        h.clock.set(to: utc(2026, 11, 20, 18))  // off 12:00–18:00
        try h.start()
        #expect(h.sink.titles == ["Not answered"])
        try h.start()
        #expect(h.sink.titles == ["Not answered"])
        #expect(try h.store.ledger.entries(state: .missed).isEmpty)
        // A day later, past the grace window of a new machine: still not missed.
        h.clock.set(to: utc(2026, 11, 22, 18))
        try h.start()
        #expect(try h.store.ledger.entries(state: .missed).isEmpty)
    }

    /// Shown here, then answered on the laptop: the sync brings the answer, the notification goes,
    /// and a restart does not show it again. An answer for an earlier instance leaves later ones ringing.
    @Test func anAnswerArrivingBySyncTakesTheNotificationOffThisScreen() async throws {
        let h = try SchedulerHarness()
        var e = try h.addEvent("Standup", start: at(2026, 11, 20, 13), alarms: [.relative(0)], rule: "FREQ=DAILY;COUNT=3")
        try h.start()
        try h.advance(to: utc(2026, 11, 20, 13))
        #expect(h.sink.titles == ["Standup"])
        let key = h.sink.delivered[0].keys[0]
        let sequence = try h.store.currentChangeSequence()
        e.alarms[0].icsExtras = ["ACKNOWLEDGED:20261120T130100Z"]
        _ = try h.store.save(e)
        try h.scheduler.apply(try await h.pendingChanges(after: sequence))
        #expect(h.sink.withdrawn == [key])
        #expect(try h.store.ledger.entries(for: [key])[key]?.state == .dismissed)
        try h.start()
        try h.advance(to: utc(2026, 11, 21, 13))
        #expect(h.sink.titles == ["Standup", "Standup"], "the next day's instance was not answered")
    }

    /// Thunderbird's snooze of one occurrence rings once, at its time, on this machine too.
    @Test func aThunderbirdSnoozeRingsAtItsTime() throws {
        let h = try SchedulerHarness()
        var e = try h.addEvent("Yoga", start: at(2026, 11, 20, 17), alarms: [.relative(-1800)], rule: "FREQ=WEEKLY")
        e.icsExtras = ["X-MOZ-LASTACK:20261120T163100Z", "X-MOZ-SNOOZE-TIME-\(utc(2026, 11, 20, 17).secondsSince1970 * 1_000_000):20261120T164100Z"]
        _ = try h.store.save(e)
        try h.start()
        try h.advance(to: utc(2026, 11, 20, 16, 40))
        #expect(h.sink.titles.isEmpty, "the 16:30 instance was answered in Thunderbird")
        try h.advance(to: utc(2026, 11, 20, 16, 41))
        #expect(h.sink.titles == ["Yoga"])
        try h.advance(to: utc(2026, 11, 27, 16, 30))
        #expect(h.sink.titles == ["Yoga", "Yoga"])
    }

    /// Dismissed here: the answer is written into the item as other clients read it (the
    /// alarm's ACKNOWLEDGED, the item's X-MOZ-LASTACK), without a new SEQUENCE, so that another
    /// machine reading the synced copy does not ring it. Not into an invitation someone else
    /// organises, and not while another alarm of the item is still snoozed here.
    @Test func aDismissHereIsWrittenIntoTheItemForOtherDevices() throws {
        let h = try SchedulerHarness()
        let mine = try h.addEvent("Dentist", start: at(2026, 11, 20, 13), alarms: [.relative(-600), .relative(0)])
        var invitation = try h.addEvent("Their meeting", start: at(2026, 11, 20, 13), alarms: [.relative(0)])
        invitation.icsExtras = ["ORGANIZER;CN=Bob:mailto:bob@example.org", "ATTENDEE;PARTSTAT=ACCEPTED:mailto:me@example.org"]
        _ = try h.store.save(invitation)
        try h.start()
        try h.advance(to: utc(2026, 11, 20, 12, 50))
        let early = try #require(h.sink.delivered.first { $0.summary == "Dentist" }).keys
        try h.scheduler.respond(NotificationResponse(keys: early, kind: .snooze, snooze: .minutes(30)))
        try h.advance(to: utc(2026, 11, 20, 13))
        let onTime = try #require(h.sink.delivered.last { $0.summary == "Dentist" }).keys
        try h.scheduler.respond(NotificationResponse(keys: onTime, kind: .dismissed))
        var stored = try #require(try h.store.event(withIdentifier: mine.identifier))
        // The snooze was written (12:50); the 13:00 dismiss was not: the snooze is still to ring here.
        #expect(stored.icsExtras.contains("X-MOZ-LASTACK:20261120T125000Z"), "\(stored.icsExtras)")
        #expect(stored.alarms.contains { $0.snoozes != nil })
        // The snooze comes back and is dismissed: now the answer goes into the item, and the snooze alarm goes.
        try h.advance(to: utc(2026, 11, 20, 13, 20))
        let again = try #require(h.sink.delivered.last { $0.summary == "Dentist" }).keys
        try h.scheduler.respond(NotificationResponse(keys: again, kind: .dismissed))
        stored = try #require(try h.store.event(withIdentifier: mine.identifier))
        #expect(stored.icsExtras.contains("X-MOZ-LASTACK:20261120T132000Z"), "\(stored.icsExtras)")
        #expect(stored.alarms.first { $0.trigger == .relative(offset: -600, relatedTo: .start) }?.acknowledged == utc(2026, 11, 20, 12, 50))
        #expect(!stored.alarms.contains { $0.snoozes != nil } && !stored.icsExtras.contains { $0.hasPrefix("X-MOZ-SNOOZE-TIME") })
        #expect(stored.sequence == mine.sequence)
        // Another device reading this copy rings neither alarm.
        #expect(AlarmAgenda.firings(of: [(.event(stored), [])], zone: .utc, from: utc(2026, 11, 20, 12), to: utc(2026, 11, 21)).isEmpty)

        let theirs = try #require(h.sink.delivered.first { $0.summary == "Their meeting" }).keys
        try h.scheduler.respond(NotificationResponse(keys: theirs, kind: .dismissed))
        let untouched = try #require(try h.store.event(withIdentifier: invitation.identifier))
        #expect(!untouched.icsExtras.contains { $0.hasPrefix("X-MOZ-LASTACK") }, "an invitation Bob organises is not written")
        #expect(untouched.alarms.allSatisfy { $0.acknowledged == nil })
    }

    /// A series whose first occurrence was changed on its own (moved, retitled): a dismiss writes
    /// the answer on the series' own row and on that occurrence's alarms, and changes nothing else
    /// (the series keeps its time and title).
    @Test func aDismissOnAMovedFirstOccurrenceLeavesTheSeriesAsItWas() throws {
        let h = try SchedulerHarness()
        let series = try h.addEvent("Standup", start: at(2026, 11, 20, 13), alarms: [.relative(0)], rule: "FREQ=DAILY;COUNT=3")
        try h.store.modifyEvent(identifier: series.identifier, occurrence: utc(2026, 11, 20, 13), span: .thisEvent) { e in
            e.title = "Standup (moved)"
            e.start = at(2026, 11, 20, 15)
            e.end = at(2026, 11, 20, 16)
        }
        try h.start()
        try h.advance(to: utc(2026, 11, 20, 15))
        #expect(h.sink.titles == ["Standup (moved)"])
        try h.scheduler.respond(NotificationResponse(keys: h.sink.delivered[0].keys, kind: .dismissed))
        // The series, seen through its next occurrence: its time and title as they were, the answer on it.
        let next = try #require(
            try h.store.events(matching: h.store.predicateForEvents(start: utc(2026, 11, 21), end: utc(2026, 11, 22), calendars: nil)).first)
        #expect(next.title == "Standup" && next.start == at(2026, 11, 21, 13), "the series is as it was: \(next.title) \(next.start)")
        #expect(next.icsExtras.contains("X-MOZ-LASTACK:20261120T150000Z"), "\(next.icsExtras)")
        let moved = try #require(
            try h.store.events(matching: h.store.predicateForEvents(start: utc(2026, 11, 20), end: utc(2026, 11, 21), calendars: nil)).first)
        #expect(moved.title == "Standup (moved)" && moved.alarms.first?.acknowledged == utc(2026, 11, 20, 15), "\(moved.alarms)")
        try h.advance(to: utc(2026, 11, 21, 13))
        #expect(h.sink.titles == ["Standup (moved)", "Standup"])
    }

    /// An answer far ahead (a client with a wrong clock) on a minutely series: the timeline starts
    /// after it, without walking each answered minute.
    @Test func anAnswerFarAheadIsSkippedInOneStep() throws {
        var e = Event(title: "Ping", calendar: "c", start: at(2026, 11, 20, 12), duration: 60)
        e.recurrenceRules = [try RecurrenceRule(parsing: "FREQ=MINUTELY")]
        var alarm = Alarm.relative(0)
        alarm.icsExtras = ["ACKNOWLEDGED:20991231T235900Z"]
        e.alarms = [alarm]
        var timeline = try #require(
            AlarmTimeline(
                alarm: alarm, of: e, zone: .utc, from: utc(2026, 11, 20, 12),
                answeredThrough: alarm.acknowledged))
        #expect(timeline.next()?.fireAt == utc(2100, 1, 1, 0, 0))
    }

    /// Snoozed here: the snooze is written into the item for the other devices (an RFC 9074
    /// snooze alarm, Thunderbird's X-MOZ-SNOOZE-TIME) and rings once here at its time, from the
    /// ledger; another machine reading the synced copy rings it once at the same time, and its
    /// notification of the snoozed alarm goes.
    @Test func aSnoozeHereRingsOnceHereAndOnceOnTheOtherMachine() async throws {
        let a = try SchedulerHarness(), b = try SchedulerHarness()
        let dentist = try a.addEvent("Dentist", start: at(2026, 11, 20, 13), alarms: [.relative(-600)])
        let calendarB = try b.store.defaultCalendarForNewEvents().identifier
        var original = dentist
        original.calendarIdentifier = calendarB
        _ = try b.store.save(original)
        try a.start()
        try b.start()
        try a.advance(to: utc(2026, 11, 20, 12, 50))
        try b.advance(to: utc(2026, 11, 20, 12, 50))
        #expect(a.sink.titles == ["Dentist"] && b.sink.titles == ["Dentist"])
        a.clock.set(to: utc(2026, 11, 20, 12, 52))
        try a.scheduler.respond(NotificationResponse(keys: a.sink.delivered[0].keys, kind: .snooze, snooze: .minutes(10)))
        let written = try #require(try a.store.event(withIdentifier: dentist.identifier))
        let snoozeAlarm = try #require(written.alarms.first { $0.snoozes != nil })
        #expect(snoozeAlarm.trigger == .absolute(utc(2026, 11, 20, 13, 2)))
        #expect(snoozeAlarm.snoozes == written.alarms[0].uid && written.alarms[0].acknowledged == utc(2026, 11, 20, 12, 52))
        #expect(written.icsExtras.contains("X-MOZ-SNOOZE-TIME:20261120T130200Z") && written.icsExtras.contains("X-MOZ-LASTACK:20261120T125200Z"))
        // The item's own change comes back to A's scheduler: the snooze stays, once.
        let sequenceA = try a.store.currentChangeSequence()
        _ = try a.store.save(written)
        try a.scheduler.apply(try await a.pendingChanges(after: sequenceA))
        // B syncs the copy: its notification of the 12:50 alarm goes.
        b.clock.set(to: utc(2026, 11, 20, 12, 53))
        let sequenceB = try b.store.currentChangeSequence()
        var copy = written
        copy.calendarIdentifier = calendarB
        _ = try b.store.save(copy)
        try b.scheduler.apply(try await b.pendingChanges(after: sequenceB))
        #expect(b.sink.withdrawn == b.sink.delivered[0].keys)
        try a.advance(to: utc(2026, 11, 20, 13, 30))
        try b.advance(to: utc(2026, 11, 20, 13, 30))
        #expect(a.sink.titles == ["Dentist", "Dentist"], "A rings the snooze once")
        #expect(b.sink.titles == ["Dentist", "Dentist"], "B rings the snooze once")
        #expect(a.sink.delivered[1].fireAt == utc(2026, 11, 20, 13, 2) && b.sink.delivered[1].fireAt == utc(2026, 11, 20, 13, 2))
        #expect(a.sink.delivered[1].keys == b.sink.delivered[1].keys, "one firing on every machine")
        try a.start()
        #expect(a.sink.titles.count == 2, "a restart rings nothing again")
    }

    /// A server that drops the snooze lines (the copy comes back without them): the snooze made
    /// here still rings here; an answer given elsewhere after it ends it.
    @Test func aSnoozeMadeHereSurvivesAServerThatDropsItButNotALaterAnswer() async throws {
        for answeredElsewhere in [false, true] {
            let h = try SchedulerHarness()
            let standup = try h.addEvent("Standup", start: at(2026, 11, 20, 13), alarms: [.relative(0)])
            try h.start()
            try h.advance(to: utc(2026, 11, 20, 13))
            try h.scheduler.respond(NotificationResponse(keys: h.sink.delivered[0].keys, kind: .snooze, snooze: .minutes(5)))
            var stripped = standup
            stripped.alarms = [.relative(0)]
            if answeredElsewhere { stripped.icsExtras = ["X-MOZ-LASTACK:20261120T130200Z"] }
            h.clock.set(to: utc(2026, 11, 20, 13, 3))
            let sequence = try h.store.currentChangeSequence()
            _ = try h.store.save(stripped)
            try h.scheduler.apply(try await h.pendingChanges(after: sequence))
            try h.advance(to: utc(2026, 11, 20, 13, 10))
            #expect(h.sink.titles.count == (answeredElsewhere ? 1 : 2), "answered elsewhere: \(answeredElsewhere)")
        }
    }

    /// On a read-only calendar (a subscription) an answer and a snooze stay on this machine: the
    /// item is not written; the snooze still rings here, once.
    @Test func onAReadOnlyCalendarAnswersAndSnoozesStayHere() throws {
        let h = try SchedulerHarness()
        var holidays = Calendar(title: "Holidays", entityType: .event)
        try h.store.saveCalendar(holidays)
        var market = Event(title: "Market", calendar: holidays.identifier, start: at(2026, 11, 20, 13), duration: 3600)
        market.alarms = [.relative(-600)]
        market = try h.store.save(market)
        holidays.allowsModifications = false
        try h.store.saveCalendar(holidays)
        try h.start()
        try h.advance(to: utc(2026, 11, 20, 12, 50))
        let key = try #require(h.sink.delivered.first).keys
        try h.scheduler.respond(NotificationResponse(keys: key, kind: .snooze, snooze: .minutes(5)))
        try h.advance(to: utc(2026, 11, 20, 12, 55))
        #expect(h.sink.titles == ["Market", "Market"])
        #expect(h.sink.delivered[1].keys == key, "kept here: the snoozed firing itself rings again")
        try h.scheduler.respond(NotificationResponse(keys: key, kind: .dismissed))
        let stored = try #require(try h.store.event(withIdentifier: market.identifier))
        #expect(stored.alarms == market.alarms && stored.icsExtras == market.icsExtras, "nothing written into a read-only calendar")
        #expect(try h.store.ledger.entries(for: key).values.map(\.state) == [.dismissed])
        try h.advance(to: utc(2026, 11, 20, 14))
        #expect(h.sink.titles.count == 2)
    }

}
