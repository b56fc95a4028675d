import Foundation
import GRDB
import Testing

@testable import ChimeStore

/// A new store is made from ``Schema/newStore`` in one transaction: exactly what the migrations
/// make, which stay the one source of the schema.
@Suite("schema: a new store made at once")
struct SchemaSnapshotTests {
    @Test func aNewStoreIsExactlyWhatTheMigrationsMake() throws {
        let migrated = try DatabaseQueue()
        try Schema.migrator.migrate(migrated)
        let expected = try migrated.read { try Schema.newStoreText($0) }
        if Schema.newStore != expected {
            let path = NSTemporaryDirectory() + "SchemaSnapshot-newStore.swift"
            try? Schema.newStoreSource(expected).write(toFile: path, atomically: true, encoding: .utf8)
            Issue.record(
                "Schema.newStore is not what the migrations make: replace its declaration in Sources/ChimeStore/SchemaSnapshot.swift with the one written to \(path)"
            )
        }
        // What the text does not say, the migrations left at its default: no rows besides the
        // migrations' names and the counters, no user version or application id.
        let tables = try migrated.read { db in
            try String.fetchAll(
                db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT IN ('grdb_migrations', 'sqlite_sequence')")
        }
        for table in tables {
            #expect(try migrated.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM \"\(table)\"") } == 0, "\(table)")
        }
        #expect(try migrated.read { db in try Int.fetchOne(db, sql: "PRAGMA user_version") } == 0)
        #expect(try migrated.read { db in try Int.fetchOne(db, sql: "PRAGMA application_id") } == 0)
        // Made from it, a file holds the same, and the migrations find nothing left to do.
        let made = try DatabaseQueue()
        #expect(try made.write { db in try Schema.makeNewStore(db) })
        #expect(try made.read { db in try Schema.newStoreText(db) } == expected)
        #expect(try made.read { db in try Schema.migrator.hasCompletedMigrations(db) })
        // A file that holds anything is left as it is.
        #expect(try !made.write { db in try Schema.makeNewStore(db) })
    }

    @Test func theTextNamesEverythingTheMigrationsMade() throws {
        let migrated = try DatabaseQueue()
        try Schema.migrator.migrate(migrated)
        let text = try migrated.read { try Schema.newStoreText($0) }
        let objects = try migrated.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE sql IS NOT NULL AND name != 'sqlite_sequence'")
        }
        #expect(objects.count > 25)
        for name in objects { #expect(text.contains(name), "\(name)") }
        for identifier in Schema.migrator.migrations {
            #expect(text.contains("VALUES ('\(identifier.replacingOccurrences(of: "'", with: "''"))')"), "\(identifier)")
        }
    }
}
