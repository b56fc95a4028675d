import ChimeCore
import GRDB
import Synchronization

/// A stored row that cannot be read back (written by a damaged file, a hand edit, or an older
/// Chime that let through a value it cannot represent). Queries over many items skip it, so one
/// bad item never stops the others; ``EventStore/removeUnreadableItem(identifier:)`` deletes it.
public struct UnreadableItem: Hashable, Sendable, CustomStringConvertible {
    public var identifier: String
    public var reason: String

    public var description: String { "item \(identifier) cannot be read (\(reason)); it was skipped" }
}

/// The unreadable rows a store's queries skipped, each reported once per process.
final class UnreadableRows: Sendable {
    private let state = Mutex<(skipped: [String: UnreadableItem], reported: Set<String>)>(([:], []))

    /// Decodes `row`, or records it and returns nil when it cannot be read.
    func decode<T, Columns: ColumnValues>(_ row: Columns, _ decode: (Columns) throws(StoreError) -> T) -> T? {
        do {
            return try decode(row)
        } catch {
            let id = row.text(ItemColumns.id) ?? ""
            let reason: String = if case .corruptRow(_, _, let detail) = error { detail } else { error.description }
            state.withLock { $0.skipped[id] = UnreadableItem(identifier: id, reason: reason) }
            return nil
        }
    }

    /// Skipped rows not reported before, in identifier order.
    func takeNew() -> [UnreadableItem] {
        state.withLock { s in
            let new = s.skipped.values.filter { !s.reported.contains($0.identifier) }.sorted { $0.identifier < $1.identifier }
            s.reported.formUnion(new.map(\.identifier))
            return new
        }
    }
}

extension EventStore {
    /// Rows the queries of this store object skipped because they cannot be read, each returned
    /// once: print or log them after a query.
    ///
    /// ```swift
    /// let events = try store.events(matching: predicate)
    /// for item in store.takeUnreadableItems() { print("warning: \(item)") }
    /// ```
    public func takeUnreadableItems() -> [UnreadableItem] { unreadable.takeNew() }

    /// Deletes an item row by identifier without reading it (with its alarms and detached
    /// occurrences): the way out for a row ``takeUnreadableItems()`` reported. False when no
    /// such row exists.
    ///
    /// ```swift
    /// for item in store.takeUnreadableItems() { try store.removeUnreadableItem(identifier: item.identifier) }
    /// ```
    @discardableResult
    public func removeUnreadableItem(identifier: String) throws(StoreError) -> Bool {
        try write { db, _ in
            guard let kind = try String.fetchOne(db, sql: "SELECT kind FROM item WHERE id = ?", arguments: [identifier]) else {
                return false
            }
            try db.execute(sql: "DELETE FROM item WHERE id = ?", arguments: [identifier])
            try Journal.record(db, kind == "event" ? .event : .reminder, identifier, .deleted)
            return true
        }
    }
}
