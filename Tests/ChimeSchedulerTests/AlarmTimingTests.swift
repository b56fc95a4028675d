import ChimeCore
import ChimeScheduler
import ChimeStore
import Testing

/// When alarms fire: the trigger rules, in virtual time (the rules in AlarmTimeline).
@Suite struct AlarmTimingTests {
    @Test func relativeAlarmFiresOffsetBeforeTheStartAndNotEarlier() throws {
        let h = try SchedulerHarness()
        try h.addEvent("Dentist", start: at(2026, 11, 20, 14), alarms: [.relative(-15 * 60)])
        try h.start()
        #expect(h.scheduler.nextDeadline() == utc(2026, 11, 20, 13, 45))
        try h.advance(to: utc(2026, 11, 20, 13, 44, 59))
        #expect(h.sink.titles.isEmpty)
        try h.advance(to: utc(2026, 11, 20, 13, 45))
        #expect(h.sink.titles == ["Dentist"])
        #expect(h.sink.deliveryTimes == [utc(2026, 11, 20, 13, 45).milliseconds])
        #expect(h.sink.delivered[0].body == "Fri 2026-11-20 14:00–15:00")
    }

    @Test func absoluteAlarmFiresAtItsDateOnce() throws {
        let h = try SchedulerHarness()
        try h.addEvent("Standup", start: at(2026, 11, 23, 9), alarms: [.absolute(utc(2026, 11, 21, 8))], rule: "FREQ=DAILY")
        try h.start()
        try h.advance(to: utc(2026, 11, 21, 8))
        try h.advance(to: utc(2026, 11, 30))
        #expect(h.sink.titles == ["Standup"])
        #expect(h.sink.delivered[0].keys[0].alarm == "@\(utc(2026, 11, 21, 8).secondsSince1970)")
    }

    @Test func relatedToEndFiresRelativeToTheEnd() throws {
        let h = try SchedulerHarness()
        try h.addEvent("Workshop", start: at(2026, 11, 20, 14), duration: 2 * 3600, alarms: [.relative(-5 * 60, relatedTo: .end)])
        try h.start()
        #expect(h.scheduler.nextDeadline() == utc(2026, 11, 20, 15, 55))
    }

    @Test func allDayEventAlarmsCountFromNineInTheMorningInTheCurrentZone() throws {
        let berlin = try ZoneRules.named("Europe/Berlin")
        let h = try SchedulerHarness(zone: berlin)
        // All day on Tue 1 Dec, alarm 1 h before: all-day alarms count from 09:00, so 08:00 on
        // 1 Dec Berlin time = 07:00Z (not 23:00 the evening before).
        try h.addEvent(
            "Holiday", start: .allDay(CivilDate(year: 2026, month: 12, day: 1)), duration: 86_400,
            alarms: [.relative(-3600)])
        try h.start()
        #expect(h.scheduler.nextDeadline() == utc(2026, 12, 1, 7))
        try h.advance(to: utc(2026, 12, 1, 7))
        #expect(h.sink.delivered.map(\.body) == ["All day Tue 2026-12-01"])
    }

    @Test func recurringEventFiresForEveryOccurrenceLazily() throws {
        let h = try SchedulerHarness()
        // An endless series: the agenda must never try to materialise it.
        try h.addEvent("Standup", start: at(2026, 11, 2, 9), alarms: [.relative(-600)], rule: "FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR")
        try h.start()
        #expect(h.scheduler.nextDeadline() == utc(2026, 11, 23, 8, 50))  // Fri 20th 12:00 → Mon 23rd
        for day in 23...27 { try h.advance(to: utc(2026, 11, day, 8, 50)) }
        try h.advance(to: utc(2026, 11, 29, 23))
        #expect(h.sink.titles.count == 5)
        #expect(Set(h.sink.delivered.map { $0.keys[0].occurrence }).count == 5)
        #expect(h.scheduler.nextDeadline() == utc(2026, 11, 30, 8, 50))
    }

    @Test func remindersFireAtTheDueDateAndNotWhenCompleted() throws {
        let h = try SchedulerHarness()
        try h.addReminder("Pay rent", due: at(2026, 11, 20, 18), alarms: [.relative(0)], priority: 1)
        var done = try h.addReminder("Already done", due: at(2026, 11, 20, 17), alarms: [.relative(0)])
        done.isCompleted = true
        try h.store.save(done)
        try h.start()
        try h.advance(to: utc(2026, 11, 21))
        #expect(h.sink.titles == ["Pay rent"])
        let note = h.sink.delivered[0]
        #expect(note.urgency == .critical)  // priority 1–4
        #expect(note.actions == [.default, .complete, .snooze(.minutes(10)), .snooze(.minutes(60))])
        #expect(note.category == "x-chime.reminder")
        #expect(note.body == "Due Fri 2026-11-20 18:00")
    }

    @Test func recurringReminderFiresForItsCurrentInstanceOnly() throws {
        let h = try SchedulerHarness()
        try h.addReminder("Water plants", due: at(2026, 11, 21, 9), alarms: [.relative(0)], rule: "FREQ=DAILY")
        try h.start()
        for hour in stride(from: 0, through: 60, by: 1) { try h.advance(to: utc(2026, 11, 21, 0).adding(Int64(hour) * 3600)) }
        // Not completed: the 22nd and 23rd instances are not "current", so only the 21st fired.
        #expect(h.sink.titles == ["Water plants"])
    }

    @Test func aReminderWithoutAlarmsFiresAtItsDueTimeAndAnOptedOutOneNever() throws {
        let h = try SchedulerHarness()
        try h.addReminder("Call the dentist", due: at(2026, 11, 20, 13), alarms: [])
        try h.addReminder("Pay rent", due: .allDay(CivilDate(year: 2026, month: 11, day: 21)), alarms: [])
        var quiet = Reminder(title: "Quiet", calendar: try h.store.defaultCalendarForNewReminders().identifier)
        quiet.dueDate = at(2026, 11, 20, 14)
        quiet.icsExtras = [AlarmDefaults.noAlarmMarker]
        try h.store.save(quiet)
        try h.start()
        #expect(h.scheduler.nextDeadline() == utc(2026, 11, 20, 13))
        try h.advance(to: utc(2026, 11, 21, 12))
        #expect(h.sink.titles == ["Call the dentist", "Pay rent"])  // Pay rent at 09:00 UTC on the 21st
        #expect(h.scheduler.nextDeadline() == nil)
    }

    @Test func locationAlarmsAreNotTimed() throws {
        let h = try SchedulerHarness()
        let shop = StructuredLocation(title: "Shop", latitude: 52.5, longitude: 13.4)
        try h.addReminder("Buy milk", due: at(2026, 11, 20, 13), alarms: [.location(shop, .enter)])
        try h.start()
        #expect(h.scheduler.nextDeadline() == nil)
    }
}

@Suite struct AlarmTimeRulesTests {
    @Test func zonedSeriesKeepsItsWallClockAcrossDaylightSaving() throws {
        let berlin = try ZoneRules.named("Europe/Berlin")
        let h = try SchedulerHarness(zone: berlin, now: utc(2027, 3, 26, 12))
        try h.addEvent(
            "Standup", start: .zoned(LocalDateTime(year: 2027, month: 3, day: 26, hour: 9), berlin),
            alarms: [.relative(-600)], rule: "FREQ=DAILY")
        try h.start()
        #expect(h.scheduler.nextDeadline() == utc(2027, 3, 27, 7, 50))  // 08:50 CET
        try h.advance(to: utc(2027, 3, 27, 7, 50))
        #expect(h.scheduler.nextDeadline() == utc(2027, 3, 28, 6, 50))  // 08:50 CEST, after the spring change
    }

    @Test func previewAgendaAndSchedulerAgreeOnAWindow() throws {
        let h = try SchedulerHarness()
        try h.addEvent("A", start: at(2026, 11, 20, 14), alarms: [.relative(-900), .relative(-60, relatedTo: .end)], rule: "FREQ=HOURLY;COUNT=5")
        try h.addReminder("B", due: at(2026, 11, 20, 15, 30), alarms: [.relative(-300), .absolute(utc(2026, 11, 20, 13))])
        let previewed = AlarmAgenda.firings(
            of: try h.store.alarmSources(from: utc(2026, 11, 20, 12)).map { ($0.item, $0.replaced) },
            zone: .utc, from: utc(2026, 11, 20, 12), to: utc(2026, 11, 21))
        try h.start()
        try h.advance(to: utc(2026, 11, 21))
        #expect(previewed.count == 12)
        #expect(Set(h.sink.delivered.flatMap(\.keys)) == Set(previewed.map(\.key)))
    }
}
