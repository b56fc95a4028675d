import ChimeCore
import GRDB

/// An item with timed alarms, as the alarm agenda needs it.
public struct AlarmSource: Hashable, Sendable {
    public var item: AnyCalendarItem
    /// For a recurring event: occurrence starts (seconds) that detached occurrences override.
    public var replaced: Set<Int64>
}

extension EventStore {
    /// Every item whose timed alarms can still fire at or after `from`: incomplete reminders (also
    /// those without alarms of their own, which fire at their due time, ``AlarmDefaults``), and
    /// events that have not ended before `from` (or carry an absolute or after-start alarm that
    /// fires later). Detached occurrences come as events of their own, with their series'
    /// identifier.
    ///
    /// ```swift
    /// var agenda = AlarmAgenda(zone: store.floatingZone, from: now)
    /// for source in try store.alarmSources(from: now) { agenda.add(source.item, replaced: source.replaced) }
    /// ```
    public func alarmSources(from: Instant) throws(StoreError) -> [AlarmSource] {
        try alarmSources(from: from, filter: nil, location: false)
    }

    /// The same items as ``alarmSources(from:)``, handed to `body` one at a time as they are read,
    /// so a caller that keeps only part of each (the daemon's agenda) never holds them all.
    ///
    /// ```swift
    /// var agenda = AlarmAgenda(zone: store.floatingZone, from: now)
    /// try store.forEachAlarmSource(from: now) { agenda.add($0.item, replaced: $0.replaced) }
    /// ```
    public func forEachAlarmSource(from: Instant, _ body: (AlarmSource) -> Void) throws(StoreError) {
        try forEachAlarmSource(from: from, filter: nil, location: false, body)
    }

    /// ``forEachAlarmSource(from:_:)`` on a damaged file (SQLite's "malformed" on a page): the
    /// items are found through the ID index and read a few at a time, an unreadable group one
    /// by one, so every item on an intact page still reaches `body`. Returns the identifiers that
    /// could not be read; throws only when not even the list of items can be read.
    ///
    /// ```swift
    /// let skipped = try store.forEachAlarmSourceSalvaging(from: now) { agenda.add($0.item, replaced: $0.replaced) }
    /// ```
    public func forEachAlarmSourceSalvaging(from: Instant, _ body: (AlarmSource) -> Void) throws(StoreError) -> [String] {
        // The ID index is a b-tree of its own: it still lists the items whose rows sit on a bad page.
        // Detached occurrences ("SERIES/SECONDS") come with their series.
        let ids: [String] = try read { db in
            try String.fetchAll(db, sql: "SELECT id FROM item INDEXED BY sqlite_autoindex_item_1")
        }.filter { !$0.contains("/") }
        var skipped: [String] = []
        var start = 0
        while start < ids.count {
            let group = Array(ids[start..<min(start + 100, ids.count)])
            start += group.count
            if let sources = try? alarmSources(from: from, identifiers: Set(group)) {
                sources.forEach(body)
                continue
            }
            for id in group {
                if let sources = try? alarmSources(from: from, identifiers: [id]) { sources.forEach(body) } else { skipped.append(id) }
            }
        }
        return skipped
    }

    /// Whether an error is SQLite's "database disk image is malformed" (a damaged page).
    public static func isDamage(_ error: StoreError) -> Bool {
        if case .database(_, let code?, _) = error { return code & 0xff == 11 }  // SQLITE_CORRUPT
        return false
    }

    /// Items with location (geofence) alarms that can still fire at or after `from`, chosen the
    /// same way; they are armed, not timed.
    public func locationAlarmSources(from: Instant) throws(StoreError) -> [AlarmSource] {
        // The items with a location alarm first: few stores have any, and the whole filter made
        // SQLite walk every event and its alarms to find none (3,200 page reads, three times
        // over, on a 10,000-event store at each daemon start).
        let identifiers = try read { db in
            try Set(String.fetchAll(db, sql: "SELECT DISTINCT item_id FROM alarm WHERE proximity IS NOT NULL"))
        }
        // (Past SQLite's bound-parameter limit, the whole filter after all.)
        if identifiers.count > 10_000 { return try alarmSources(from: from, filter: nil, location: true) }
        return try locationAlarmSources(from: from, identifiers: identifiers)
    }

    /// The same for the items with these identifiers only (a series brings its detached occurrences).
    public func alarmSources(from: Instant, identifiers: Set<String>) throws(StoreError) -> [AlarmSource] {
        if identifiers.isEmpty { return [] }
        return try alarmSources(from: from, filter: identifiers, location: false)
    }

    /// Location-alarm items with these identifiers only.
    public func locationAlarmSources(from: Instant, identifiers: Set<String>) throws(StoreError) -> [AlarmSource] {
        if identifiers.isEmpty { return [] }
        return try alarmSources(from: from, filter: identifiers, location: true)
    }

    private func alarmSources(from: Instant, filter: Set<String>?, location: Bool) throws(StoreError) -> [AlarmSource] {
        var sources: [AlarmSource] = []
        try forEachAlarmSource(from: from, filter: filter, location: location) { sources.append($0) }
        return sources
    }

    /// The SQL filter of the items whose timed (or, with `location`, location) alarms can still
    /// fire at or after `:from` (`:lo` is `:from` less the floating margin), of the identifiers
    /// `:id0`… (their series' detached rows too) when `identifierCount` is given. The unary `+` on
    /// `kind` and the correlated alarm lookups leave SQLite the identifiers' indexes: with
    /// `kind = …` and `id IN (SELECT item_id FROM alarm …)` it read every event and the whole
    /// alarm table for each change the daemon heard of (170 ms per statement, three statements,
    /// on a 100,000-event store).
    static func alarmSourceFilter(location: Bool, identifierCount: Int?) -> String {
        var clauses = [
            """
            (EXISTS (SELECT 1 FROM alarm l WHERE l.item_id = item.id AND l.proximity IS \(location ? "NOT NULL" : "NULL"))\(location ? "" : " OR +kind = 'reminder'"))
            AND ((+kind = 'reminder' AND completed = 0)
                 OR (+kind = 'event' AND (range_end IS NULL OR range_end >= :lo
                     OR EXISTS (SELECT 1 FROM alarm a WHERE a.item_id = item.id
                                AND (a.absolute_date >= :from OR a.relative_offset > 0)))))
            """
        ]
        if let identifierCount {
            let list = (0..<identifierCount).map { ":id\($0)" }.joined(separator: ",")
            clauses.append("(id IN (\(list)) OR series_id IN (\(list)))")
        }
        return clauses.joined(separator: " AND ")
    }

    private func forEachAlarmSource(
        from: Instant, filter: Set<String>?, location: Bool,
        _ body: (AlarmSource) -> Void
    ) throws(StoreError) {
        let unreadable = self.unreadable
        try read { db in
            var arguments: [String: (any DatabaseValueConvertible)?] = [
                "lo": from.secondsSince1970 - ItemRows.floatingMargin, "from": from.secondsSince1970
            ]
            let ids = filter.map(Array.init)
            for (index, id) in (ids ?? []).enumerated() { arguments["id\(index)"] = id }
            let whereClause = Self.alarmSourceFilter(location: location, identifierCount: ids?.count)
            let statementArguments = StatementArguments(arguments)
            let alarms: [String: [Alarm]], replaced: [String: Set<Int64>]
            let everything = filter == nil && !location
            defer { if everything { try? db.execute(sql: "PRAGMA mmap_size = 0") } }
            if everything {
                // The start reads the pages of every current item, more than SQLite's 2 MB cache holds: read
                // through a memory map for this read only (a long-lived store has none), unmapped
                // after it, so neither copies of pages nor the map stay behind.
                try db.execute(sql: "PRAGMA mmap_size = 268435456")
                // The candidates come from indexes (``stillFiringCandidates``): the events that
                // have not ended, open-ended series, reminders not done, and the past events whose
                // alarms fire late; the rest of the filter is decided here from their alarms
                // (``keepsEveryItemRow``). SQLite evaluating the filter's two subqueries on every
                // row cost five times a scan, and a scan grew with the years of history.
                alarms = try AlarmRows.fetch(
                    db, itemFilter: Self.stillFiringCandidates(columns: "id"), arguments: statementArguments)
                replaced = try ItemRows.detachedOverrides(db, seriesFilter: nil, arguments: [])
            } else {
                alarms = try AlarmRows.fetch(
                    db, itemFilter: "SELECT id FROM item WHERE \(whereClause)",
                    arguments: statementArguments)
                replaced = try ItemRows.detachedOverrides(db, seriesFilter: whereClause, arguments: statementArguments)
            }

            var cache = ItemRows.DecodingCache()
            let rows =
                everything
                ? try Row.fetchCursor(
                    db, sql: Self.stillFiringCandidates(columns: "\(ItemColumns.list), range_end"), arguments: statementArguments)
                : try Row.fetchCursor(db, sql: "SELECT \(ItemColumns.list) FROM item WHERE \(whereClause)", arguments: statementArguments)
            let lo = from.secondsSince1970 - ItemRows.floatingMargin
            while let row = try rows.next() {
                let id: String = row[ItemColumns.id]
                let itemAlarms = alarms[id] ?? []
                if everything, !Self.keepsEveryItemRow(row, alarms: itemAlarms, lo: lo, from: from.secondsSince1970) { continue }
                guard
                    let item = unreadable.decode(
                        row,
                        { row throws(StoreError) in
                            try ItemRows.item(row, alarms: itemAlarms, cache: &cache)
                        })
                else { continue }
                let detachedOverrides: Set<Int64>
                if case .event(let e) = item, e.isRecurring { detachedOverrides = replaced[id] ?? [] } else { detachedOverrides = [] }
                body(AlarmSource(item: item, replaced: detachedOverrides))
            }
        }
    }

    /// The items whose timed alarms may still fire at or after `:from` (`:lo` less the floating
    /// margin), each read through an index so that past events cost nothing: reminders not
    /// completed, events that end at or after `:lo` or never, and past events with an absolute
    /// alarm from `:from` on or an after-start alarm. A superset of ``alarmSourceFilter(location:identifierCount:)``'s
    /// timed items; ``keepsEveryItemRow(_:alarms:lo:from:)`` decides the rest. The unary `+` keeps
    /// SQLite from walking every past event's index entry to find the few with such alarms: it
    /// starts from those alarms (230 ms against 1 ms on a store with 100,000 past events).
    static func stillFiringCandidates(columns: String) -> String {
        """
        SELECT \(columns) FROM item WHERE kind = 'reminder' AND completed = 0
        UNION ALL SELECT \(columns) FROM item INDEXED BY item_event_end WHERE kind = 'event' AND range_end >= :lo
        UNION ALL SELECT \(columns) FROM item INDEXED BY item_event_end WHERE kind = 'event' AND range_end IS NULL
        UNION ALL SELECT \(columns) FROM item WHERE +kind = 'event' AND +range_end < :lo
            AND id IN (SELECT item_id FROM alarm WHERE absolute_date >= :from
                       UNION SELECT item_id FROM alarm WHERE relative_offset > 0)
        """
    }

    /// The timed-source filter of ``forEachAlarmSource(from:filter:location:_:)``'s SQL, decided for
    /// a row of the whole-store read (reminders not completed, and events read with their
    /// `range_end` after the item columns): a reminder that is not completed; an event with a
    /// timed alarm that has not ended before `lo`, or whose alarms fire after it did (absolute ones
    /// from `from` on, after-start ones).
    private static func keepsEveryItemRow(_ row: Row, alarms: [Alarm], lo: Int64, from: Int64) -> Bool {
        if (row[ItemColumns.kind] as String) == "reminder" { return true }
        guard alarms.contains(where: { $0.structuredLocation == nil }) else { return false }
        guard let end: Int64 = row[ItemColumns.count], end < lo else { return true }
        return alarms.contains { alarm in
            switch alarm.trigger {
            case .absolute(let instant): instant.secondsSince1970 >= from
            case .relative(let offset, _): offset > 0
            case .location: false
            }
        }
    }
}
