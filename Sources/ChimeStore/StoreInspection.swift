import Foundation
import GRDB

/// What an existing store file is, found without changing it: opened read-only, never created,
/// never migrated (`chime doctor`). The refusals are ``EventStore``'s own open errors.
///
/// ```swift
/// switch try StoreInspection.inspect(path: path) {
/// case nil: print("not created yet")
/// case let found?: print("schema v\(found.schemaVersion) of v\(found.currentSchemaVersion)")
/// }
/// ```
public struct StoreInspection: Hashable, Sendable {
    /// How many schema migrations the file has (`v1`… in order): its schema version.
    public var schemaVersion: Int
    /// The schema version this build writes; a lower `schemaVersion` is upgraded on next use.
    public var currentSchemaVersion: Int
    /// CalDAV accounts and subscribed calendars, with how their last sync or refresh went.
    public var accounts: [SyncAccount] = []
    public var subscriptions: [CalendarSubscription] = []
    /// Event calendars named after an address (``EventStore/calendarOwnerAddresses()``).
    public var calendarOwnerAddresses: [String] = []
    /// What SQLite's `PRAGMA quick_check` found wrong (at most five lines); empty for a sound file.
    public var damage: [String] = []

    /// Nil when nothing is at `path`; throws ``StoreError`` when the path is a link, a folder,
    /// another user's file, not an SQLite database, another program's database, or a newer schema.
    public static func inspect(path: String) throws(StoreError) -> StoreInspection? {
        guard try StoreLocation.check(path: path) else { return nil }
        var config = Configuration()
        config.readonly = true
        do {
            let queue = try DatabaseQueue(path: path, configuration: config)
            defer { try? queue.close() }
            return try queue.read { db in
                if let refusal = try EventStore.refusal(db, path: path) { throw refusal }
                let applied = try Int.fetchOne(db, sql: "SELECT count(*) FROM grdb_migrations WHERE 1") ?? 0
                var found = StoreInspection(schemaVersion: applied, currentSchemaVersion: Schema.migrator.migrations.count)
                let tables = try String.fetchSet(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
                if tables.contains("sync_account") { found.accounts = try SyncRecords.accounts(db) }
                if tables.contains("subscription") { found.subscriptions = try EventStore.subscriptions(db) }
                found.calendarOwnerAddresses = try String.fetchAll(db, sql: "SELECT title FROM calendar WHERE entity_type = 'event'")
                    .filter(EventStore.looksLikeAddress)
                // A damaged page stops every query that meets it: say so here, not "ok".
                do {
                    let verdict = try String.fetchAll(db, sql: "PRAGMA quick_check(5)")
                    found.damage = verdict == ["ok"] ? [] : verdict
                } catch let error as DatabaseError {
                    found.damage = [error.message ?? "\(error)"]
                }
                return found
            }
        } catch let error as StoreError {
            throw error
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
            throw .notADatabase(path: path)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CORRUPT {
            // Damage met before quick_check could run (reading the schema or the accounts).
            return StoreInspection(
                schemaVersion: 0, currentSchemaVersion: Schema.migrator.migrations.count,
                damage: [error.message ?? "database disk image is malformed"])
        } catch let error as DatabaseError where error.message?.contains("no such table: grdb_migrations") == true {
            // An empty file (created, never written): every command turns it into a store.
            return StoreInspection(schemaVersion: 0, currentSchemaVersion: Schema.migrator.migrations.count)
        } catch {
            throw .from(error, path: path)
        }
    }
}
