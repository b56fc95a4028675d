import ChimeCore
import GRDB

/// Alarms are rows of their own table, ordered by position within their item.
enum AlarmRows {
    static func replace(_ alarms: [Alarm], of item: String, in db: Database) throws {
        // Cached statements: an import writes thousands of these in one transaction.
        try db.cachedStatement(sql: "DELETE FROM alarm WHERE item_id = ?").execute(arguments: [item])
        try insert(alarms, of: item, in: db)
    }

    /// The statement ``insert(_:of:statement:in:)`` runs.
    static func insertStatement(_ db: Database) throws -> Statement {
        try db.cachedStatement(
            sql: """
                INSERT INTO alarm (item_id, position, absolute_date, relative_offset, related_to_end,
                                   location_title, latitude, longitude, radius, proximity, ics_extras)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
    }

    /// The alarms of an item that has none stored; `statement`: ``insertStatement(_:)``'s, when
    /// the caller has it.
    static func insert(_ alarms: [Alarm], of item: String, statement: Statement? = nil, in db: Database) throws {
        guard !alarms.isEmpty else { return }
        // Found in the cache once per item, not per alarm (the cache hashes the statement's text).
        let statement = try statement ?? insertStatement(db)
        for (position, alarm) in alarms.enumerated() {
            var absolute: Int64?, offset: Int64?, relatedToEnd = false
            var place: StructuredLocation?, proximity: String?
            switch alarm.trigger {
            case .absolute(let i): absolute = i.secondsSince1970
            case .relative(let o, let relation): offset = o; relatedToEnd = relation == .end
            case .location(let p, let prox): place = p; proximity = prox.rawValue
            }
            try statement.run { row in
                row.bind(item)
                row.bind(position)
                row.bind(absolute)
                row.bind(offset)
                row.bind(relatedToEnd)
                row.bind(place?.title)
                row.bind(place?.latitude)
                row.bind(place?.longitude)
                row.bind(place?.radius)
                row.bind(proximity)
                row.bind(ListCodec.lines(alarm.icsExtras))
            }
        }
    }

    /// Alarms of the items the `itemFilter` SQL selects (`SELECT id FROM item WHERE …`), or of
    /// every item (nil), by item.
    static func fetch(_ db: Database, itemFilter: String?, arguments: StatementArguments = []) throws -> [String: [Alarm]] {
        // Cached: the same few filters come back on every query of a long-lived store.
        let statement = try db.cachedStatement(
            sql: "SELECT \(columns) FROM alarm \(itemFilter.map { "WHERE item_id IN (\($0)) " } ?? "")ORDER BY item_id, position")
        return try decode(statement, arguments: arguments, keeping: nil)
    }

    /// Alarms of `items`, identifiers the caller has just read in the same transaction, by item.
    ///
    /// One index seek per item costs more than reading the whole table in key order once the
    /// items are a quarter of the store's rows or more, so then the table is read whole and
    /// filtered here. A year's window on a 10,000-event store (5,700 items): 14 ms through the
    /// index, of a 65 ms first query; 8 ms for the pass over all 15,000 alarm rows.
    static func fetch(_ db: Database, items: Set<String>) throws -> [String: [Alarm]] {
        if items.isEmpty { return [:] }
        if try wholeTableRows(forItems: items.count, db) != nil {
            let statement = try db.cachedStatement(sql: "SELECT \(columns) FROM alarm ORDER BY item_id, position")
            return try decode(statement, keeping: items)
        }
        let statement = try db.cachedStatement(
            sql: "SELECT \(columns) FROM alarm WHERE item_id IN (SELECT value FROM json_each(?)) ORDER BY item_id, position")
        return try decode(statement, arguments: [JSONText.stringArray(Array(items))], keeping: nil)
    }

    /// Alarms of the events a window query's `candidates` filter (on `item`) selects, or more, by
    /// item: what a query reads on a second connection while its own reads the candidates, so
    /// their identifiers are not known yet. When the events that overlap the window's bounds
    /// (`from` ..< `to`, counted on the two range indexes; the filter's calendars and days are
    /// not counted, so this may be more) are a quarter of the store or more, the whole table is
    /// read (every item's alarms: the caller takes its candidates'), as ``fetch(_:items:)`` does:
    /// looking each candidate up by its identifier took 95 million instructions for a year of a
    /// 10,000-event store, the whole table 68 million.
    static func fetch(
        _ db: Database, candidates: String, arguments: StatementArguments, from: Int64, to: Int64
    ) throws -> [String: [Alarm]] {
        // Not ended before the window, less those starting after it (which end after it too).
        let overlapping =
            try Int.fetchOne(
                db.cachedStatement(
                    sql: "SELECT (SELECT count(*) FROM item WHERE kind = 'event' AND range_end >= ?1)"
                        + " + (SELECT count(*) FROM item WHERE kind = 'event' AND range_end IS NULL)"
                        + " - (SELECT count(*) FROM item WHERE kind = 'event' AND range_start >= ?2)"),
                arguments: [from, to]) ?? 0
        if let storeRows = try wholeTableRows(forItems: overlapping, db) {
            return try decode(
                db.cachedStatement(sql: "SELECT \(columns) FROM alarm ORDER BY item_id, position"), keeping: nil,
                expectedItems: storeRows)
        }
        return try fetch(db, itemFilter: "SELECT id FROM item WHERE \(candidates)", arguments: arguments)
    }

    /// The store's item rows (at most) when the alarms of `count` items are read fastest by
    /// reading the whole table, nil when not: one index seek per item costs more once they are a
    /// quarter of the store's rows.
    private static func wholeTableRows(forItems count: Int, _ db: Database) throws -> Int? {
        let storeRows = try Int.fetchOne(db.cachedStatement(sql: "SELECT max(rowid) FROM item")) ?? 0
        return count * 4 >= storeRows ? storeRows : nil
    }

    private static let columns = """
        item_id, absolute_date, relative_offset, related_to_end, location_title, latitude, longitude, radius, proximity, \
        ics_extras
        """

    /// The rows `statement` selects (``columns``, in item order) as alarms by item; with
    /// `keeping`, only those items'. Read straight from SQLite (see ``StatementColumns``): a
    /// year's first query reads about 15,000 of them.
    /// `expectedItems`: about how many items the rows are of (room is made for them at once).
    private static func decode(
        _ statement: Statement, arguments: StatementArguments = [], keeping: Set<String>?, expectedItems: Int = 0
    ) throws -> [String: [Alarm]] {
        var result: [String: [Alarm]] = [:]
        result.reserveCapacity(keeping?.count ?? expectedItems)
        let rows = try Row.fetchCursor(statement, arguments: arguments)
        let row = StatementColumns(statement)
        // Rows come by item: each item's alarms are gathered, then stored with one hash of its
        // identifier. Its identifier is compared in place; a String is made once per item.
        var item = "", itemBytes: [UInt8] = [], alarms: [Alarm] = [], kept = true
        while try rows.next() != nil {
            if !row.text(0, is: itemBytes) {
                if !alarms.isEmpty { result[item] = alarms }
                guard let next = row.text(0) else { throw StoreError.corruptRow(table: "alarm", identifier: "", detail: "no item") }
                item = next
                itemBytes = Array(next.utf8)
                alarms = []
                kept = keeping?.contains(next) ?? true
            }
            if !kept { continue }
            var alarm: Alarm
            if let absolute = row.int64(1) {
                alarm = .absolute(Instant(secondsSince1970: absolute))
            } else if let offset = row.int64(2) {
                alarm = .relative(offset, relatedTo: (row.int64(3) ?? 0) != 0 ? .end : .start)
            } else if let proximityText = row.text(8), let proximity = Proximity(rawValue: proximityText),
                let latitude = row.double(5), let longitude = row.double(6)
            {
                alarm = .location(
                    StructuredLocation(title: row.text(4) ?? "", latitude: latitude, longitude: longitude, radius: row.double(7) ?? 0),
                    proximity)
            } else {
                throw StoreError.corruptRow(table: "alarm", identifier: item, detail: "no trigger")
            }
            // Most alarms keep no iCalendar lines of their own: no String is made for none.
            if let extras = row.withBytes(9, { $0.map { $0.isEmpty ? "" : String(decoding: $0, as: UTF8.self) } }), !extras.isEmpty {
                alarm.icsExtras = ListCodec.lines(extras)
            }
            alarms.append(alarm)
        }
        if !alarms.isEmpty { result[item] = alarms }
        return result
    }
}
