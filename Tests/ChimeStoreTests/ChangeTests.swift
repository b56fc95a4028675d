import ChimeCore
@testable import ChimeStore
import Testing

@Suite("Change journal and EventStore.changes")
struct ChangeTests {
    @Test func writesInThisProcessArriveInOrderWithTheirKinds() async throws {
        let t = try TestStore()
        let calendar = try t.store.defaultCalendarForNewEvents()
        var iterator = t.store.changes.makeAsyncIterator()
        var e = Event(title: "a", calendar: calendar.identifier, start: .utc(local(2026, 12, 1, 9)), duration: 60)
        try t.store.save(e)
        e.title = "b"
        try t.store.save(e)
        try t.store.remove(e)
        var seen: [StoreChange] = []
        while seen.count < 3, let set = await iterator.next() {
            #expect(!set.isTruncated)
            seen += set.changes
        }
        #expect(seen.map(\.kind) == [.inserted, .updated, .deleted])
        #expect(seen.allSatisfy { $0.identifier == e.identifier && $0.entity == .event })
        #expect(seen.map(\.sequence) == seen.map(\.sequence).sorted())
    }

    @Test func aConsumerResumingFromASequenceGetsEveryChangeSinceExactlyOnce() async throws {
        let t = try TestStore()
        let list = try t.store.defaultCalendarForNewReminders()
        let resumeFrom = try t.store.currentChangeSequence()
        var ids: [String] = []
        for i in 0..<20 {
            let r = try t.store.save(Reminder(title: "r\(i)", calendar: list.identifier))
            ids.append(r.identifier)
        }
        // A second store object on the same file stands for a restarted process.
        let reopened = try EventStore(path: t.path, floatingZone: .utc)
        var collected: [String] = []
        for await set in reopened.changes(after: resumeFrom) {
            collected += set.changes.map(\.identifier)
            if collected.count >= 20 { break }
        }
        #expect(collected == ids)
    }

    @Test func compactionKeepsTheJournalBoundedAndFlagsConsumersThatFellBehind() async throws {
        let t = try TestStore()
        let list = try t.store.defaultCalendarForNewReminders()
        let start = try t.store.currentChangeSequence()
        var r = Reminder(title: "busy", calendar: list.identifier)
        r = try t.store.save(r)
        // Many updates in one transaction, then one more commit to trigger compaction.
        for i in 0..<Int(Journal.retained + 50) {
            r.title = "busy \(i)"
            try t.store.save(r, commit: false)
        }
        try t.store.commit()
        let rows = try await t.store.pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM change")! }
        #expect(rows == Int(Journal.retained))
        for await set in t.store.changes(after: start) {
            #expect(set.isTruncated)
            #expect(set.changes.count == Int(Journal.retained))
            break
        }
    }
}
