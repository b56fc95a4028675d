import ChimeCore
import Foundation
@testable import ChimeStore
import Testing

@Suite("A subscription's refresh")
struct SubscriptionRefreshTests {
    /// A feed of events on 2026-12 days, each `(uid, title, day, readable)`; an unreadable one
    /// lacks its DTSTART, which the reader skips. `moved` adds a changed occurrence to a weekly
    /// series "weekly", unreadable in the same way unless `movedReadable`.
    private func feed(
        _ events: [(uid: String, title: String, day: Int, readable: Bool)], moved: Bool = false, movedReadable: Bool = true
    ) -> [UInt8] {
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Example//Feed//EN"]
        for e in events {
            lines += ["BEGIN:VEVENT", "UID:\(e.uid)", "DTSTAMP:20261101T000000Z", "SUMMARY:\(e.title)"]
            if e.readable { lines += [String(format: "DTSTART:202612%02dT090000Z", e.day), "DURATION:PT1H"] }
            if e.uid == "weekly" { lines.append("RRULE:FREQ=WEEKLY;COUNT=4") }
            lines.append("END:VEVENT")
        }
        if moved {
            lines += [
                "BEGIN:VEVENT", "UID:weekly", "DTSTAMP:20261101T000000Z", "RECURRENCE-ID:20261208T090000Z", "SUMMARY:Moved"
            ]
            if movedReadable { lines.append("DTSTART:20261208T150000Z") }
            lines += ["DURATION:PT1H", "END:VEVENT"]
        }
        lines.append("END:VCALENDAR")
        return Array((lines.joined(separator: "\r\n") + "\r\n").utf8)
    }

    private func titles(_ t: TestStore, _ subscription: CalendarSubscription) throws -> [String] {
        let calendar = try #require(try t.store.calendars(for: .event).first { $0.identifier == subscription.calendarIdentifier })
        let list = try t.store.events(matching: t.store.predicateForEvents(start: utc(2026, 12, 1), end: utc(2027, 1, 1), calendars: [calendar]))
        return list.map(\.title).sorted()
    }

    @Test func anEventTheFeedNowHoldsUnreadablyKeepsItsStoredCopyAndItsChangedOccurrences() throws {
        let t = try TestStore()
        let subscription = try t.store.addSubscription(url: "https://example.org/team.ics", title: "Team", refreshSeconds: 3_600)
        let first = try t.store.applySubscription(
            subscription, feed: feed([("a", "Standup", 2, true), ("weekly", "Review", 1, true)], moved: true), etag: nil,
            lastModified: nil, at: t.clock.now)
        #expect(first.added == 2)
        #expect(try titles(t, subscription) == ["Moved", "Review", "Review", "Review", "Standup"])

        // The series' new copy has no DTSTART: skipped and said, but it has not left the feed. Its
        // changed occurrence, readable, does not stand in for it.
        let second = try t.store.applySubscription(
            subscription, feed: feed([("a", "Standup", 2, true), ("weekly", "Review", 1, false), ("c", "Retro", 3, true)], moved: true),
            etag: nil, lastModified: nil, at: t.clock.now)
        #expect(second.updated == 1, "Standup alone: \(second)")
        #expect(second.removed == 0)
        #expect(second.added == 1)
        #expect(second.notes.contains { $0.contains("missing DTSTART") })
        #expect(try titles(t, subscription) == ["Moved", "Retro", "Review", "Review", "Review", "Standup"])

        // Gone from the feed: removed, with its changed occurrence.
        let third = try t.store.applySubscription(
            subscription, feed: feed([("a", "Standup", 2, true), ("c", "Retro", 3, true)]), etag: nil, lastModified: nil, at: t.clock.now)
        #expect(third.removed == 1)
        #expect(try titles(t, subscription) == ["Retro", "Standup"])
    }

    @Test func aChangedOccurrenceTheFeedNowHoldsUnreadablyKeepsItsStoredCopy() throws {
        let t = try TestStore()
        let subscription = try t.store.addSubscription(url: "https://example.org/team.ics", title: "Team", refreshSeconds: 3_600)
        _ = try t.store.applySubscription(
            subscription, feed: feed([("weekly", "Review", 1, true)], moved: true), etag: nil, lastModified: nil, at: t.clock.now)
        #expect(try titles(t, subscription) == ["Moved", "Review", "Review", "Review"])

        // The series is read again and replaces the stored one; its moved occurrence lost its
        // DTSTART: skipped and said, and the stored copy of that occurrence stays in its place.
        let second = try t.store.applySubscription(
            subscription, feed: feed([("weekly", "Review (new room)", 1, true)], moved: true, movedReadable: false), etag: nil,
            lastModified: nil, at: t.clock.now)
        #expect(second.updated == 1 && second.removed == 0, "\(second)")
        #expect(second.notes.contains { $0.contains("missing DTSTART") })
        #expect(try titles(t, subscription) == ["Moved", "Review (new room)", "Review (new room)", "Review (new room)"])

        // Readable again: the feed's copy replaces it; left out of the feed: gone.
        _ = try t.store.applySubscription(
            subscription, feed: feed([("weekly", "Review", 1, true)], moved: true), etag: nil, lastModified: nil, at: t.clock.now)
        #expect(try titles(t, subscription) == ["Moved", "Review", "Review", "Review"])
        _ = try t.store.applySubscription(
            subscription, feed: feed([("weekly", "Review", 1, true)], moved: false), etag: nil, lastModified: nil, at: t.clock.now)
        #expect(try titles(t, subscription) == ["Review", "Review", "Review", "Review"])
    }

    /// The stored copy is found as the readable occurrence was stored: Outlook's date-time
    /// RECURRENCE-ID on an all-day series names the day, and a TZID no zone matches reads as
    /// floating time.
    @Test(arguments: [
        ("DTSTART;VALUE=DATE:20261201", "RECURRENCE-ID:20261208T090000Z"),
        ("DTSTART;TZID=Nowhere/Special:20261201T090000", "RECURRENCE-ID;TZID=Nowhere/Special:20261208T090000")
    ])
    func aChangedOccurrenceNamedAsOutlookOrAnUnknownZoneNamesItKeepsItsCopy(_ start: String, _ recurrenceID: String) throws {
        let t = try TestStore()
        let subscription = try t.store.addSubscription(url: "https://example.org/team.ics", title: "Team", refreshSeconds: 3_600)
        func feed(series: String, movedReadable: Bool) -> [UInt8] {
            let lines =
                [
                    "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Example//Feed//EN",
                    "BEGIN:VEVENT", "UID:weekly", "DTSTAMP:20261101T000000Z", "SUMMARY:\(series)", start, "RRULE:FREQ=WEEKLY;COUNT=4", "END:VEVENT",
                    "BEGIN:VEVENT", "UID:weekly", "DTSTAMP:20261101T000000Z", recurrenceID, "SUMMARY:Moved"
                ] + (movedReadable ? [start.replacingOccurrences(of: "01", with: "09")] : []) + ["END:VEVENT", "END:VCALENDAR"]
            return Array((lines.joined(separator: "\r\n") + "\r\n").utf8)
        }
        _ = try t.store.applySubscription(subscription, feed: feed(series: "Review", movedReadable: true), etag: nil, lastModified: nil, at: t.clock.now)
        #expect(try titles(t, subscription) == ["Moved", "Review", "Review", "Review"])
        let second = try t.store.applySubscription(
            subscription, feed: feed(series: "Review (new room)", movedReadable: false), etag: nil, lastModified: nil, at: t.clock.now)
        #expect(second.notes.contains { $0.contains("missing DTSTART") }, "\(second)")
        #expect(try titles(t, subscription) == ["Moved", "Review (new room)", "Review (new room)", "Review (new room)"])
    }

    @Test func anOccurrenceTheFeedHasWithoutItsSeriesStaysAfterItsRefresh() throws {
        let t = try TestStore()
        let subscription = try t.store.addSubscription(url: "https://example.org/team.ics", title: "Team", refreshSeconds: 3_600)
        // One instance of a meeting published alone: stored as an event of its own, and not then
        // removed as missing from the feed by the same refresh, nor by the next.
        for _ in 0..<2 {
            let refresh = try t.store.applySubscription(
                subscription, feed: feed([("a", "Standup", 2, true)], moved: true), etag: nil, lastModified: nil, at: t.clock.now)
            #expect(refresh.removed == 0, "\(refresh)")
            #expect(try titles(t, subscription) == ["Moved", "Standup"])
        }
    }
}
