import ChimeCore
@testable import ChimeStore
import Testing

/// Sources (EventKit's `EKSource`): which calendars live only here, in a CalDAV account, or in a feed.
@Suite struct SourceTests {
    @Test func eachCalendarBelongsToTheSourceItLivesIn() throws {
        let t = try TestStore()
        let personal = try t.store.defaultCalendarForNewEvents()
        #expect(try t.store.sources() == [.local])

        try t.store.sync.saveAccount(SyncAccount(name: "nextcloud", url: "https://cloud.example.org/", username: "ana"))
        let collection = try t.store.sync.addCollection(
            account: "nextcloud", url: "https://cloud.example.org/dav/work/", title: "Work",
            color: nil, events: true, reminders: true)
        let holidays = try t.store.addSubscription(url: "webcal://example.org/holidays.ics", title: "Holidays", refreshSeconds: 86_400)
        #expect(try t.store.sources() == [.local, .calDAV(account: "nextcloud"), .subscribed])

        let (workID, workListID) = (try #require(collection.eventCalendar), try #require(collection.reminderList))
        let work = try #require(try t.store.calendar(withIdentifier: workID))
        let workList = try #require(try t.store.calendar(withIdentifier: workListID))
        let feed = try #require(try t.store.calendar(withIdentifier: holidays.calendarIdentifier))
        #expect(try t.store.source(of: personal) == .local)
        #expect(try t.store.source(of: work) == .calDAV(account: "nextcloud"))
        #expect(try t.store.source(of: workList).title == "nextcloud")
        #expect(try t.store.source(of: feed).kind == .subscribed)
        #expect(try t.store.calendars(in: .calDAV(account: "nextcloud"), for: .event) == [work])
        #expect(try t.store.calendars(in: .calDAV(account: "nextcloud"), for: .reminder) == [workList])
        #expect(try t.store.calendars(in: .local, for: .event) == [personal])
        #expect(try t.store.calendars(in: .subscribed, for: .event) == [feed])

        // The account goes: its calendars are gone with it, and so is the source.
        try t.store.sync.removeAccount(named: "nextcloud")
        #expect(try t.store.sources() == [.local, .subscribed])
    }
}
