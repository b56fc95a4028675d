import GRDB

/// Which command (a name in the `[commands]` table of the daemon's config) an item's alarms run.
///
/// Kept in a table of its own beside the item, not in the item's value: ``save(_:commit:)``,
/// `.ics` import, CalDAV sync and the D-Bus service write items and never this table, and export
/// never reads it. Only `chime add/edit --alarm-command` calls ``setAlarmCommand(_:forItem:)``, so a
/// command can come from the user alone. Deleting the item deletes its entry.
///
/// The link also keeps the item's *timing* when the user made it (start, end, due, rules, dates,
/// time alarms, moved occurrences). An import, a server or a D-Bus app may still re-time the item
/// (a file carrying its UID with `RRULE:FREQ=MINUTELY`): then ``alarmCommandLinks(forItems:)``
/// reports the link as re-timed and the daemon does not run the command until the user's own
/// command line confirms it (`chime edit`, which calls ``confirmAlarmCommandTiming(forItem:)``).
/// Completing a repeating reminder moves it along its own rule and keeps the link.
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
                try db.execute(
                    sql: """
                        INSERT INTO alarm_command (item_id, name, timing) VALUES (?, ?, ?)
                        ON CONFLICT (item_id) DO UPDATE SET name = excluded.name, timing = excluded.timing
                        """, arguments: [item, name, try Self.timingSignature(db, item: item)])
            } else {
                try db.execute(sql: "DELETE FROM alarm_command WHERE item_id = ?", arguments: [item])
            }
            return true
        }
        guard found else { throw .unknownItem(item) }
    }

    /// The command names of those of `items` that have one (a detached occurrence: its own, else its
    /// series'), re-timed or not (``alarmCommandLinks(forItems:)`` tells).
    public func alarmCommands(forItems items: Set<String>) throws(StoreError) -> [String: String] {
        try alarmCommandLinks(forItems: items).mapValues(\.name)
    }

    /// The command links of those of `items` that have one (a detached occurrence: its own, else its
    /// series'), each with whether its item was re-timed since the user's command line last linked
    /// or confirmed it (then the daemon does not run it).
    public func alarmCommandLinks(forItems items: Set<String>) throws(StoreError) -> [String: AlarmCommandLink] {
        guard !items.isEmpty else { return [:] }
        return try read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT i.id, COALESCE(own.item_id, series.item_id), COALESCE(own.name, series.name),
                           CASE WHEN own.item_id IS NOT NULL THEN own.timing ELSE series.timing END
                    FROM item i
                    LEFT JOIN alarm_command own ON own.item_id = i.id
                    LEFT JOIN alarm_command series ON series.item_id = i.series_id
                    WHERE i.id IN (\(items.map { _ in "?" }.joined(separator: ","))) AND COALESCE(own.name, series.name) IS NOT NULL
                    """, arguments: StatementArguments(Array(items)))
            var links: [String: AlarmCommandLink] = [:]
            for row in rows {
                let holder: String = row[1], kept: String? = row[3]
                let now = try Self.timingSignature(db, item: holder)
                links[row[0]] = AlarmCommandLink(name: row[2], linkedItem: holder, isRetimed: kept != now)
            }
            return links
        }
    }

    /// Takes the item's present timing as the one its command link was made for: the user's own
    /// command line changed it (`chime edit`). Nothing happens when the item (or its series) has no link.
    public func confirmAlarmCommandTiming(forItem item: String) throws(StoreError) {
        try write { db, _ in try Self.confirmAlarmCommandTiming(db, item: item) }
    }

    /// ``confirmAlarmCommandTiming(forItem:)`` inside a transaction.
    static func confirmAlarmCommandTiming(_ db: Database, item: String) throws {
        try confirmAlarmCommandTiming(db, holders: linkHolders(db, item: item))
    }

    /// The links of `item` (its own, its series') whose kept timing is the item's present one: read
    /// before a change that moves an item along its own rule (a completion, the user's removal of an
    /// occurrence), so that only those are confirmed after it. A link a file, server or app had
    /// already re-timed stays re-timed: completing the item does not approve that.
    static func currentLinks(_ db: Database, item: String) throws -> [String] {
        try linkHolders(db, item: item).filter { holder in
            try String.fetchOne(db, sql: "SELECT timing FROM alarm_command WHERE item_id = ?", arguments: [holder])
                == timingSignature(db, item: holder)
        }
    }

    /// Confirms the timing of `holders` (from ``currentLinks(_:item:)``) after the change.
    static func confirmAlarmCommandTiming(_ db: Database, holders: [String]) throws {
        for holder in holders {
            try db.execute(
                sql: "UPDATE alarm_command SET timing = ? WHERE item_id = ?",
                arguments: [try timingSignature(db, item: holder), holder])
        }
    }

    /// ``confirmAlarmCommandTiming(forItem:)`` for a change that moves the item along its own rule:
    /// only links that were current before `change` are confirmed after it.
    public func keepingAlarmCommandTiming<T>(forItem item: String, _ change: () throws -> T) throws -> T {
        let current = try read { db in try Self.currentLinks(db, item: item) }
        let result = try change()
        if !current.isEmpty { try write { db, _ in try Self.confirmAlarmCommandTiming(db, holders: current) } }
        return result
    }

    private static func linkHolders(_ db: Database, item: String) throws -> [String] {
        try String.fetchAll(
            db,
            sql: """
                SELECT item_id FROM alarm_command
                WHERE item_id = ? OR item_id = (SELECT series_id FROM item WHERE id = ?)
                """, arguments: [item, item])
    }

    /// What decides when `item`'s alarms fire, as one short text: its dates, rules, excluded and
    /// added dates, time alarms and the starts of its moved occurrences, hashed (FNV-1a, stable
    /// across processes, unlike `Hasher`).
    static func timingSignature(_ db: Database, item: String) throws -> String {
        var parts: [String] = []
        if let row = try Row.fetchOne(db, sql: #"SELECT start, "end", due, rrules, rdates, exdates FROM item WHERE id = ?"#, arguments: [item]) {
            for column in 0..<6 { parts.append((row[column] as String?) ?? "") }
        }
        // Every alarm, time or place (a location alarm runs the command too), of the item and of
        // its moved occurrences.
        let alarmText = """
            position || ':' || COALESCE(absolute_date, '') || ',' || COALESCE(relative_offset, '') || ',' || related_to_end
                || ',' || COALESCE(proximity, '') || ',' || COALESCE(latitude, '') || ',' || COALESCE(longitude, '')
                || ',' || COALESCE(radius, '')
            """
        parts += try String.fetchAll(db, sql: "SELECT \(alarmText) FROM alarm WHERE item_id = ? ORDER BY position", arguments: [item])
        for (occurrence, recurrenceID) in try Row.fetchAll(
            db,
            sql: """
                SELECT id, recurrence_id || '=' || COALESCE(start, '') || ',' || COALESCE(due, '')
                FROM item WHERE series_id = ? ORDER BY recurrence_id
                """, arguments: [item]
        ).map({ ($0[0] as String, $0[1] as String) }) {
            parts.append(recurrenceID)
            parts += try String.fetchAll(
                db, sql: "SELECT \(alarmText) FROM alarm WHERE item_id = ? ORDER BY position",
                arguments: [occurrence])
        }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in parts.joined(separator: "\u{1F}").utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return String(hash, radix: 16)
    }
}

/// An item's link to a command of the daemon's config (see ``EventStore/alarmCommandLinks(forItems:)``).
public struct AlarmCommandLink: Hashable, Sendable {
    /// The `[commands]` entry.
    public var name: String
    /// The item the link belongs to (the series, for a moved occurrence that has none of its own).
    public var linkedItem: String
    /// True when something other than the user's command line (an import, a sync, a D-Bus app)
    /// changed when the item's alarms fire since the link was made: the command is not run.
    public var isRetimed: Bool
}
