import ChimeCore
import ChimeStore
import Testing

/// Apple's Calendar and Reminders pin a location to a place on the map
/// (`X-APPLE-STRUCTURED-LOCATION`, kept as it came). A location changed here must not leave the
/// old pin beside the new text, which Apple's clients would show and navigate to.
@Suite struct StructuredLocationTests {
    static let pin = "X-APPLE-STRUCTURED-LOCATION;VALUE=URI;X-APPLE-RADIUS=70;X-TITLE=Office:geo:52.520000,13.405000"

    @Test func aChangedLocationDropsTheStoredPin() throws {
        let t = try TestStore(zone: .utc)
        let calendar = try t.store.defaultCalendarForNewEvents()
        var e = Event(title: "Review", calendar: calendar.identifier, start: .utc(local(2026, 12, 8, 9)), duration: 3_600)
        e.location = "Office"
        e.icsExtras = ["X-MICROSOFT-CDO-BUSYSTATUS:BUSY", Self.pin]
        try t.store.save(e)
        var renamed = try #require(try t.store.event(withIdentifier: e.identifier))
        renamed.title = "Design review"
        try t.store.save(renamed)
        #expect(try t.store.event(withIdentifier: e.identifier)?.icsExtras.contains(Self.pin) == true, "an unchanged location keeps it")
        var moved = try #require(try t.store.event(withIdentifier: e.identifier))
        moved.location = "Depot, Hall 3"
        let saved = try t.store.save(moved)
        #expect(saved.icsExtras == ["X-MICROSOFT-CDO-BUSYSTATUS:BUSY"])
        #expect(try t.store.event(withIdentifier: e.identifier)?.icsExtras == ["X-MICROSOFT-CDO-BUSYSTATUS:BUSY"])
    }

    @Test func oneOccurrenceMovedElsewhereLeavesTheSeriesPin() throws {
        let t = try TestStore(zone: .utc)
        let calendar = try t.store.defaultCalendarForNewEvents()
        var e = Event(title: "Stand-up", calendar: calendar.identifier, start: .utc(local(2026, 12, 7, 9)), duration: 900)
        e.recurrenceRules = [try RecurrenceRule(parsing: "FREQ=DAILY;COUNT=5")]
        e.location = "Office"
        e.icsExtras = [Self.pin]
        try t.store.save(e)
        let window = t.store.predicateForEvents(start: Instant(utc: local(2026, 12, 7)), end: Instant(utc: local(2026, 12, 12)))
        var third = try t.store.events(matching: window)[2]
        third.location = "Café Alte Mühle"
        try t.store.save(third, span: .thisEvent)
        let after = try t.store.events(matching: window)
        #expect(after[2].location == "Café Alte Mühle" && !after[2].icsExtras.contains(Self.pin))
        #expect(after[0].icsExtras == [Self.pin] && after[3].icsExtras == [Self.pin])
        // That occurrence with a pin of its own, moved again: its own pin goes.
        let cafe = "X-APPLE-STRUCTURED-LOCATION;VALUE=URI;X-TITLE=Café Alte Mühle:geo:52.49,13.42"
        var pinned = after[2]
        pinned.icsExtras = [cafe]
        try t.store.save(pinned, span: .thisEvent)
        #expect(try t.store.events(matching: window)[2].icsExtras == [cafe])
        var library = try t.store.events(matching: window)[2]
        library.location = "Library"
        try t.store.save(library, span: .thisEvent)
        let moved = try t.store.events(matching: window)[2]
        #expect(moved.location == "Library" && moved.icsExtras == [], "\(moved.icsExtras)")
    }

    @Test func aReminderMovedElsewhereDropsItsPin() throws {
        let t = try TestStore(zone: .utc)
        let list = try t.store.defaultCalendarForNewReminders()
        var r = Reminder(title: "Pick up the parcel", calendar: list.identifier)
        r.location = "Post office"
        r.icsExtras = [Self.pin]
        try t.store.save(r)
        guard case .reminder(var moved)? = try t.store.calendarItem(withIdentifier: r.identifier) else {
            Issue.record("the reminder was not stored")
            return
        }
        moved.location = "Packstation 112"
        try t.store.save(moved)
        guard case .reminder(let stored)? = try t.store.calendarItem(withIdentifier: r.identifier) else {
            Issue.record("the reminder is gone")
            return
        }
        #expect(stored.icsExtras == [])
    }
}
