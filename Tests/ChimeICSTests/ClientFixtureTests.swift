import ChimeCore
import ChimeICS
import ChimeStore
import Testing

/// Files as Google, Apple, Thunderbird, Outlook and Evolution write them.
@Suite struct ClientFixtureTests {
    func events(_ r: ICSParseResult) -> [Event] { r.items.compactMap { if case .event(let e) = $0.item { return e } else { return nil } } }
    func todos(_ r: ICSParseResult) -> [Reminder] { r.items.compactMap { if case .reminder(let x) = $0.item { return x } else { return nil } } }

    @Test func google() throws {
        let r = try ICalendar.parse(try Fixture.bytes("google.ics"), file: "google.ics")
        let standUp = try #require(events(r).first)
        let berlin = try ZoneRules.named("Europe/Berlin")
        #expect(standUp.start == .zoned(LocalDateTime(year: 2026, month: 11, day: 2, hour: 9, minute: 30), berlin))
        #expect(standUp.notes == "Daily stand-up, 15 minutes.\nJoin: https://meet.example.com/abc-defg-hij")
        #expect(standUp.location == "Room 4, 2nd floor")
        #expect(standUp.sequence == 2)
        #expect(standUp.exceptionDates == [.local(LocalDateTime(year: 2026, month: 11, day: 11, hour: 9, minute: 30))])
        #expect(standUp.alarms.map(\.trigger) == [.relative(offset: -600, relatedTo: .start)])
        #expect(standUp.icsExtras.contains { $0.hasPrefix("ATTENDEE;CUTYPE=INDIVIDUAL") })
        #expect(standUp.icsExtras.contains("LAST-MODIFIED:20261020T090000Z"))
        #expect(r.overrides.count == 1)
        #expect(r.overrides[0].event.title == "Stand-up (moved for the all-hands)")
        let closed = events(r)[1]
        #expect(closed.start == .allDay(CivilDate(year: 2026, month: 12, day: 24)))
        #expect(closed.end == .allDay(CivilDate(year: 2026, month: 12, day: 27)))
        #expect(r.calendarName == "Work")
    }

    @Test func appleLocationRemindersAndTheCompletedSnapshot() throws {
        let r = try ICalendar.parse(try Fixture.bytes("apple-reminders.ics"), file: "apple.ics")
        let list = todos(r)
        #expect(list.map(\.title) == ["Buy milk", "Call the landlord", "Water plants", "Water plants"])
        let milk = list[0].alarms[0]
        #expect(milk.trigger == .location(StructuredLocation(title: "Grocery store", latitude: 52.5263, longitude: 13.4024, radius: 120.5), .enter))
        #expect(milk.icsExtras.contains("X-WR-ALARMUID:5D1B6A2C-8E3F-4A9B-B7C2-1D4E6F8A0B3C"))
        #expect(list[1].alarms[0].trigger == .location(StructuredLocation(title: "Work", latitude: 52.52, longitude: 13.405, radius: 0), .leave))
        // The placeholder trigger never becomes a timed alarm in 1976.
        #expect(!list.flatMap(\.alarms).contains { if case .absolute = $0.trigger { return true } else { return false } })
        #expect(list[2].priority == 1 && list[2].recurrenceRules.count == 1 && !list[2].isCompleted)
        #expect(
            list[3].isCompleted
                && list[3].completionDate == Instant(secondsSince1970: LocalDateTime(year: 2026, month: 11, day: 17, hour: 8, minute: 30).localSeconds))
    }

    /// Apple's place line says more than the place Chime keeps (the address, the map's reference
    /// frame): written back whole while the place is the same, and in Chime's words once it moved.
    @Test func appleLocationAlarmKeepsItsAddressWhileThePlaceStays() throws {
        let r = try ICalendar.parse(try Fixture.bytes("apple-reminders.ics"), file: "apple.ics")
        var milk = todos(r)[0]
        func exported(_ reminder: Reminder) -> String {
            String(decoding: ICalendar.serialize([.reminder(reminder)], now: Instant(secondsSince1970: 0), floatingZone: .utc), as: UTF8.self)
        }
        func unfolded(_ text: String) -> String { text.replacingOccurrences(of: "\r\n ", with: "") }
        let whole = exported(milk)
        #expect(unfolded(whole).contains("X-ADDRESS=\"Rosenthaler Str. 40, 10178 Berlin\"") && whole.contains("X-APPLE-REFERENCEFRAME=1"), "\(whole)")
        #expect(whole.components(separatedBy: "X-APPLE-STRUCTURED-LOCATION").count == 2, "one place line: \(whole)")
        let again = try ICalendar.parse(Array(whole.utf8), file: "again.ics")
        #expect(exported(todos(again)[0]) == whole, "a second export writes the same bytes")
        milk.alarms[0].trigger = .location(StructuredLocation(title: "Market hall", latitude: 52.5, longitude: 13.41, radius: 80), .enter)
        let moved = unfolded(exported(milk))
        #expect(!moved.contains("X-ADDRESS") && moved.contains("X-TITLE=Market hall:geo:52.5,13.41"), "\(moved)")
    }

    @Test func thunderbird() throws {
        let r = try ICalendar.parse(try Fixture.bytes("thunderbird.ics"), file: "tb.ics")
        let e = try #require(events(r).first)
        #expect(e.title.hasPrefix("Quarterly review — Ünïcödé ✓"))
        #expect(e.durationSeconds(floatingZone: .utc) == 5400)
        #expect(e.alarms.map(\.trigger) == [.relative(offset: -300, relatedTo: .end)])
        #expect(e.icsExtras.contains("CATEGORIES:Business,Review"))
        #expect(e.recurrenceSet.first(10, floatingZone: .utc).count == 4)
    }

    @Test func outlookWindowsZonesCustomZonesAndCancelledInstances() throws {
        let r = try ICalendar.parse(try Fixture.bytes("outlook.ics"), file: "outlook.ics")
        let sync = events(r)[0]
        #expect(sync.start.timeZone?.identifier == "Europe/Berlin")
        #expect(sync.start.instant(floatingZone: .utc) == Instant(secondsSince1970: LocalDateTime(year: 2026, month: 11, day: 3, hour: 9).localSeconds))
        #expect(r.overrides.count == 1 && r.overrides[0].isCancelled)
        let island = events(r)[1]
        // Not an IANA or Windows name: the file's own VTIMEZONE (+05:30) defines it.
        #expect(
            island.start.instant(floatingZone: .utc)
                == Instant(secondsSince1970: LocalDateTime(year: 2026, month: 12, day: 5, hour: 3, minute: 30).localSeconds))
    }

    @Test func evolutionPrefixedZonesPercentCompleteAndUnsupportedJournal() throws {
        let r = try ICalendar.parse(try Fixture.bytes("evolution.ics"), file: "evo.ics")
        let passport = todos(r)[0]
        #expect(passport.dueDate?.timeZone?.identifier == "Europe/London")
        #expect(!passport.isCompleted && passport.priority == 3)
        #expect(passport.icsExtras.contains("STATUS:IN-PROCESS") && passport.icsExtras.contains("PERCENT-COMPLETE:40"))
        #expect(passport.alarms.map(\.trigger) == [.relative(offset: -86_400, relatedTo: .start)])
        #expect(
            events(r)[0].alarms.map(\.trigger) == [.absolute(Instant(secondsSince1970: LocalDateTime(year: 2026, month: 11, day: 30, hour: 18).localSeconds))])
        #expect(r.skipped.map(\.description) == ["evo.ics:52: VJOURNAL: VJOURNAL is not supported; skipped"])
    }
}
