import ChimeCore
import GRDB

extension EventStore {
    /// The calendars that hold `entityType`, by title.
    ///
    /// ```swift
    /// for list in try store.calendars(for: .reminder) { print(list.title) }
    /// ```
    public func calendars(for entityType: EntityType) throws(StoreError) -> [ChimeCore.Calendar] {
        try read { db in
            try Row.fetchAll(
                db, sql: "SELECT \(Self.calendarColumns) FROM calendar WHERE entity_type = ? ORDER BY title, id",
                arguments: [entityType.rawValue]
            ).map(Self.calendar)
        }
    }

    /// The calendar with this identifier, or nil.
    public func calendar(withIdentifier identifier: String) throws(StoreError) -> ChimeCore.Calendar? {
        try read { db in try Self.fetchCalendar(db, identifier) }
    }

    /// The calendar whose identifier or title is `nameOrIdentifier` (titles compare case-insensitively).
    public func calendar(named nameOrIdentifier: String, for entityType: EntityType) throws(StoreError) -> ChimeCore.Calendar? {
        try read { db in try Self.calendar(named: nameOrIdentifier, for: entityType, in: db) }
    }

    /// What a user typed to name a calendar: its title or identifier (as
    /// ``calendar(named:for:)``), else the one calendar whose identifier starts with it (at least
    /// ``calendarPrefixLength`` characters, any case), as item references take a prefix of an ID.
    ///
    /// ```swift
    /// let work = try store.calendar(matching: "c26e6827", for: .event)   // C26E6827-DBE5-…
    /// ```
    public func calendar(matching typed: String, for entityType: EntityType) throws(StoreError) -> ChimeCore.Calendar? {
        try read { db in try Self.calendar(matching: typed, for: entityType, in: db) }
    }

    /// The same, read in `db` (an open write transaction), or in a read of its own (nil).
    func calendar(matching typed: String, for entityType: EntityType, in db: Database?) throws -> ChimeCore.Calendar? {
        guard let db else { return try calendar(matching: typed, for: entityType) }
        return try Self.calendar(matching: typed, for: entityType, in: db)
    }

    private static func calendar(matching typed: String, for entityType: EntityType, in db: Database) throws -> ChimeCore.Calendar? {
        if let found = try calendar(named: typed, for: entityType, in: db) { return found }
        guard typed.utf8.count >= calendarPrefixLength else { return nil }
        let prefixed = try Row.fetchAll(
            db,
            sql: """
                SELECT \(Self.calendarColumns) FROM calendar
                WHERE entity_type = ? AND upper(substr(id, 1, length(?))) = upper(?) LIMIT 2
                """, arguments: [entityType.rawValue, typed, typed])
        return prefixed.count == 1 ? Self.calendar(prefixed[0]) : nil
    }

    /// The shortest start of a calendar's identifier that names it (as human views print an
    /// item's: eight characters).
    public static let calendarPrefixLength = 8

    /// The same, read in `db` (an open write transaction sees the calendars it made), or in a read of its own (nil).
    func calendar(named nameOrIdentifier: String, for entityType: EntityType, in db: Database?) throws -> ChimeCore.Calendar? {
        guard let db else { return try calendar(named: nameOrIdentifier, for: entityType) }
        return try Self.calendar(named: nameOrIdentifier, for: entityType, in: db)
    }

    private static func calendar(named nameOrIdentifier: String, for entityType: EntityType, in db: Database) throws -> ChimeCore.Calendar? {
        try Row.fetchOne(
            db,
            sql: """
                SELECT \(Self.calendarColumns) FROM calendar WHERE entity_type = ? AND (id = ? OR title = ? COLLATE NOCASE)
                ORDER BY id = ? DESC LIMIT 1
                """, arguments: [entityType.rawValue, nameOrIdentifier, nameOrIdentifier, nameOrIdentifier]
        ).map(Self.calendar)
    }

    /// Where new events go unless told otherwise; a "Calendar" (``NewCalendarTitles``) is created on first use.
    public func defaultCalendarForNewEvents() throws(StoreError) -> ChimeCore.Calendar {
        try defaultCalendar(for: .event, title: newCalendarTitles.events)
    }

    /// Where new reminders go unless told otherwise; a "Reminders" list (``NewCalendarTitles``) is created on first use.
    public func defaultCalendarForNewReminders() throws(StoreError) -> ChimeCore.Calendar {
        try defaultCalendar(for: .reminder, title: newCalendarTitles.reminders)
    }

    private func defaultCalendar(for type: EntityType, title: String) throws(StoreError) -> ChimeCore.Calendar {
        let sql = "SELECT \(Self.calendarColumns) FROM calendar WHERE entity_type = ? AND is_default = 1"
        if let existing = try read({ db in try Row.fetchOne(db, sql: sql, arguments: [type.rawValue]).map(Self.calendar) }) {
            return existing
        }
        return try write { db, _ in try Self.defaultCalendar(db, for: type, title: title) }
    }

    /// The default calendar of a kind, made in `db` (an open write transaction) when missing, or
    /// in a write of its own (nil).
    func defaultCalendar(for type: EntityType, in db: Database?) throws -> ChimeCore.Calendar {
        guard let db else { return try type == .event ? defaultCalendarForNewEvents() : defaultCalendarForNewReminders() }
        return try Self.defaultCalendar(db, for: type, title: type == .event ? newCalendarTitles.events : newCalendarTitles.reminders)
    }

    private static func defaultCalendar(_ db: Database, for type: EntityType, title: String) throws -> ChimeCore.Calendar {
        let sql = "SELECT \(Self.calendarColumns) FROM calendar WHERE entity_type = ? AND is_default = 1"
        // Another process may have made it since the caller looked.
        if let raced = try Row.fetchOne(db, sql: sql, arguments: [type.rawValue]).map(Self.calendar) { return raced }
        // A "Calendar" of this machine left from before (the default was an account's, since
        // removed) becomes the default again rather than getting a twin.
        if let local = try Row.fetchOne(
            db,
            sql: """
                SELECT \(Self.calendarColumns) FROM calendar WHERE entity_type = ? AND title = ? AND allows_modifications = 1
                AND id NOT IN (SELECT event_calendar_id FROM sync_collection WHERE event_calendar_id IS NOT NULL
                               UNION SELECT reminder_calendar_id FROM sync_collection WHERE reminder_calendar_id IS NOT NULL)
                ORDER BY id LIMIT 1
                """, arguments: [type.rawValue, title]
        ).map(Self.calendar) {
            try db.execute(sql: "UPDATE calendar SET is_default = 1 WHERE id = ?", arguments: [local.identifier])
            return local
        }
        let created = ChimeCore.Calendar(title: title, entityType: type)
        try Self.upsertCalendar(created, isDefault: true, in: db)
        try Journal.record(db, .calendar, created.identifier, .inserted)
        return created
    }

    /// Makes `identifier` the calendar new items of its kind go to (EventKit's
    /// `defaultCalendarForNewEvents` and `defaultCalendarForNewReminders()`): with a CalDAV
    /// account, one of its calendars, so that what is added here reaches the other devices.
    /// A read-only calendar or a subscription cannot be the default.
    ///
    /// ```swift
    /// try store.setDefaultCalendar(identifier: work.identifier)
    /// try store.defaultCalendarForNewEvents().title   // "Work"
    /// ```
    @discardableResult
    public func setDefaultCalendar(identifier: String) throws(StoreError) -> ChimeCore.Calendar {
        try write { db, _ in
            guard let calendar = try Self.fetchCalendar(db, identifier) else { throw StoreError.unknownCalendar(identifier) }
            guard calendar.allowsModifications else { throw StoreError.invalid(.readOnlyCalendar(calendar.title)) }
            let previous = try String.fetchAll(
                db, sql: "SELECT id FROM calendar WHERE entity_type = ? AND is_default = 1 AND id != ?",
                arguments: [calendar.entityType.rawValue, identifier])
            try db.execute(
                sql: "UPDATE calendar SET is_default = (id = ?) WHERE entity_type = ?",
                arguments: [identifier, calendar.entityType.rawValue])
            for id in previous + [identifier] { try Journal.record(db, .calendar, id, .updated) }
            return calendar
        }
    }

    /// Whether `identifier` is where new items of its kind go.
    public func isDefaultCalendar(identifier: String) throws(StoreError) -> Bool {
        try read { db in try Bool.fetchOne(db, sql: "SELECT is_default FROM calendar WHERE id = ?", arguments: [identifier]) ?? false }
    }

    /// Adds or updates a calendar.
    public func saveCalendar(_ calendar: ChimeCore.Calendar, commit: Bool = true) throws(StoreError) {
        guard !calendar.title.allSatisfy(\.isWhitespace) else { throw .invalid(.missingTitle) }
        try perform(commit: commit) { db, _ in
            let existing = try Self.fetchCalendar(db, calendar.identifier)
            if let existing, existing.entityType != calendar.entityType {
                throw ItemValidationError.wrongCalendarType(calendar: existing.title, expected: calendar.entityType)
            }
            try Self.upsertCalendar(calendar, isDefault: nil, in: db)
            try Journal.record(db, .calendar, calendar.identifier, existing == nil ? .inserted : .updated)
        }
    }

    /// Renames a calendar: reads it and changes its title alone in one write transaction, so a
    /// colour or another field changed by another process since the caller read the calendar is
    /// kept (``saveCalendar(_:commit:)`` writes every field of the copy it is given).
    ///
    /// ```swift
    /// let work = try store.renameCalendar(identifier: id, to: "Office")
    /// ```
    ///
    /// - Returns: the calendar as stored after the change.
    /// - Throws: ``StoreError/unknownCalendar(_:)`` when no calendar has this identifier (another
    ///   process removed it), ``StoreError/invalid(_:)`` for a blank title.
    @discardableResult
    public func renameCalendar(identifier: String, to title: String) throws(StoreError) -> ChimeCore.Calendar {
        guard !title.allSatisfy(\.isWhitespace) else { throw .invalid(.missingTitle) }
        return try write { db, _ in
            guard var calendar = try Self.fetchCalendar(db, identifier) else { throw StoreError.unknownCalendar(identifier) }
            try db.execute(sql: "UPDATE calendar SET title = ? WHERE id = ?", arguments: [title, identifier])
            try Journal.record(db, .calendar, identifier, .updated)
            calendar.title = title
            return calendar
        }
    }

    /// Removes a calendar and every item in it, in one transaction.
    public func removeCalendar(_ calendar: ChimeCore.Calendar, commit: Bool = true) throws(StoreError) {
        try perform(commit: commit) { db, _ in
            guard let stored = try Self.fetchCalendar(db, calendar.identifier) else {
                throw StoreError.unknownCalendar(calendar.title)
            }
            if let account = try String.fetchOne(
                db, sql: "SELECT account FROM sync_collection WHERE event_calendar_id = ? OR reminder_calendar_id = ?",
                arguments: [calendar.identifier, calendar.identifier])
            {
                throw StoreError.syncedCalendar(title: stored.title, account: account)
            }
            let items = try Row.fetchAll(
                db, sql: "SELECT id, kind FROM item WHERE calendar_id = ? AND series_id IS NULL",
                arguments: [calendar.identifier])
            for row in items {
                try Journal.record(db, (row[1] as String) == "event" ? .event : .reminder, row[0], .deleted)
            }
            try db.execute(sql: "DELETE FROM calendar WHERE id = ?", arguments: [calendar.identifier])
            try Journal.record(db, .calendar, calendar.identifier, .deleted)
        }
    }

    // MARK: Rows

    static let calendarColumns = "id, title, color, entity_type, allows_modifications, ics_extras"

    static func calendar(_ row: Row) -> ChimeCore.Calendar {
        var calendar = ChimeCore.Calendar(
            identifier: row[0], title: row[1], entityType: EntityType(rawValue: row[3]) ?? .event,
            color: row[2], allowsModifications: row[4])
        calendar.icsExtras = ListCodec.lines(row[5] as String)
        return calendar
    }

    static func fetchCalendar(_ db: Database, _ id: String) throws -> ChimeCore.Calendar? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT \(calendarColumns) FROM calendar WHERE id = ?"), arguments: [id]).map(calendar)
    }

    private static func upsertCalendar(_ c: ChimeCore.Calendar, isDefault: Bool?, in db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO calendar (id, title, color, entity_type, allows_modifications, is_default, ics_extras) VALUES (?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT(id) DO UPDATE SET title = excluded.title, color = excluded.color,
                    allows_modifications = excluded.allows_modifications, ics_extras = excluded.ics_extras
                """,
            arguments: [
                c.identifier, c.title, c.color, c.entityType.rawValue, c.allowsModifications, isDefault ?? false,
                ListCodec.lines(c.icsExtras)
            ])
    }

    /// Checks that an item may be written into `calendarID`.
    static func checkWritable(_ db: Database, calendarID: String?, for type: EntityType) throws {
        guard let calendarID else { throw ItemValidationError.missingCalendar }
        guard let calendar = try fetchCalendar(db, calendarID) else { throw ItemValidationError.unknownCalendar(calendarID) }
        guard calendar.entityType == type else { throw ItemValidationError.wrongCalendarType(calendar: calendar.title, expected: type) }
        guard calendar.allowsModifications else { throw ItemValidationError.readOnlyCalendar(calendar.title) }
    }
}
