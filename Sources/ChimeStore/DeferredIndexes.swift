import GRDB

/// The `item` table's whole-table indexes, dropped while an import fills an empty table and made
/// again from their own definitions before the transaction ends.
///
/// Kept up row by row, each of these indexes costs SQLite a search and an insert per item at a
/// random place (identifiers, UIDs and end dates arrive in no order); made over rows already
/// stored, it is built from one sorted pass. Partial indexes (overrides, to-dos, alarms) stay:
/// few rows enter them, and a build would read every row. The definitions are read from the
/// file's own schema, so what is made again is what was dropped, and the drop, the inserts and
/// the rebuild are one transaction: a failure or a dry run leaves the indexes as they were.
struct DeferredIndexes {
    private let definitions: [String]

    /// Whether nothing was dropped.
    var isEmpty: Bool { definitions.isEmpty }

    /// Nothing deferred: for a table that holds rows already, whose indexes must stay.
    static let none = DeferredIndexes(definitions: [])

    /// Drops `item`'s whole-table indexes when the table is empty; `db` must be inside a write
    /// transaction that ends with ``restore(_:)`` (or rolls back).
    static func dropIfEmpty(_ db: Database) throws -> DeferredIndexes {
        guard try Bool.fetchOne(db, sql: "SELECT NOT EXISTS (SELECT 1 FROM item)") == true else { return .none }
        // origin 'c': made by CREATE INDEX (not the primary key's own index, which SQLite keeps);
        // a unique index stays, for its check on each row.
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT il.name AS name, m.sql AS sql FROM pragma_index_list('item') AS il
                JOIN sqlite_master AS m ON m.type = 'index' AND m.name = il.name
                WHERE il.origin = 'c' AND il.partial = 0 AND il."unique" = 0 ORDER BY il.name
                """)
        for row in rows {
            let name: String = row["name"]
            try db.execute(sql: "DROP INDEX \(name.quotedDatabaseIdentifier)")
        }
        return DeferredIndexes(definitions: rows.map { $0["sql"] })
    }

    /// Makes the dropped indexes again, before queries that need them and before the commit.
    func restore(_ db: Database) throws {
        guard !definitions.isEmpty else { return }
        // The sort holds each index's keys in memory (the store keeps temporary data there), so
        // the page cache gives way to it: the 100 MB file's import peaked 3 MiB lower with a
        // 1 MiB cache than with 4 MiB, in the same time.
        try EventStore.withCache(db, kibibytes: Self.sortingCacheKiB) {
            for definition in definitions { try db.execute(sql: definition) }
        }
    }

    /// The page cache while the indexes are built.
    static let sortingCacheKiB = 1_024
}
