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
    /// transaction that ends with ``restore(_:rowsCacheKiB:)`` (or rolls back).
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
    /// `rowsCacheKiB` is the page cache the rows were stored with.
    func restore(_ db: Database, rowsCacheKiB: Int) throws {
        guard !definitions.isEmpty else { return }
        try EventStore.withCache(db, kibibytes: try Self.buildCacheKiB(db, rowsCacheKiB: rowsCacheKiB)) {
            for definition in definitions { try db.execute(sql: definition) }
        }
    }

    /// The page cache while the indexes are built. The sort holds each index's keys in memory
    /// (the store keeps temporary data there), so for a large import the cache gives way to it:
    /// the 100 MB file's import peaked 3 MiB lower with a 1 MiB cache than with 4 MiB, in the
    /// same time. A store whose pages, with the indexes' to come, fit in the rows' cache keeps
    /// it: shrinking it wrote every page the transaction held to the log mid-transaction, and
    /// SQLite then read each back and wrote its frame header again at the commit (4,000 extra
    /// calls for the 3.9 MB file).
    static func buildCacheKiB(_ db: Database, rowsCacheKiB: Int) throws -> Int {
        let pages = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? .max
        let pageSize = try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 4_096
        let bytes = pages.multipliedReportingOverflow(by: pageSize)
        // The four indexes take about a quarter of the rows' pages; a half leaves room.
        return !bytes.overflow && bytes.partialValue / 1_024 * 3 <= rowsCacheKiB * 2 ? rowsCacheKiB : sortingCacheKiB
    }

    /// The page cache while a large import's indexes are built.
    static let sortingCacheKiB = 1_024
}
