import ChimeCore
@testable import ChimeStore
import Foundation
import GRDB
import Glibc
import Testing

@Suite("Store file: creation, permissions, refusal of foreign files")
struct StoreFileTests {
    @Test func createsFileWithOwnerOnlyPermissionsInPrivateFolder() throws {
        let t = try TestStore()
        let fileMode = try FileManager.default.attributesOfItem(atPath: t.path)[.posixPermissions] as? Int
        let folderMode = try FileManager.default.attributesOfItem(atPath: t.folder + "/store")[.posixPermissions] as? Int
        #expect(fileMode == 0o600)
        #expect(folderMode == 0o700)
    }

    @Test func refusesANonSQLiteFileAndLeavesItUntouched() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chime-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/notes.sqlite"
        let content = Data(String(repeating: "my precious notes\n", count: 300).utf8)
        try content.write(to: URL(fileURLWithPath: path))
        #expect(throws: StoreError.notADatabase(path: path)) { try EventStore(path: path) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == content)
    }

    @Test func refusesAnotherProgramsSQLiteDatabase() throws {
        let t = try TestStore()
        let other = t.folder + "/other.sqlite"
        let queue = try DatabaseQueue(path: other)
        try queue.write { db in try db.execute(sql: "CREATE TABLE notes (x)") }
        try queue.close()
        #expect(throws: StoreError.foreignDatabase(path: other)) { try EventStore(path: other) }
    }

    @Test func refusesADatabaseWrittenByANewerSchema() throws {
        let t = try TestStore()
        try t.store.pool.write { db in try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v9: from the future')") }
        #expect(throws: StoreError.newerSchema(path: t.path, unknownMigrations: ["v9: from the future"])) {
            try EventStore(path: t.path)
        }
    }

    @Test func reopeningKeepsTheData() throws {
        let t = try TestStore()
        let calendar = try t.store.defaultCalendarForNewEvents()
        try t.store.save(Event(title: "Kept", calendar: calendar.identifier, start: .utc(local(2026, 12, 1, 9)), duration: 3600))
        let again = try EventStore(path: t.path, floatingZone: .utc)
        let found = try again.events(matching: again.predicateForEvents(start: utc(2026, 12, 1), end: utc(2026, 12, 2)))
        #expect(found.map(\.title) == ["Kept"])
        #expect(try again.defaultCalendarForNewEvents() == calendar)
    }

    @Test func aNewStoreHasEightKiBPagesAndAnOlderFileKeepsItsOwn() throws {
        let t = try TestStore()
        #expect(try t.store.pool.read { db in try Int.fetchOne(db, sql: "PRAGMA page_size") } == EventStore.newStorePageSize)
        // A store file made with SQLite's default 4 KiB pages (as every store was before) opens,
        // takes a change and keeps its page size.
        let older = t.folder + "/older.sqlite"
        try Self.makeFourKiBStore(at: older)
        let store = try EventStore(path: older, floatingZone: .utc)
        let calendar = try store.defaultCalendarForNewEvents()
        try store.save(Event(title: "Kept", calendar: calendar.identifier, start: .utc(local(2026, 12, 1, 9)), duration: 3600))
        let again = try EventStore(path: older, floatingZone: .utc)
        #expect(try again.events(matching: again.predicateForEvents(start: utc(2026, 12, 1), end: utc(2026, 12, 2))).map(\.title) == ["Kept"])
        #expect(try again.pool.read { db in try Int.fetchOne(db, sql: "PRAGMA page_size") } == 4_096)
    }

    @Test func aStoreFromBeforeServerCopiesKeptOnTheirPagesKeepsEveryResource() throws {
        let t = try TestStore()
        // A file of that time, with SQLite's default 4 KiB pages, and the schema before:
        // resources in a WITHOUT ROWID table, where a 1.5 KB server copy takes an overflow page
        // of its own.
        let path = t.folder + "/older.sqlite"
        try Self.makeFourKiBStore(at: path)
        let older = try EventStore(path: path, floatingZone: .utc)
        try older.pool.write { db in
            try db.execute(
                sql: """
                    INSERT INTO sync_account (name, url, username) VALUES ('home', 'https://dav.example/', 'alice');
                    INSERT INTO sync_collection (id, account, url, title) VALUES (1, 'home', 'https://dav.example/cal/', 'Work');
                    DROP TABLE sync_resource;
                    CREATE TABLE sync_resource (
                        collection_id INTEGER NOT NULL REFERENCES sync_collection(id) ON DELETE CASCADE,
                        href TEXT NOT NULL, uid TEXT NOT NULL, etag TEXT, server_copy TEXT,
                        signature TEXT NOT NULL DEFAULT '', foreign_content INTEGER NOT NULL DEFAULT 0,
                        PRIMARY KEY (collection_id, href)
                    ) WITHOUT ROWID;
                    CREATE INDEX sync_resource_uid ON sync_resource(collection_id, uid);
                    DELETE FROM grdb_migrations WHERE identifier LIKE 'v16:%';
                    """)
            for i in 0..<200 {
                let copy = "BEGIN:VCALENDAR\r\nSUMMARY:Resource \(i)\r\n" + String(repeating: "DESCRIPTION:padding\r\n", count: 70)
                try db.execute(
                    sql: "INSERT INTO sync_resource (collection_id, href, uid, etag, server_copy, signature, foreign_content) VALUES (1, ?, ?, ?, ?, ?, ?)",
                    arguments: ["/cal/\(i).ics", "uid-\(i)", "\"e\(i)\"", copy, "sig-\(i)", i % 7 == 0])
            }
        }
        let resources = "SELECT collection_id, href, uid, etag, server_copy, signature, foreign_content FROM sync_resource ORDER BY href"
        let before = try older.pool.read { db in try Row.fetchAll(db, sql: resources) }
        let pagesBefore = try older.pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM dbstat WHERE name = 'sync_resource'") ?? 0 }
        #expect(pagesBefore >= 200, "each resource on a page of its own before")

        let reopened = try EventStore(path: path, floatingZone: .utc)
        try reopened.pool.write { db in
            #expect(try Row.fetchAll(db, sql: resources) == before)
            // The migration's VACUUM (in WAL mode) kept the file's own page size.
            #expect(try Int.fetchOne(db, sql: "PRAGMA page_size") == 4_096)
            let table = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_schema WHERE name = 'sync_resource'") ?? ""
            #expect(!table.contains("WITHOUT ROWID"))
            let pages = try Int.fetchOne(db, sql: "SELECT count(*) FROM dbstat WHERE name = 'sync_resource'") ?? 0
            #expect(pages < 120, "two resources to a page, not one: \(pages) pages")
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO sync_resource (collection_id, href, uid) VALUES (1, '/cal/7.ics', 'again')")
            }
            let index = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_schema WHERE name = 'sync_resource_uid'")
            #expect(index?.contains("(collection_id, uid)") == true)
            // The old table's pages were given back: the file holds no more than a few free ones.
            let free = try Int.fetchOne(db, sql: "PRAGMA freelist_count") ?? 0
            #expect(free < 10, "\(free) free pages after the migration")
            try db.execute(sql: "DELETE FROM sync_collection WHERE id = 1")
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM sync_resource") == 0, "a collection's resources go with it")
        }
    }

    @Test func aStoreFromBeforeTheJournalsChecksWereComparisonsKeepsItsEntriesAndSequence() throws {
        for emptied in [false, true] {
            let t = try TestStore()
            let calendar = try t.store.defaultCalendarForNewEvents()
            for i in 0..<5 { try t.store.save(Event(title: "e\(i)", calendar: calendar.identifier, start: .utc(local(2026, 12, 1, 9)), duration: 60)) }
            // The journal as the first schema made it: its checks as lists.
            try t.store.pool.write { db in
                try db.execute(
                    sql: """
                        CREATE TABLE change_before (
                            seq INTEGER PRIMARY KEY AUTOINCREMENT,
                            entity TEXT NOT NULL CHECK (entity IN ('calendar', 'event', 'reminder')),
                            identifier TEXT NOT NULL,
                            kind TEXT NOT NULL CHECK (kind IN ('inserted', 'updated', 'deleted'))
                        );
                        INSERT INTO change_before SELECT * FROM change;
                        DROP TABLE change;
                        ALTER TABLE change_before RENAME TO change;
                        DELETE FROM grdb_migrations WHERE identifier LIKE 'v17:%';
                        """)
                try db.execute(sql: "UPDATE sqlite_sequence SET seq = 41 WHERE name = 'change'")
                // Compacted away entirely: the sequence alone says where the journal stands.
                if emptied { try db.execute(sql: "DELETE FROM change") }
            }
            let entries = "SELECT seq, entity, identifier, kind FROM change ORDER BY seq"
            let before = try t.store.pool.read { db in try Row.fetchAll(db, sql: entries) }
            #expect(emptied ? before.isEmpty : before.count >= 5)

            let reopened = try EventStore(path: t.path, floatingZone: .utc)
            try reopened.pool.read { db in
                #expect(try Row.fetchAll(db, sql: entries) == before)
                #expect(try Journal.lastSequence(db) == 41)
                let table = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_schema WHERE name = 'change'") ?? ""
                #expect(!table.contains(" IN ("), "\(table)")
            }
            // The next entry follows the sequence, and the checks still refuse what is no entry.
            try reopened.save(Event(title: "after", calendar: calendar.identifier, start: .utc(local(2026, 12, 2, 9)), duration: 60))
            try reopened.pool.write { db in
                let last = try Int64.fetchOne(db, sql: "SELECT max(seq) FROM change")
                #expect(last == 42)
                #expect(throws: DatabaseError.self) {
                    try db.execute(sql: "INSERT INTO change (entity, identifier, kind) VALUES ('todo', 'x', 'inserted')")
                }
                #expect(throws: DatabaseError.self) {
                    try db.execute(sql: "INSERT INTO change (entity, identifier, kind) VALUES ('event', 'x', 'moved')")
                }
            }
        }
    }

    // MARK: Paths that are not a store file of ours

    /// A store file as every one was made before 8 KiB pages: SQLite's default 4 KiB, every
    /// migration applied.
    static func makeFourKiBStore(at path: String) throws {
        let queue = try DatabaseQueue(path: path)
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA page_size = 4096")
            try db.execute(sql: "PRAGMA journal_mode = WAL")
        }
        try Schema.migrator.migrate(queue)
        try queue.close()
    }

    static func newFolder() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chime-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    static func listing(_ folder: String) throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: folder).sorted() }

    @Test func refusesAStoreThroughADanglingSymbolicLinkAndCreatesNothingAtItsTarget() throws {
        let folder = try Self.newFolder()
        let link = folder + "/chime.sqlite", target = folder + "/elsewhere.sqlite"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "elsewhere.sqlite")
        #expect(throws: StoreError.symbolicLink(path: link, target: target)) { try EventStore(path: link) }
        #expect(try Self.listing(folder) == ["chime.sqlite"], "nothing created at the target or beside the link")
        let message = StoreError.symbolicLink(path: link, target: target).description
        #expect(message.contains("use --store \(target)"), "\(message)")
    }

    /// SQLite keys the write-ahead log by the name a store was opened through: writes through a
    /// second name (a hard link) were acknowledged and then lost at the next checkpoint.
    @Test func refusesAStoreFileWithASecondNameThroughEitherName() throws {
        let t = try TestStore()
        let second = t.folder + "/second.sqlite"
        #expect(link(t.path, second) == 0)
        #expect(throws: StoreError.hardLinked(path: second, links: 2)) { try EventStore(path: second) }
        #expect(throws: StoreError.hardLinked(path: t.path, links: 2)) { try EventStore(path: t.path) }
        #expect(StoreError.hardLinked(path: second, links: 2).description.contains("remove the other links"))
        unlink(second)
        _ = try EventStore(path: t.path)
    }

    /// After a command wrote, the store file alone (a backup that leaves out `-wal`) holds it.
    @Test func aFoldedWriteAheadLogLeavesEverythingInTheFileItself() throws {
        let t = try TestStore()
        let list = try t.store.defaultCalendarForNewReminders().identifier
        for n in 0..<6 { _ = try t.store.save(Reminder(title: "Written \(n)", calendar: list)) }
        var info = stat()
        #expect(stat(t.path + "-wal", &info) == 0 && info.st_size > 0, "the writes are in the log first")
        t.store.foldWriteAheadLog()
        let backup = t.folder + "/backup.sqlite"
        try FileManager.default.copyItem(atPath: t.path, toPath: backup)  // the file alone, no -wal
        let restored = try EventStore(path: backup, floatingZone: .utc)
        let titles = try restored.reminders(matching: restored.predicateForIncompleteReminders(dueStart: nil, dueEnd: nil, calendars: nil)).map(\.title)
        #expect(Set(titles) == Set((0..<6).map { "Written \($0)" }))
    }

    @Test func aReadOnlyFileSystemIsNamedAsSuch() {
        // A writable folder's store is only read-only by its mode: chmod is the advice there.
        #expect(
            StoreError.readOnly(at: FileManager.default.temporaryDirectory.path + "/chime.sqlite")
                == .readOnly(path: FileManager.default.temporaryDirectory.path + "/chime.sqlite"))
        #expect(StoreError.readOnlyFileSystem(path: "/mnt/chime.sqlite").description.contains("read-only file system"))
        #expect(!StoreError.readOnlyFileSystem(path: "/mnt/chime.sqlite").description.contains("chmod"))
    }

    @Test func refusesASymbolicLinkToARealStoreNamingTheRealFile() throws {
        let t = try TestStore()
        let link = t.folder + "/link.sqlite"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: t.path)
        #expect(throws: StoreError.symbolicLink(path: link, target: t.path)) { try EventStore(path: link) }
    }

    @Test func refusesAnotherUsersFileAndLeavesItUntouched() throws {
        let folder = try Self.newFolder()
        let path = folder + "/chime.sqlite"
        FileManager.default.createFile(atPath: path, contents: nil)  // empty: a store would be created in it
        #expect(chown(path, 65534, 65534) == 0, "tests run as root: \(String(cString: strerror(errno)))")
        #expect(throws: StoreError.notOwned(path: path, owner: 65534)) { try EventStore(path: path) }
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int == 0)
        #expect(try Self.listing(folder) == ["chime.sqlite"], "no -wal or -shm")
    }

    @Test func refusesAFolderAtTheStorePath() throws {
        let folder = try Self.newFolder()
        #expect(throws: StoreError.notAFile(path: folder, kind: "a folder")) { try EventStore(path: folder) }
    }

    @Test func refusingANonStoreFileLeavesNoStrayFilesBesideIt() throws {
        let folder = try Self.newFolder()
        let path = folder + "/passwd"
        try "root:x:0:0:root:/root:/bin/bash\n".write(toFile: path, atomically: true, encoding: .utf8)
        let before = try Self.listing(folder)
        #expect(throws: StoreError.notADatabase(path: path)) { try EventStore(path: path) }
        #expect(try Self.listing(folder) == before)
    }
}
