import ChimeCore
@testable import ChimeStore
import Testing

@Suite("Calendars")
struct CalendarTests {
    @Test func defaultCalendarsAreCreatedOnceAndPerEntityType() throws {
        let t = try TestStore()
        let events = try t.store.defaultCalendarForNewEvents()
        let reminders = try t.store.defaultCalendarForNewReminders()
        #expect(events.entityType == .event && events.title == "Calendar")
        #expect(reminders.entityType == .reminder && reminders.title == "Reminders")
        #expect(try t.store.defaultCalendarForNewEvents() == events)
        #expect(try t.store.calendars(for: .event) == [events])
        #expect(try t.store.calendars(for: .reminder) == [reminders])
    }

    @Test func removingACalendarRemovesItsItemsInOneTransaction() throws {
        let t = try TestStore()
        let work = Calendar(title: "Work", entityType: .event)
        let home = Calendar(title: "Home", entityType: .event)
        try t.store.saveCalendar(work)
        try t.store.saveCalendar(home)
        for i in 0..<5 {
            try t.store.save(Event(title: "w\(i)", calendar: work.identifier, start: .utc(local(2026, 12, 1 + i, 9)), duration: 600))
        }
        try t.store.save(Event(title: "h", calendar: home.identifier, start: .utc(local(2026, 12, 1, 9)), duration: 600))
        let before = try t.store.currentChangeSequence()
        try t.store.removeCalendar(work)
        let all = try t.store.events(matching: t.store.predicateForEvents(start: utc(2026, 1, 1), end: utc(2027, 1, 1)))
        #expect(all.map(\.title) == ["h"])
        #expect(try t.store.calendars(for: .event).map(\.title) == ["Home"])
        let (journal, _) = try t.store.pool.read { db in try Journal.entries(after: before, in: db) }
        #expect(journal.filter { $0.entity == .event && $0.kind == .deleted }.count == 5)
        #expect(journal.last?.entity == .calendar)
    }

    @Test func itemsGoOnlyIntoCalendarsOfTheirType() throws {
        let t = try TestStore()
        let list = try t.store.defaultCalendarForNewReminders()
        let event = Event(title: "x", calendar: list.identifier, start: .utc(local(2026, 12, 1, 9)), duration: 60)
        #expect(throws: StoreError.invalid(.wrongCalendarType(calendar: "Reminders", expected: .event))) { try t.store.save(event) }
        let orphan = Event(title: "x", calendar: "nope", start: .utc(local(2026, 12, 1, 9)), duration: 60)
        #expect(throws: StoreError.invalid(.unknownCalendar("nope"))) { try t.store.save(orphan) }
    }

    /// `chime calendar rename` reads the calendar, then renames it. A colour and the read-only
    /// flag set in between by another store on the same file (another process) are kept: the
    /// rename reads and writes the title alone in one transaction, and journals one update.
    @Test func aRenameKeepsWhatAnotherProcessChangedSinceTheRead() throws {
        let t = try TestStore()
        try t.store.saveCalendar(Calendar(title: "Work", entityType: .event))
        let read = try #require(try t.store.calendar(named: "work", for: .event))
        let other = try EventStore(path: t.path, floatingZone: .utc, clock: t.clock.function)
        var changed = read
        changed.color = "#CC3333"
        changed.allowsModifications = false
        try other.saveCalendar(changed)

        let before = try t.store.currentChangeSequence()
        let renamed = try t.store.renameCalendar(identifier: read.identifier, to: "Office")
        var expected = changed
        expected.title = "Office"
        #expect(renamed == expected)
        #expect(try other.calendar(withIdentifier: read.identifier) == expected)
        let (journal, _) = try t.store.pool.read { db in try Journal.entries(after: before, in: db) }
        #expect(journal.map { "\($0.entity) \($0.identifier) \($0.kind)" } == ["calendar \(read.identifier) updated"])
    }

    @Test func aRenameToABlankTitleOrOfAMissingCalendarIsRefused() throws {
        let t = try TestStore()
        let work = Calendar(title: "Work", entityType: .event)
        try t.store.saveCalendar(work)
        #expect(throws: StoreError.invalid(.missingTitle)) { try t.store.renameCalendar(identifier: work.identifier, to: "  ") }
        #expect(try t.store.calendar(withIdentifier: work.identifier)?.title == "Work")
        try t.store.removeCalendar(work)
        #expect(throws: StoreError.unknownCalendar(work.identifier)) { try t.store.renameCalendar(identifier: work.identifier, to: "Office") }
    }

    @Test func aReadOnlyCalendarRefusesWrites() throws {
        let t = try TestStore()
        let holidays = Calendar(title: "Holidays", entityType: .event, allowsModifications: false)
        try t.store.saveCalendar(holidays)
        let e = Event(title: "x", calendar: holidays.identifier, start: .allDay(CivilDate(year: 2026, month: 12, day: 25)), duration: 86_400)
        #expect(throws: StoreError.invalid(.readOnlyCalendar("Holidays"))) { try t.store.save(e) }
    }

    /// What a user types names a calendar by title or ID, else by the start of one ID (eight
    /// characters or more, any case); the exact lookup (`named`) takes no prefix.
    @Test func aCalendarIsFoundByTheStartOfItsIdentifier() throws {
        let t = try TestStore()
        let a = Calendar(identifier: "C26E6827-DBE5-49C0-A032-D35AB58381A0", title: "Work", entityType: .event)
        let b = Calendar(identifier: "C26E6827-AAAA-49C0-A032-D35AB58381A1", title: "Home", entityType: .event)
        let c = Calendar(identifier: "0F3A11D2-DBE5-49C0-A032-D35AB58381A2", title: "Choir", entityType: .event)
        for calendar in [a, b, c] { try t.store.saveCalendar(calendar) }
        #expect(try t.store.calendar(matching: "0f3a11d2", for: .event) == c)
        #expect(try t.store.calendar(matching: "0F3A11D2-DB", for: .event) == c)
        #expect(try t.store.calendar(matching: "C26E6827-DBE5", for: .event) == a)
        #expect(try t.store.calendar(matching: "c26e6827", for: .event) == nil, "two calendars start so")
        #expect(try t.store.calendar(matching: "0F3A11D", for: .event) == nil, "seven characters are too few")
        #expect(try t.store.calendar(matching: "0F3A11D2", for: .reminder) == nil, "another kind")
        #expect(try t.store.calendar(matching: "choir", for: .event) == c)
        #expect(try t.store.calendar(named: "0F3A11D2", for: .event) == nil)
    }
}
