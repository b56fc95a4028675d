import ChimeCore
import ChimeICS
import Foundation
import GRDB
import Testing

@testable import ChimeStore

/// An import into an empty store builds the item indexes once its rows are in
/// (``DeferredIndexes``): whatever happens, the store ends with the indexes the migrations make.
@Suite("store: item indexes built after an import's rows")
struct DeferredIndexesTests {
    /// A file with events, to-dos, alarms, a series and a changed occurrence of it.
    static let file: [UInt8] = {
        var body = ""
        for i in 0..<600 {
            body += "BEGIN:VEVENT\r\nUID:e\(i)@example.com\r\nDTSTART:202701\(String(format: "%02d", i % 28 + 1))T090000Z\r\n"
            body += "DURATION:PT1H\r\nSUMMARY:Event \(i)\r\n"
            if i % 3 == 0 { body += "RRULE:FREQ=WEEKLY;COUNT=\(i % 7 + 2)\r\n" }
            body += "BEGIN:VALARM\r\nACTION:DISPLAY\r\nDESCRIPTION:x\r\nTRIGGER:-PT10M\r\nEND:VALARM\r\nEND:VEVENT\r\n"
        }
        for i in 0..<100 { body += "BEGIN:VTODO\r\nUID:t\(i)@example.com\r\nDUE:20270301T120000Z\r\nSUMMARY:To-do \(i)\r\nEND:VTODO\r\n" }
        body += "BEGIN:VEVENT\r\nUID:e0@example.com\r\nRECURRENCE-ID:20270108T090000Z\r\nDTSTART:20270108T100000Z\r\n"
        body += "DURATION:PT1H\r\nSUMMARY:Moved\r\nEND:VEVENT\r\n"
        return Array(("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Test//EN\r\n" + body + "END:VCALENDAR\r\n").utf8)
    }()

    /// The file's schema, every object by name (an index made again comes later in SQLite's own
    /// list), and SQLite's own check of the file.
    static func schema(_ path: String) throws -> (text: String, check: String) {
        let queue = try DatabaseQueue(path: path)
        return try queue.read { db in
            let objects = try Row.fetchAll(db, sql: "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY name")
            return (objects.map(\.description).joined(separator: "\n"), try String.fetchAll(db, sql: "PRAGMA integrity_check").joined(separator: "\n"))
        }
    }

    /// The schema's objects in SQLite's own order: an index made again comes after the others.
    static func order(_ path: String) throws -> [String] {
        try DatabaseQueue(path: path).read { db in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master ORDER BY rowid") }
    }

    static let wholeTableIndexes: Set = ["item_calendar", "item_event_end", "item_event_range", "item_external_id"]

    static func streamed(_ store: EventStore, _ file: [UInt8] = DeferredIndexesTests.file, dryRun: Bool = false, failingAt: Int? = nil) throws -> ImportReport {
        try store.importICS(file: "f.ics", dryRun: dryRun) {
            var at = 0
            return { () throws(ICSError) -> [UInt8]? in
                guard at < file.count else { return nil }
                if let failingAt, at >= failingAt { throw ICSError(file: "f.ics", line: 0, "cannot read the file") }
                defer { at += 2_048 }
                return Array(file[at..<min(file.count, at + 2_048)])
            }
        }
    }

    @Test func anImportIntoAnEmptyStoreEndsWithTheMigrationsIndexes() throws {
        let fresh = try TestStore().path
        let target = try TestStore()
        let imported = target.path, store = target.store
        let report = try Self.streamed(store)
        #expect(report.eventsAdded == 600 && report.remindersAdded == 100 && report.overrides == 1)
        let expected = try Self.schema(fresh).text
        let (text, check) = try Self.schema(imported)
        #expect(text == expected)
        #expect(check == "ok")
        // Made again at the end: the import did build them after its rows.
        #expect(Set(try Self.order(imported).suffix(4)) == Self.wholeTableIndexes)
        #expect(Set(try Self.order(fresh).suffix(4)) != Self.wholeTableIndexes)
        // The indexes hold every row: a UID found through its index, a window through its own.
        let window = store.predicateForEvents(start: Instant(secondsSince1970: 1_799_316_000), end: Instant(secondsSince1970: 1_799_406_000))
        let moved = try store.events(matching: window)
        #expect(moved.contains { $0.title == "Moved" })
        let sameUID = try DatabaseQueue(path: imported).read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM item INDEXED BY item_external_id WHERE external_id = 'e0@example.com'")
        }
        #expect(sameUID == 2)
    }

    @Test func aDryRunOrAFailedReadLeavesTheIndexesAsTheyWere() throws {
        let fresh = try TestStore().path
        let expected = try Self.schema(fresh).text
        for (name, dryRun, failingAt) in [("dry", true, Int?.none), ("failed", false, Self.file.count / 2)] {
            let t = try TestStore()
            let path = t.path, store = t.store
            if failingAt == nil {
                #expect(try Self.streamed(store, dryRun: dryRun).eventsAdded == 600)
            } else {
                #expect(throws: ICSError.self) { try Self.streamed(store, failingAt: failingAt) }
            }
            #expect(try Self.schema(path).text == expected, "\(name)")
            #expect(try store.allItems(in: nil).isEmpty, "\(name)")
        }
    }

    @Test func aStoreThatHoldsItemsOrAFileReadAgainWholeKeepsItsIndexes() throws {
        // Into a store that holds an item: the indexes are kept up row by row, never dropped.
        let heldStore = try TestStore()
        let held = heldStore.path, store = heldStore.store
        let one = Array("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:x\r\nDTSTART:20270101T090000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n".utf8)
        #expect(try Self.streamed(store, one).eventsAdded == 1)
        let before = try Self.order(held)
        #expect(try Self.streamed(store).eventsAdded == 600)
        #expect(try Self.order(held) == before)
        // A file that holds one UID twice is read again whole, after the streamed pass rolled back.
        let twiceStore = try TestStore()
        let twice = twiceStore.path, again = twiceStore.store
        let fresh = try Self.order(twice)
        var text = String(decoding: Self.file, as: UTF8.self)
        let copy = "BEGIN:VEVENT\r\nUID:e1@example.com\r\nDTSTART:20270101T090000Z\r\nEND:VEVENT\r\n"
        text = text.replacingOccurrences(of: "END:VCALENDAR", with: copy + "END:VCALENDAR")
        #expect(try Self.streamed(again, Array(text.utf8)).eventsAdded == 600)
        #expect(try Self.order(twice) == fresh)
        #expect(try Self.schema(twice).check == "ok")
    }

    @Test func onlyAnEmptyTableHasItsWholeTableIndexesDropped() throws {
        let queue = try DatabaseQueue()
        try Schema.migrator.migrate(queue)
        let indexes = { (db: Database) in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'item' AND sql IS NOT NULL ORDER BY name")
        }
        let all = try queue.read(indexes)
        try queue.inTransaction { db in
            let deferred = try DeferredIndexes.dropIfEmpty(db)
            #expect(!deferred.isEmpty)
            // The partial ones stay; the whole-table ones are gone until restored.
            let left = try indexes(db)
            for name in left {
                let definition = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = ?", arguments: [name])
                #expect(definition?.contains(" WHERE ") == true, "\(name)")
            }
            #expect(left.count < all.count && left.count >= 3)
            try deferred.restore(db, rowsCacheKiB: EventStore.streamingCacheWithoutIndexesKiB)
            #expect(try indexes(db) == all)
            // A store that fits keeps the rows' cache for the build; a larger one gives it up for the sort.
            let storeKiB = try Int.fetchOne(db, sql: "SELECT page_count * page_size / 1024 FROM pragma_page_count, pragma_page_size") ?? 0
            #expect(storeKiB > 0)
            #expect(try DeferredIndexes.buildCacheKiB(db, rowsCacheKiB: 16_384) == 16_384)
            #expect(try DeferredIndexes.buildCacheKiB(db, rowsCacheKiB: storeKiB) == DeferredIndexes.sortingCacheKiB)
            return .rollback
        }
        try queue.write { db in
            try db.execute(sql: "INSERT INTO calendar (id, title, color, entity_type) VALUES ('c', 'C', '#000000', 'event')")
            try db.execute(
                sql: """
                    INSERT INTO item (id, calendar_id, kind, external_id, title, start, "end", created, modified, range_start)
                    VALUES ('i', 'c', 'event', 'u', 'T', '20270101T090000Z', '20270101T100000Z', 0, 0, 0)
                    """)
            #expect(try DeferredIndexes.dropIfEmpty(db).isEmpty)
            #expect(try indexes(db) == all)
        }
    }
}
