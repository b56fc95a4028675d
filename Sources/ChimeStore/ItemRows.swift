import ChimeCore
import GRDB

/// Reading and writing `item` rows.
enum ItemRows {
    /// Floating times are stored read as UTC; the true instant is at most this far either side.
    static let floatingMargin: Int64 = 14 * 3600

    /// The detached occurrences of the series an `item` WHERE clause selects, or of every series
    /// (nil): series identifier → the instants they replace (only those before `before`, when
    /// given). With a filter, one query for the candidates alone, never a scan of every detached
    /// row in the store.
    static func detachedOverrides(
        _ db: Database, seriesFilter: String?, arguments: StatementArguments,
        before: Int64? = nil
    ) throws -> [String: Set<Int64>] {
        let sql =
            "SELECT series_id, recurrence_id FROM item WHERE series_id IS NOT NULL"
            + (before == nil ? "" : " AND recurrence_id < ?")
            + (seriesFilter.map { " AND series_id IN (SELECT id FROM item WHERE \($0))" } ?? "")
        var detached: [String: Set<Int64>] = [:]
        let pairs = try Row.fetchCursor(db.cachedStatement(sql: sql), arguments: before.map { [$0] + arguments } ?? arguments)
        while let row = try pairs.next() { detached[row[0], default: []].insert(row[1]) }
        return detached
    }
    /// Up to this many detached rows are read all at once by ``detachedOverridesIfFew(_:before:)``.
    static let fewDetachedRows = 1_000

    /// Every detached occurrence in the store that replaces an instant before `before`, when
    /// there are at most ``fewDetachedRows`` of them (nil when there are more). A store usually
    /// holds a few: reading them through their partial index costs far less than matching each of
    /// a window's thousands of candidate series against it, and costs the same whatever the
    /// store's size. The result may name series that are not candidates; callers look up theirs.
    static func detachedOverridesIfFew(_ db: Database, before: Int64) throws -> [String: Set<Int64>]? {
        let sql =
            "SELECT series_id, recurrence_id FROM item INDEXED BY item_series"
            + " WHERE series_id IS NOT NULL AND recurrence_id < ? LIMIT ?"
        var detached: [String: Set<Int64>] = [:]
        var read = 0
        let pairs = try Row.fetchCursor(db.cachedStatement(sql: sql), arguments: [before, fewDetachedRows + 1])
        while let row = try pairs.next() {
            read += 1
            if read > fewDetachedRows { return nil }
            detached[row[0], default: []].insert(row[1])
        }
        return detached
    }

    /// A COUNT-bounded series longer than this is indexed as open-ended (its last end is not computed).
    static let boundedExpansionLimit = 20_000

    // MARK: Decoding

    /// What decoding many rows shares: parsed RRULE texts, by text (a rule that failed to parse
    /// is not kept: its row throws each time), and zones, by name.
    struct DecodingCache {
        var rules: [String: [RecurrenceRule]] = [:]
        var zones = ZoneNames()
        /// Single rules read without their COUNT or UNTIL, by their text without it: most of a
        /// store's distinct rule texts differ only there (`FREQ=DAILY;COUNT=56;INTERVAL=3`).
        private var endless: [String: RecurrenceRule] = [:]

        /// The rules of a row's `rrules` text; what ``ListCodec/rules(_:item:)`` reads.
        mutating func rules(_ text: String, item: String) throws(StoreError) -> [RecurrenceRule] {
            if let known = rules[text] { return known }
            let parsed: [RecurrenceRule]
            if let rule = singleRuleWithEnd(text) { parsed = [rule] } else { parsed = try ListCodec.rules(text, item: item) }
            rules[text] = parsed
            return parsed
        }

        /// A one-rule text with exactly one `COUNT=` or `UNTIL=` part, as the store writes them: the
        /// rest parsed once per distinct rest, the end added. Nil for anything else (and for any
        /// text the full parse might read differently), which the full parse then decides.
        private mutating func singleRuleWithEnd(_ text: String) -> RecurrenceRule? {
            guard let (key, end) = Self.splitEnd(text) else { return nil }
            let open: RecurrenceRule
            if let known = endless[key] {
                open = known
            } else {
                guard let parsed = try? RecurrenceRule(parsing: key), parsed.end == .never else { return nil }
                endless[key] = parsed
                open = parsed
            }
            return try? open.with(end: end)
        }

        /// The text without its one `COUNT=`/`UNTIL=` part (and a `;` beside it), and that end;
        /// nil for several rules, several such parts, or a value the parser would not read so.
        private static func splitEnd(_ text: String) -> (key: String, end: RecurrenceEnd)? {
            var text = text
            return text.withUTF8 { b -> (String, RecurrenceEnd)? in
                guard !b.contains(UInt8(ascii: "\n")) else { return nil }
                var found: Range<Int>?
                var partStart = 0
                for i in 0...b.count where i == b.count || b[i] == UInt8(ascii: ";") {
                    if i - partStart > 6, isEndName(b, at: partStart) {
                        guard found == nil else { return nil }
                        found = partStart..<i
                    }
                    partStart = i + 1
                }
                guard let part = found, let end = endValue(b, part) else { return nil }
                // Drop the part with the `;` before it, or after it when it comes first.
                let cut = part.lowerBound > 0 ? (part.lowerBound - 1)..<part.upperBound : part.lowerBound..<min(b.count, part.upperBound + 1)
                let key =
                    String(decoding: UnsafeBufferPointer(rebasing: b[..<cut.lowerBound]), as: UTF8.self)
                    + String(decoding: UnsafeBufferPointer(rebasing: b[cut.upperBound...]), as: UTF8.self)
                return (key, end)
            }
        }

        private static let endNames = [Array("COUNT=".utf8), Array("UNTIL=".utf8)]

        private static func isEndName(_ b: UnsafeBufferPointer<UInt8>, at i: Int) -> Bool {
            endNames.contains { b[i..<(i + 6)].elementsEqual($0) }
        }

        /// `COUNT=n` (plain digits) or `UNTIL=` a basic date or date-time, read as the parser does.
        private static func endValue(_ b: UnsafeBufferPointer<UInt8>, _ part: Range<Int>) -> RecurrenceEnd? {
            let value = UnsafeBufferPointer(rebasing: b[(part.lowerBound + 6)..<part.upperBound])
            if b[part.lowerBound] == UInt8(ascii: "C") {
                guard (1...10).contains(value.count), value.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
                return .count(value.reduce(0) { $0 * 10 + Int($1 - 48) })
            }
            switch BasicDateTime.parse(bytes: value) {
            case .date(let d)?: return .until(.date(d))
            case .local(let l)?: return .until(.local(l))
            case .utc(let l)?: return .until(.utc(Instant(utc: l)))
            case nil: return nil
            }
        }
    }

    static func event(_ row: Row, alarms: [Alarm]) throws(StoreError) -> Event {
        var cache = DecodingCache()
        return try event(row, alarms: alarms, cache: &cache)
    }

    /// The same, parsing each distinct RRULE text once per `cache`: a query's candidates share a
    /// few hundred rule texts (`FREQ=DAILY`, `FREQ=WEEKLY;BYDAY=MO`…), and parsing was a sixth of
    /// a one-day agenda.
    ///
    /// Without `details` (a row read with ``ItemColumns/listing``) the columns a listing never
    /// shows are left at a new event's defaults. `id` is the row's identifier when the caller
    /// has read it already.
    static func event<Columns: ColumnValues>(
        _ row: Columns, id: String? = nil, alarms: [Alarm], cache: inout DecodingCache, details: Bool = true
    ) throws(StoreError) -> Event {
        let id = if let id { id } else { try requiredText(row, ItemColumns.id, column: "id", item: "") }
        guard let start = try ListCodec.calendarDate(row, ItemColumns.start, column: "start", item: id, zones: &cache.zones),
            let end = try ListCodec.calendarDate(row, ItemColumns.end, column: "end", item: id, zones: &cache.zones)
        else { throw .corruptRow(table: "item", identifier: id, detail: "event without start or end") }
        let ruleText = try requiredText(row, ItemColumns.rrules, column: "rrules", item: id)
        var icsExtras: [String] = []
        if details {
            icsExtras = ListCodec.lines(try requiredText(row, ItemColumns.icsExtras, column: "ics_extras", item: id))
        } else if let extras = row.text(ItemColumns.icsExtras) {
            icsExtras = ICalendarText.topLevel(ListCodec.lines(extras)).filter(ListCodec.isInvitationLine)
        }
        var detachedFrom: (series: String, instant: Instant)?
        if let series = row.text(ItemColumns.seriesID), let rid = row.int64(ItemColumns.recurrenceID) {
            detachedFrom = (series, Instant(secondsSince1970: rid))
        }
        let fields = Event.StoredFields(
            // A detached occurrence answers to its series' identifier, as in EventKit.
            identifier: detachedFrom?.series ?? id,
            calendarIdentifier: row.text(ItemColumns.calendar),
            externalIdentifier: try requiredText(row, ItemColumns.externalID, column: "external_id", item: id),
            title: try requiredText(row, ItemColumns.title, column: "title", item: id),
            notes: details ? row.text(ItemColumns.notes) : nil,
            url: details ? row.text(ItemColumns.url) : nil,
            location: row.text(ItemColumns.location),
            alarms: alarms,
            recurrenceRules: ruleText.isEmpty ? [] : try cache.rules(ruleText, item: id),
            recurrenceDates: try ListCodec.dates(row, ItemColumns.rdates, item: id),
            exceptionDates: try ListCodec.dates(row, ItemColumns.exdates, item: id),
            creationDate: details ? row.int64(ItemColumns.created).map(Instant.init(secondsSince1970:)) : nil,
            lastModifiedDate: details ? row.int64(ItemColumns.modified).map(Instant.init(secondsSince1970:)) : nil,
            sequence: details ? Int(row.int64(ItemColumns.sequence) ?? 0) : 0,
            icsExtras: icsExtras)
        return Event(stored: fields, start: start, end: end, occurrenceDate: detachedFrom?.instant, isDetached: detachedFrom != nil)
    }

    /// A text column the schema declares NOT NULL: a NULL there is a damaged row, reported as one.
    private static func requiredText<Columns: ColumnValues>(
        _ row: Columns, _ index: Int, column: String, item: String
    ) throws(StoreError) -> String {
        guard let text = row.text(index) else { throw .corruptRow(table: "item", identifier: item, detail: "\(column) is NULL") }
        return text
    }

    static func reminder(_ row: Row, alarms: [Alarm]) throws(StoreError) -> Reminder {
        let id: String = row[ItemColumns.id]
        var reminder = Reminder(identifier: id, title: row[ItemColumns.title], calendar: row[ItemColumns.calendar])
        reminder.externalIdentifier = row[ItemColumns.externalID]
        reminder.notes = row[ItemColumns.notes]
        reminder.url = row[ItemColumns.url]
        reminder.location = row[ItemColumns.location]
        reminder.recurrenceRules = try ListCodec.rules(row[ItemColumns.rrules], item: id)
        var zones = ZoneNames()
        reminder.startDate = try ListCodec.calendarDate(row, ItemColumns.start, column: "start", item: id, zones: &zones)
        reminder.dueDate = try ListCodec.calendarDate(row, ItemColumns.due, column: "due", item: id, zones: &zones)
        reminder.priority = row[ItemColumns.priority]
        reminder.isCompleted = row[ItemColumns.completed]
        reminder.completionDate = (row[ItemColumns.completionDate] as Int64?).map(Instant.init(secondsSince1970:))
        reminder.seriesIdentifier = row[ItemColumns.completedSeriesID]
        reminder.creationDate = Instant(secondsSince1970: row[ItemColumns.created])
        reminder.lastModifiedDate = Instant(secondsSince1970: row[ItemColumns.modified])
        reminder.storeRevision = row[ItemColumns.revision]
        reminder.alarms = alarms
        reminder.sequence = row[ItemColumns.sequence]
        reminder.icsExtras = ListCodec.lines(row[ItemColumns.icsExtras] as String)
        return reminder
    }

    static func item(_ row: Row, alarms: [Alarm]) throws(StoreError) -> AnyCalendarItem {
        var cache = DecodingCache()
        return try item(row, alarms: alarms, cache: &cache)
    }

    static func item(_ row: Row, alarms: [Alarm], cache: inout DecodingCache) throws(StoreError) -> AnyCalendarItem {
        (row[ItemColumns.kind] as String) == "event"
            ? .event(try event(row, alarms: alarms, cache: &cache))
            : .reminder(try reminder(row, alarms: alarms))
    }

    // MARK: Fetching one

    /// The stored revision of a row (0 when inserted, one more on every update), nil when absent.
    static func revision(_ db: Database, id: String) throws -> Int64? {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT revision FROM item WHERE id = ?"), arguments: [id])
    }

    static func fetchRow(_ db: Database, id: String) throws -> Row? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT \(ItemColumns.list) FROM item WHERE id = ?"), arguments: [id])
    }

    static func fetchItem(_ db: Database, id: String) throws -> AnyCalendarItem? {
        guard let row = try fetchRow(db, id: id) else { return nil }
        let alarms = try AlarmRows.fetch(db, itemFilter: "?", arguments: [id])[id] ?? []
        return try item(row, alarms: alarms)
    }

    // MARK: Writing

    /// The values of an item's row worked out from the item's own fields, not from its
    /// identity or calendar: its texts (dates, rules, preserved lines) and, for an event, its
    /// query bounds and day masks. A streamed import works them out on its reading thread while
    /// the storing thread is behind (see ``ReadWhileStoring/Hand/storeIsBehind``), and the
    /// storing thread as it writes the row otherwise.
    ///
    /// ```swift
    /// let values = ItemRows.RowValues(.event(event))   // on any thread
    /// try ItemRows.upsert(event, rowID: event.identifier, series: nil, created: now, modified: now, values: values, in: db)
    /// ```
    ///
    /// Values made before a change to the item's dates, rules, alarms or preserved lines
    /// describe the old item: whoever changes those drops them.
    struct RowValues: Sendable {
        var start: String?, end: String?, due: String?
        var rules: String, recurrenceDates: String, exceptionDates: String, extras: String
        var rangeStart: Int64?, rangeEnd: Int64?
        var days: DayMasks?

        init(_ item: AnyCalendarItem) {
            switch item {
            case .event(let e): self.init(e)
            case .reminder(let r): self.init(r)
            }
        }

        init(_ e: Event) {
            start = e.start.storageText
            end = e.end.storageText
            rules = ListCodec.rules(e.recurrenceRules)
            recurrenceDates = ListCodec.dates(e.recurrenceDates)
            exceptionDates = ListCodec.dates(e.exceptionDates)
            extras = ListCodec.lines(e.icsExtras)
            (rangeStart, rangeEnd) = ItemRows.bounds(of: e)
            days = ItemRows.dayMasks(of: e)
        }

        init(_ r: Reminder) {
            start = r.startDate?.storageText
            due = r.dueDate?.storageText
            rules = ListCodec.rules(r.recurrenceRules)
            recurrenceDates = ""
            exceptionDates = ""
            extras = ListCodec.lines(r.icsExtras)
            // A reminder's range is its due date (or start), for the queries that look for it.
            rangeStart = (r.dueDate ?? r.startDate)?.instant(floatingZone: .utc).secondsSince1970
            rangeEnd = rangeStart
        }
    }

    /// The statements that store new item and alarm rows, looked up once for many rows: the
    /// connection's statement cache hashes a statement's whole text at each lookup, and looking
    /// them up per row was 3 % of an import's storing thread.
    struct NewRowStatements {
        let item: Statement
        let alarm: Statement

        init(_ db: Database) throws {
            item = try db.cachedStatement(sql: insertSQL)
            alarm = try AlarmRows.insertStatement(db)
        }
    }

    /// Inserts or updates an event row (a series, a single event, or a detached occurrence) and
    /// its alarms; `isNewRow` when the store has no row `rowID` (no stored alarms to remove).
    /// `values`: the event's ``RowValues``, when already worked out; `statements`, for a new row.
    static func upsert(
        _ e: Event, rowID: String, series: (id: String, recurrence: Instant)?, created: Instant,
        modified: Instant, isNewRow: Bool = false, values: RowValues? = nil, statements: NewRowStatements? = nil, in db: Database
    ) throws {
        let v = values ?? RowValues(e)
        let statement = try isNewRow ? (statements?.item ?? db.cachedStatement(sql: insertSQL)) : db.cachedStatement(sql: upsertSQL)
        try statement.run { row in
            row.bind(rowID)
            row.bind(e.calendarIdentifier)
            row.bind("event")
            row.bind(e.externalIdentifier)
            row.bind(e.title)
            row.bind(e.notes)
            row.bind(e.url)
            row.bind(e.location)
            row.bind(v.start)
            row.bind(v.end)
            row.bind(nil as String?)  // due
            row.bind(v.rules)
            row.bind(v.recurrenceDates)
            row.bind(v.exceptionDates)
            row.bind(series?.id)
            row.bind(series?.recurrence.secondsSince1970)
            row.bind(nil as String?)  // completed_series_id
            row.bind(0 as Int?)  // priority
            row.bind(false)  // completed
            row.bind(nil as Int64?)  // completion_date
            row.bind(created.secondsSince1970)
            row.bind(modified.secondsSince1970)
            row.bind(v.rangeStart)
            row.bind(v.rangeEnd)
            row.bind(v.days?.weekdays)
            row.bind(v.days?.monthDays)
            row.bind(v.days?.months)
            row.bind(e.sequence)
            row.bind(v.extras)
        }
        if isNewRow {
            try AlarmRows.insert(e.alarms, of: rowID, statement: statements?.alarm, in: db)
        } else {
            try AlarmRows.replace(e.alarms, of: rowID, in: db)
        }
    }

    static func upsert(
        _ r: Reminder, created: Instant, modified: Instant, isNewRow: Bool = false, values: RowValues? = nil,
        statements: NewRowStatements? = nil, in db: Database
    ) throws {
        let v = values ?? RowValues(r)
        let statement = try isNewRow ? (statements?.item ?? db.cachedStatement(sql: insertSQL)) : db.cachedStatement(sql: upsertSQL)
        try statement.run { row in
            row.bind(r.identifier)
            row.bind(r.calendarIdentifier)
            row.bind("reminder")
            row.bind(r.externalIdentifier)
            row.bind(r.title)
            row.bind(r.notes)
            row.bind(r.url)
            row.bind(r.location)
            row.bind(v.start)
            row.bind(nil as String?)  // end
            row.bind(v.due)
            row.bind(v.rules)
            row.bind("")  // rdates
            row.bind("")  // exdates
            row.bind(nil as String?)  // series_id
            row.bind(nil as Int64?)  // recurrence_id
            row.bind(r.seriesIdentifier)
            row.bind(r.priority)
            row.bind(r.isCompleted)
            row.bind(r.completionDate?.secondsSince1970)
            row.bind(created.secondsSince1970)
            row.bind(modified.secondsSince1970)
            row.bind(v.rangeStart)
            row.bind(v.rangeEnd)
            row.bind(nil as Int64?)  // day_weekdays
            row.bind(nil as Int64?)  // day_monthdays
            row.bind(nil as Int64?)  // day_months
            row.bind(r.sequence)
            row.bind(v.extras)
        }
        if isNewRow {
            try AlarmRows.insert(r.alarms, of: r.identifier, statement: statements?.alarm, in: db)
        } else {
            try AlarmRows.replace(r.alarms, of: r.identifier, in: db)
        }
    }

    /// The columns every upsert writes, in the order its values are bound.
    private static let upsertColumns = [
        "id", "calendar_id", "kind", "external_id", "title", "notes", "url", "location",
        "start", "end", "due", "rrules", "rdates", "exdates",
        "series_id", "recurrence_id", "completed_series_id", "priority", "completed", "completion_date",
        "created", "modified", "range_start", "range_end", "day_weekdays", "day_monthdays", "day_months",
        "sequence", "ics_extras"
    ]

    // A row the store does not hold yet: a plain INSERT. With foreign keys on, SQLite checks an
    // UPSERT's update path against every table that refers to items (alarms, detached
    // occurrences, completed copies) even when the row is new: storing an import's 12,000 new
    // items took about 2.5 times as long by UPSERT.
    private static let insertSQL = """
        INSERT INTO item (\(upsertColumns.map { "\"\($0)\"" }.joined(separator: ", ")))
        VALUES (\(Array(repeating: "?", count: upsertColumns.count).joined(separator: ", ")))
        """

    // An UPSERT, not INSERT OR REPLACE: a replace would delete the row first and cascade to its
    // alarms and detached occurrences. Every update counts one more revision. Built once: an
    // import runs it thousands of times.
    private static let upsertSQL = """
        INSERT INTO item (\(upsertColumns.map { "\"\($0)\"" }.joined(separator: ", ")))
        VALUES (\(Array(repeating: "?", count: upsertColumns.count).joined(separator: ", ")))
        ON CONFLICT(id) DO UPDATE SET \(upsertColumns.dropFirst().map { "\"\($0)\" = excluded.\"\($0)\"" }.joined(separator: ", ")),
            revision = item.revision + 1
        """

    /// First start and last end of an event's occurrences in UTC seconds, floating read as UTC;
    /// nil end = unbounded (or too long to compute at save time).
    static func bounds(of e: Event) -> (Int64, Int64?) {
        let duration = e.durationSeconds(floatingZone: .utc)
        let first = e.start.instant(floatingZone: .utc).secondsSince1970
        var lo = first, hi = first
        for d in e.recurrenceDates {
            let s = instant(of: d, in: e.start).secondsSince1970
            lo = min(lo, s)
            hi = max(hi, s)
        }
        if !e.recurrenceRules.isEmpty {
            if e.recurrenceRules.contains(where: { $0.end == .never }) { return (lo, nil) }
            let onlyRules = RecurrenceSet(start: e.start, rules: e.recurrenceRules)
            var last: Int64 = first
            var seen = 0
            for o in onlyRules.occurrences() {
                seen += 1
                if seen > boundedExpansionLimit { return (lo, nil) }
                last = o.instant.secondsSince1970
            }
            hi = max(hi, last)
        }
        return (lo, hi + max(duration, 0))
    }

    /// The UTC days a series' occurrences can touch (``DayMasks``), whatever floating zone reads
    /// them; every day for anything else (its range is exact).
    static func dayMasks(of e: Event) -> DayMasks {
        guard e.isRecurring else { return .all }
        var duration = e.durationSeconds(floatingZone: .utc)
        // Read in another floating zone, a duration with one floating end changes by up to that
        // zone's whole offset, one with two by its DST shift.
        if e.start.isFloating != e.end.isFloating { duration += 32 * 3600 } else if e.start.isFloating { duration += 3 * 3600 }
        return e.recurrenceSet.utcDayMasks(duration: duration)
    }

    /// Sets the day masks of every event row (a store from before they existed); a row that
    /// cannot be decoded gets every day, so it is still read (and reported) by queries.
    static func fillDayMasks(_ db: Database) throws {
        let rows = try Row.fetchAll(db, sql: "SELECT \(ItemColumns.list) FROM item WHERE kind = 'event'")
        let update = try db.makeStatement(sql: "UPDATE item SET day_weekdays = ?, day_monthdays = ?, day_months = ? WHERE id = ?")
        for row in rows {
            let masks = (try? event(row, alarms: [])).map(dayMasks(of:)) ?? .all
            try update.execute(arguments: [masks.weekdays, masks.monthDays, masks.months, row[ItemColumns.id] as String])
        }
    }

    /// A RDATE/EXDATE value's instant, read on the start's clock with floating as UTC.
    static func instant(of d: RecurrenceDate, in start: CalendarDate) -> Instant {
        let zone = start.zone(floatingZone: .utc)
        switch d {
        case .date(let day): return zone.instant(for: LocalDateTime(date: day, hour: start.local.hour, minute: start.local.minute, second: start.local.second))
        case .local(let l): return zone.instant(for: l)
        case .instant(let i): return i
        }
    }
}
