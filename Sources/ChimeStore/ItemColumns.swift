import ChimeCore
import GRDB

/// The `item` table's columns in the order every SELECT lists them, decoded by position (faster
/// than by name when a one-year agenda reads ten thousand rows).
enum ItemColumns {
    static let list = """
        id, calendar_id, kind, external_id, title, notes, url, location, start, "end", due, \
        rrules, rdates, exdates, series_id, recurrence_id, completed_series_id, priority, completed, \
        completion_date, created, modified, sequence, ics_extras, revision
        """
    /// ``list`` with what a listing never shows read as NULL (the positions stay): notes, URL,
    /// creation and change dates, SEQUENCE and the reminder columns. Long notes are then neither
    /// read nor sorted. The UID is read: every JSON shape names it. Preserved iCalendar lines
    /// are read only from rows that may hold an invitation's or a cancellation's (the agenda
    /// marks those); LIKE compares ASCII case-insensitively, as property names are.
    static let listing = """
        id, calendar_id, kind, external_id, title, NULL, NULL, location, start, "end", NULL, \
        rrules, rdates, exdates, series_id, recurrence_id, NULL, NULL, NULL, \
        NULL, NULL, NULL, NULL, \
        CASE WHEN ics_extras LIKE '%STATUS%' OR ics_extras LIKE '%ATTENDEE%' OR ics_extras LIKE '%ORGANIZER%' \
        THEN ics_extras END, NULL
        """
    static let id = 0, calendar = 1, kind = 2, externalID = 3, title = 4, notes = 5, url = 6, location = 7
    static let start = 8, end = 9, due = 10, rrules = 11, rdates = 12, exdates = 13, seriesID = 14
    static let recurrenceID = 15, completedSeriesID = 16, priority = 17, completed = 18, completionDate = 19
    static let created = 20, modified = 21, sequence = 22, icsExtras = 23, revision = 24
    /// How many columns ``list`` names: a column selected after them is at this position.
    static let count = revision + 1
}

/// Text forms of the list columns.
enum ListCodec {
    static func rules(_ rules: [RecurrenceRule]) -> String { rules.map(\.rfc5545).joined(separator: "\n") }

    /// Preserved iCalendar lines, one per line (unfolded lines contain no line breaks).
    static func lines(_ lines: [String]) -> String { lines.joined(separator: "\n") }
    /// Whether a preserved line is one a listing keeps: `STATUS`, `ATTENDEE` or `ORGANIZER`
    /// (what an event's status and the user's answer are read from).
    static func isInvitationLine(_ line: String) -> Bool {
        let name = line.prefix { $0 != ":" && $0 != ";" }.uppercased()
        return name == "STATUS" || name == "ATTENDEE" || name == "ORGANIZER"
    }

    static func lines(_ text: String) -> [String] { text.isEmpty ? [] : text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }

    static func dates(_ dates: [RecurrenceDate]) -> String {
        dates.map { date -> String in
            switch date {
            case .date(let d): return d.basicFormat
            case .local(let l): return l.basicFormat
            case .instant(let i): return i.utcBasicFormat
            }
        }.joined(separator: "\n")
    }

    static func rules(_ text: String, item: String) throws(StoreError) -> [RecurrenceRule] {
        if text.isEmpty { return [] }
        var result: [RecurrenceRule] = []
        for line in text.split(separator: "\n") {
            do { result.append(try RecurrenceRule(parsing: String(line))) } catch {
                throw .corruptRow(table: "item", identifier: item, detail: "rrules: \(error)")
            }
        }
        return result
    }

    /// A RDATE or EXDATE column: one basic date or date-time per line (most rows have none).
    static func dates<Columns: ColumnValues>(_ row: Columns, _ index: Int, item: String) throws(StoreError) -> [RecurrenceDate] {
        let text = try row.withText(index) { bytes throws(StoreError) in
            guard let bytes else { throw .corruptRow(table: "item", identifier: item, detail: "a date list is NULL") }
            return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
        }
        guard let text else { return [] }
        var result: [RecurrenceDate] = []
        for line in text.split(separator: "\n") {
            switch BasicDateTime.parse(line) {
            case .date(let d): result.append(.date(d))
            case .local(let l): result.append(.local(l))
            case .utc(let l): result.append(.instant(Instant(utc: l)))
            case nil: throw .corruptRow(table: "item", identifier: item, detail: "bad date \"\(line)\"")
            }
        }
        return result
    }

    /// A stored date column (``CalendarDate/storageText``), read in place; nil for NULL.
    static func calendarDate<Columns: ColumnValues>(
        _ row: Columns, _ index: Int, column: String, item: String, zones: inout ZoneNames
    ) throws(StoreError) -> CalendarDate? {
        try row.withText(index) { bytes throws(StoreError) -> CalendarDate? in
            guard let bytes else { return nil }
            guard let value = CalendarDate(storageBytes: bytes, zones: &zones) else {
                let text = String(decoding: bytes, as: UTF8.self)
                throw .corruptRow(table: "item", identifier: item, detail: "\(column) \"\(text)\" is not a date")
            }
            return value
        }
    }
}
