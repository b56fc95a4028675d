import ChimeCore
@testable import ChimeStore
import Foundation
import GRDB
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
}
