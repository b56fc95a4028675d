import ChimeCore
import GRDB

extension EventStore {
    /// The reminders a predicate matches: incomplete ones by due date (undated last), completed
    /// ones by completion date. Cancelling the calling task stops the fetch with `CancellationError`
    /// (the analogue of EventKit's `cancelFetchRequest`).
    ///
    /// ```swift
    /// let task = Task { try await store.fetchReminders(matching: store.predicateForReminders(in: nil)) }
    /// task.cancel()   // the fetch ends early, throwing CancellationError
    /// ```
    public func fetchReminders(matching predicate: ReminderPredicate) async throws -> [Reminder] {
        let zone = floatingZone
        try Task.checkCancellation()
        let rows: [Reminder] = try await pool.read { [unreadable] db in try Self.reminders(db, predicate: predicate, zone: zone, unreadable: unreadable) }
        try Task.checkCancellation()
        return rows
    }

    /// The same query, synchronously (for command-line tools).
    public func reminders(matching predicate: ReminderPredicate) throws(StoreError) -> [Reminder] {
        let zone = floatingZone
        let unreadable = self.unreadable
        return try read { db in try Self.reminders(db, predicate: predicate, zone: zone, unreadable: unreadable) }
    }

    static func reminders(
        _ db: Database, predicate: ReminderPredicate, zone: ZoneRules,
        unreadable: UnreadableRows
    ) throws -> [Reminder] {
        var filter = "kind = 'reminder'"
        var arguments: StatementArguments = []
        var exact: ((Reminder) -> Bool)?
        switch predicate.kind {
        case .all: break
        case .incomplete(let lo, let hi):
            filter += " AND completed = 0"
            if lo != nil || hi != nil { filter += " AND range_start IS NOT NULL" }
            // The column reads floating due dates as UTC: widen, then filter exactly below.
            if let lo { filter += " AND range_start >= ?"; arguments += [lo.secondsSince1970 - ItemRows.floatingMargin] }
            if let hi { filter += " AND range_start < ?"; arguments += [hi.secondsSince1970 + ItemRows.floatingMargin] }
            if lo != nil || hi != nil {
                exact = { r in
                    guard let due = r.recurrenceAnchor?.instant(floatingZone: zone) else { return false }
                    return (lo.map { due >= $0 } ?? true) && (hi.map { due < $0 } ?? true)
                }
            }
        case .completed(let lo, let hi):
            filter += " AND completed = 1"
            if let lo { filter += " AND completion_date >= ?"; arguments += [lo.secondsSince1970] }
            if let hi { filter += " AND completion_date < ?"; arguments += [hi.secondsSince1970] }
        }
        if let calendars = predicate.calendars {
            filter += " AND calendar_id IN (\(calendars.map { _ in "?" }.joined(separator: ",")))"
            arguments += StatementArguments(calendars)
        }
        let alarms = try AlarmRows.fetch(db, itemFilter: "SELECT id FROM item WHERE \(filter)", arguments: arguments)
        let order =
            if case .completed = predicate.kind { "completion_date DESC, id" } else { "range_start IS NULL, range_start, priority = 0, priority, created, id" }
        let rows = try Row.fetchCursor(
            db, sql: "SELECT \(ItemColumns.list) FROM item WHERE \(filter) ORDER BY \(order)",
            arguments: arguments)
        var result: [Reminder] = []
        while let row = try rows.next() {
            if Task.isCancelled { throw CancellationError() }
            let id: String = row[ItemColumns.id]
            guard let reminder = unreadable.decode(row, { row throws(StoreError) in try ItemRows.reminder(row, alarms: alarms[id] ?? []) })
            else { continue }
            if let exact, !exact(reminder) { continue }
            result.append(reminder)
        }
        if case .incomplete = predicate.kind {
            // Exact order by the true due instant (floating dates read in the system zone).
            result.sort { a, b in
                let x = a.recurrenceAnchor?.instant(floatingZone: zone), y = b.recurrenceAnchor?.instant(floatingZone: zone)
                switch (x, y) {
                case let (x?, y?): return x < y
                case (.some, nil): return true
                default: return false
                }
            }
        }
        return result
    }

    /// The reminder with this identifier, or nil.
    public func reminder(withIdentifier identifier: String) throws(StoreError) -> Reminder? {
        try read { db in
            guard case .reminder(let r)? = try ItemRows.fetchItem(db, id: identifier) else { return nil }
            return r
        }
    }

    /// Reloads a fetched reminder; false (and `reminder` unchanged) when it no longer exists.
    public func refresh(_ reminder: inout Reminder) throws(StoreError) -> Bool {
        guard let fresh = try self.reminder(withIdentifier: reminder.identifier) else { return false }
        reminder = fresh
        return true
    }

    /// Saves a reminder.
    ///
    /// Completing (`isCompleted = true`) the current instance of a recurring reminder stores a
    /// completed, non-recurring copy of it (new identifier, ``Reminder/seriesIdentifier`` set) and
    /// moves the series to its next occurrence, one fewer in COUNT; completing the last instance
    /// completes the series itself. Un-completing the most recent copy moves the series back and
    /// deletes the copy; an older copy simply becomes an incomplete one-off reminder.
    ///
    /// A copy read before another change (another process completed it, or moved its due date)
    /// is refused when saving it would complete it or set a due date other than the stored one:
    /// ``StoreError/changedSinceRead(identifier:title:)``. Read it again and repeat the change, or
    /// use ``complete(reminderWithIdentifier:dueAt:)`` and ``modifyReminder(identifier:_:)``,
    /// which read and write in one transaction and never see a stale copy.
    ///
    /// - Returns: the reminder as stored: for a completed instance, the completed copy; for an
    ///   undone one, the series.
    /// - Throws: ``StoreError/identifierInUse(identifier:title:storedKind:)`` when the identifier
    ///   is a stored event's, among the others.
    @discardableResult
    public func save(_ reminder: Reminder, commit: Bool = true) throws(StoreError) -> Reminder {
        do { try reminder.validate() } catch { throw .invalid(error) }
        let zone = floatingZone
        let copyID = newIdentifier()
        let savedAs = Shared(reminder)
        try perform(commit: commit) { db, stamp in
            let stored: Reminder?
            switch try ItemRows.fetchItem(db, id: reminder.identifier) {
            case .reminder(let r)?: stored = r
            case .event(let e)?:
                // The upsert would have turned the event into this reminder.
                throw StoreError.identifierInUse(identifier: reminder.identifier, title: e.title, storedKind: e.isDetached ? .changedOccurrence : .event)
            case nil: stored = nil
            }
            if let stored, Self.isStale(reminder, comparedWith: stored) {
                throw StoreError.changedSinceRead(identifier: reminder.identifier, title: stored.title)
            }
            let saved = try Self.write(reminder, over: stored, copyID: copyID, stamp: stamp, zone: zone, in: db)
            savedAs.update { $0 = saved }
        }
        return savedAs.value
    }

    /// True when `copy` was read before the stored row last changed and saving it would complete
    /// it, un-complete it or move its due date: the change in between would be undone or doubled.
    static func isStale(_ copy: Reminder, comparedWith stored: Reminder) -> Bool {
        guard let read = copy.storeRevision, read != stored.storeRevision else { return false }
        return copy.isCompleted || stored.isCompleted || copy.recurrenceAnchor != stored.recurrenceAnchor
    }

    /// Writes `reminder` over the stored row `stored` (nil: a new reminder), inside a transaction,
    /// and returns it as stored (see ``save(_:commit:)``).
    static func write(
        _ reminder: Reminder, over stored: Reminder?, copyID: String, stamp: Instant, zone: ZoneRules,
        in db: Database
    ) throws -> Reminder {
        try reminder.validate()
        try checkWritable(db, calendarID: reminder.calendarIdentifier, for: .reminder)
        var next = completionStamped(reminder, stamp: stamp)
        if let stored, next.location != stored.location {
            next.icsExtras = ICalendarText.keptAfterLocationChange(next.icsExtras, stored: stored.icsExtras)
        }
        let created = stored?.creationDate ?? stamp
        func asStored(_ r: Reminder) throws -> Reminder {
            var r = r
            r.creationDate = r.identifier == copyID ? stamp : created
            r.lastModifiedDate = stamp
            r.storeRevision = try ItemRows.revision(db, id: r.identifier)
            return r
        }
        if let stored, !stored.isCompleted, next.isCompleted, next.hasRecurrenceRules,
            let anchor = next.recurrenceAnchor
        {
            if let following = RecurringReminders.nextInstance(of: next, after: anchor, zone: zone) {
                var copy = RecurringReminders.completedCopy(of: next, id: copyID)
                copy.seriesIdentifier = next.identifier
                try ItemRows.upsert(copy, created: stamp, modified: stamp, in: db)
                try Journal.record(db, .reminder, copy.identifier, .inserted)
                let series = try RecurringReminders.advanced(next, to: following)
                try ItemRows.upsert(series, created: created, modified: stamp, in: db)
                try Journal.record(db, .reminder, next.identifier, .updated)
                return try asStored(copy)
            }
            try ItemRows.upsert(next, created: created, modified: stamp, in: db)
            try Journal.record(db, .reminder, next.identifier, .updated)
            return try asStored(next)
        }
        if let stored, stored.isCompleted, !next.isCompleted, let seriesID = stored.seriesIdentifier,
            case .reminder(let series)? = try ItemRows.fetchItem(db, id: seriesID),
            let restored = try RecurringReminders.undo(copy: stored, series: series, zone: zone)
        {
            try db.execute(sql: "DELETE FROM item WHERE id = ?", arguments: [stored.identifier])
            try Journal.record(db, .reminder, stored.identifier, .deleted)
            try ItemRows.upsert(restored, created: series.creationDate ?? stamp, modified: stamp, in: db)
            try Journal.record(db, .reminder, series.identifier, .updated)
            var result = restored
            result.storeRevision = try ItemRows.revision(db, id: restored.identifier)
            return result
        }
        if stored?.isCompleted == true && !next.isCompleted { next.seriesIdentifier = nil }
        try ItemRows.upsert(next, created: created, modified: stamp, in: db)
        try Journal.record(db, .reminder, next.identifier, stored == nil ? .inserted : .updated)
        return try asStored(next)
    }

    /// A completed reminder keeps its completion date, else gets `stamp`; an incomplete one has none.
    static func completionStamped(_ reminder: Reminder, stamp: Instant) -> Reminder {
        var r = reminder
        if r.isCompleted { r.completionDate = r.completionDate ?? stamp } else { r.completionDate = nil }
        return r
    }

    /// Stores a reminder the store does not hold yet, into a list the caller has checked
    /// (``checkWritable(_:calendarID:for:)``). Without `journaled`, the caller records it in the
    /// change journal (an import records all its new reminders at once).
    /// `values` and `statements`: see ``ItemRows/upsert(_:created:modified:isNewRow:values:statements:in:)``.
    static func insert(
        _ reminder: Reminder, stamp: Instant, journaled: Bool = true, values: ItemRows.RowValues? = nil,
        statements: ItemRows.NewRowStatements? = nil, in db: Database
    ) throws {
        try ItemRows.upsert(
            completionStamped(reminder, stamp: stamp), created: stamp, modified: stamp, isNewRow: true, values: values,
            statements: statements, in: db)
        if journaled { try Journal.record(db, .reminder, reminder.identifier, .inserted) }
    }

    /// Removes a reminder (a series with all its future instances; completed copies stay).
    public func remove(_ reminder: Reminder, commit: Bool = true) throws(StoreError) {
        try perform(commit: commit) { db, _ in
            guard case .reminder(let stored)? = try ItemRows.fetchItem(db, id: reminder.identifier) else {
                throw StoreError.unknownItem(reminder.identifier)
            }
            try Self.checkWritable(db, calendarID: stored.calendarIdentifier, for: .reminder)
            try db.execute(sql: "DELETE FROM item WHERE id = ?", arguments: [stored.identifier])
            try Journal.record(db, .reminder, stored.identifier, .deleted)
        }
    }
}
