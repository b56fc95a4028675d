import ChimeCore
@testable import ChimeStore
import Testing

/// Window queries keep the events they decoded for the next query of the same store; what they
/// give must still be the file's latest state after any write, by this store or another
/// connection, and a listing's events must not be a full query's (or the other way round).
@Suite("Decoded events kept between window queries")
struct DecodedEventsTests {
    let t: TestStore
    let calendar: ChimeCore.Calendar
    let december: EventPredicate

    init() throws {
        t = try TestStore()
        calendar = try t.store.defaultCalendarForNewEvents()
        december = t.store.predicateForEvents(start: utc(2026, 12, 1), end: utc(2027, 1, 1))
    }

    @discardableResult
    func save(_ title: String, _ start: Instant, rule: String? = nil, notes: String? = nil) throws -> Event {
        var e = Event(title: title, calendar: calendar.identifier, start: .utc(ZoneRules.utc.localTime(at: start)), duration: 3_600)
        if let rule { e.recurrenceRules = [try RecurrenceRule(parsing: rule)] }
        e.alarms = [.relative(-600)]
        e.notes = notes
        return try t.store.save(e)
    }

    func titles(_ p: EventPredicate) throws -> [String] { try t.store.events(matching: p).map(\.title) }

    @Test func aSecondQueryGivesTheSameEventsFromWhatTheFirstKept() throws {
        try save("standup", utc(2026, 12, 1, 9), rule: "FREQ=WEEKLY;BYDAY=MO,TU")
        try save("review", utc(2026, 12, 10, 15), notes: "bring numbers")
        // A store's first query keeps nothing (a command that queries once pays nothing for it).
        let first = Array(try t.store.events(matching: december))
        #expect(t.store.decodedEvents.count == 0)
        let second = Array(try t.store.events(matching: december))
        #expect(t.store.decodedEvents.count == 2)
        let third = Array(try t.store.events(matching: december))
        #expect(second == first && third == first)
        #expect(second.contains { $0.notes == "bring numbers" && $0.alarms == [.relative(-600)] })
        // A week inside December reads no row again: both are kept already.
        let week = t.store.predicateForEvents(start: utc(2026, 12, 7), end: utc(2026, 12, 14))
        #expect(try titles(week) == ["standup", "standup", "review"])
        #expect(t.store.decodedEvents.rowsReadByLastQuery == 0)
        #expect(t.store.decodedEvents.count == 2)
    }

    @Test func everyWriteOfThisStoreIsSeenByItsNextQuery() throws {
        var standup = try save("standup", utc(2026, 12, 1, 9), rule: "FREQ=DAILY;COUNT=3")
        // Twice: from the second query on, the store keeps what it decoded.
        for _ in 0..<2 { #expect(try titles(december) == ["standup", "standup", "standup"]) }
        #expect(t.store.decodedEvents.count == 1)

        standup.title = "daily standup"
        standup.alarms = [.relative(-300)]
        standup = try t.store.save(standup, span: .futureEvents)
        let edited = Array(try t.store.events(matching: december))
        #expect(edited.map(\.title) == ["daily standup", "daily standup", "daily standup"])
        #expect(edited.allSatisfy { $0.alarms == [.relative(-300)] })

        // Removed, then another event saved: it may take the removed row's rowid.
        try t.store.remove(standup, span: .futureEvents)
        #expect(try titles(december).isEmpty)
        try save("retro", utc(2026, 12, 18, 16))
        #expect(try titles(december) == ["retro"])
    }

    @Test func aWriteThroughAnotherConnectionIsSeen() throws {
        let review = try save("review", utc(2026, 12, 10, 15))
        for _ in 0..<2 { #expect(try titles(december) == ["review"]) }
        #expect(t.store.decodedEvents.count == 1)
        // Another store on the same file: what another process does.
        let other = try EventStore(path: t.path, floatingZone: .utc)
        var moved = try #require(try other.event(withIdentifier: review.identifier))
        moved.title = "review (moved)"
        moved.start = .utc(local(2027, 1, 5, 15))
        moved.end = .utc(local(2027, 1, 5, 16))
        try other.save(moved)
        #expect(try titles(december).isEmpty)
        #expect(try titles(t.store.predicateForEvents(start: utc(2027, 1, 1), end: utc(2027, 2, 1))) == ["review (moved)"])
    }

    @Test func aListingAndAFullQueryEachGetTheirOwnEvents() throws {
        try save("review", utc(2026, 12, 10, 15), notes: "bring numbers")
        var listing = december
        listing.includesAlarms = false
        listing.includesDetails = false
        for _ in 0..<2 {
            let full = try #require(try t.store.events(matching: december).first)
            #expect(full.notes == "bring numbers" && full.alarms == [.relative(-600)])
            let light = try #require(try t.store.events(matching: listing).first)
            #expect(light.notes == nil && light.alarms.isEmpty && light.title == "review")
        }
        #expect(t.store.decodedEvents.count == 2)
    }

    @Test func aLongLivedStoreKeepsNothing() throws {
        try save("review", utc(2026, 12, 10, 15))
        let daemons = try EventStore(path: t.path, floatingZone: .utc, longLived: true)
        for _ in 0..<3 { #expect(try daemons.events(matching: december).map(\.title) == ["review"]) }
        #expect(daemons.decodedEvents.count == 0)
    }

    /// Some candidates kept, some read: the rows read are only the missing ones, their alarms
    /// come with them, and the list is the one a new store's first query (nothing kept) gives,
    /// ties and a moved occurrence included.
    @Test func keptAndReadEventsMergeAsANewStoreWouldGiveThem() throws {
        let standup = try save("standup", utc(2026, 12, 1, 9), rule: "FREQ=DAILY;COUNT=20")
        try save("tie A", utc(2026, 12, 3, 12))
        try save("tie B", utc(2026, 12, 3, 12))
        // A moved occurrence: a detached row of its own.
        var moved = try #require(try t.store.events(matching: december).first { $0.start == .utc(local(2026, 12, 2, 9)) })
        moved.start = .utc(local(2026, 12, 2, 11))
        moved.end = .utc(local(2026, 12, 2, 12))
        try t.store.save(moved, span: .thisEvent)
        try save("party", utc(2026, 12, 18, 19), notes: "bring a dish")

        let firstWeek = t.store.predicateForEvents(start: utc(2026, 12, 1), end: utc(2026, 12, 7))
        for _ in 0..<2 { _ = try t.store.events(matching: firstWeek) }
        #expect(t.store.decodedEvents.count == 4)  // the series, its moved occurrence, both ties
        let month = try t.store.events(matching: december)
        #expect(t.store.decodedEvents.rowsReadByLastQuery == 1)  // the party alone
        let fresh = try EventStore(path: t.path, floatingZone: .utc)
        let expected = try fresh.events(matching: december)
        #expect(month == expected)
        #expect(month.map(\.title).filter { $0 == "standup" }.count == 20)
        #expect(month.contains { $0.title == "party" && $0.notes == "bring a dish" && $0.alarms == [.relative(-600)] })
        #expect(month.contains { $0.identifier == standup.identifier && $0.isDetached && $0.start == .utc(local(2026, 12, 2, 11)) })
        let ties = month.indices.filter { month[$0].title.hasPrefix("tie") }
        #expect(ties.count == 2 && ties[1] == ties[0] + 1)
        #expect(ties.map { month[$0].title } == ties.map { expected[$0].title })
    }

    /// When fewer than half of the candidates are kept, every row is read in one go (one seek per
    /// missing row would cost more).
    @Test func aQueryWithFewKeptReadsEveryRow() throws {
        try save("first", utc(2026, 12, 1, 9))
        for day in 10...14 { try save("later \(day)", utc(2026, 12, day, 9)) }
        let firstDay = t.store.predicateForEvents(start: utc(2026, 12, 1), end: utc(2026, 12, 2))
        for _ in 0..<2 { _ = try t.store.events(matching: firstDay) }
        #expect(t.store.decodedEvents.count == 1)
        #expect(try t.store.events(matching: december).count == 6)
        #expect(t.store.decodedEvents.rowsReadByLastQuery == 6)
    }

    /// After a write, what was kept is let go by the next query, even one that reads nothing.
    @Test func whatNoLongerMatchesTheFileIsLetGo() throws {
        try save("review", utc(2026, 12, 10, 15))
        for _ in 0..<2 { _ = try t.store.events(matching: december) }
        #expect(t.store.decodedEvents.count == 1)
        try save("later", utc(2030, 1, 10, 15))
        _ = try t.store.events(matching: t.store.predicateForEvents(start: utc(2029, 1, 1), end: utc(2029, 1, 2)))
        #expect(t.store.decodedEvents.count == 0)
    }
}
