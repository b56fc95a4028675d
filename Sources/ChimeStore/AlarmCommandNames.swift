import GRDB

/// Which command (a name in the `[commands]` table of the daemon's config) an item's alarms run.
///
/// Kept in a table of its own beside the item, not in the item's value: ``save(_:commit:)``,
/// `.ics` import, CalDAV sync and the D-Bus service write items and never this table, and export
/// never reads it. Only `chime add/edit --alarm-command` calls ``setAlarmCommand(_:forItem:)``, so a
/// command can come from the user alone. Deleting the item deletes its entry.
///
/// ```swift
/// try store.setAlarmCommand("backup", forItem: event.identifier)
/// try store.alarmCommands(forItems: [event.identifier])   // [event.identifier: "backup"]
/// ```
extension EventStore {
    /// Names the command `item`'s alarms run, or removes it (nil).
    /// - Throws: ``StoreError/unknownItem(_:)`` when no item has this identifier.
    public func setAlarmCommand(_ name: String?, forItem item: String) throws(StoreError) {
        let found = try write { db, _ -> Bool in
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM item WHERE id = ?", arguments: [item]) == true else { return false }
            if let name {
                try db.execute(sql: """
                    INSERT INTO alarm_command (item_id, name) VALUES (?, ?)
                    ON CONFLICT (item_id) DO UPDATE SET name = excluded.name
                    """, arguments: [item, name])
            } else {
                try db.execute(sql: "DELETE FROM alarm_command WHERE item_id = ?", arguments: [item])
            }
            return true
        }
        guard found else { throw .unknownItem(item) }
    }

    /// The command names of those of `items` that have one (a detached occurrence: its own, else its series').
    public func alarmCommands(forItems items: Set<String>) throws(StoreError) -> [String: String] {
        guard !items.isEmpty else { return [:] }
        return try read { db in
            // A detached occurrence runs its series' command unless it has one of its own.
            let rows = try Row.fetchAll(db, sql: """
                SELECT i.id, COALESCE(own.name, series.name) FROM item i
                LEFT JOIN alarm_command own ON own.item_id = i.id
                LEFT JOIN alarm_command series ON series.item_id = i.series_id
                WHERE i.id IN (\(items.map { _ in "?" }.joined(separator: ","))) AND COALESCE(own.name, series.name) IS NOT NULL
                """, arguments: StatementArguments(Array(items)))
            return Dictionary(rows.map { ($0[0] as String, $0[1] as String) }, uniquingKeysWith: { a, _ in a })
        }
    }
}
