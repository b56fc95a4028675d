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

    // MARK: Paths that are not a store file of ours

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
