import ChimeCore
import GRDB

/// What ``EventStore/complete(reminderWithIdentifier:dueAt:)`` did.
public enum CompletionOutcome: Sendable, Hashable {
    /// The instance is now completed. `completed` is the completed reminder as stored (for a
    /// recurring one, the completed copy of that instance); `next` is the series at its next
    /// instance (nil when the reminder does not repeat, or that was its last instance).
    case completed(Reminder, next: Reminder?)
    /// Nothing changed: the instance was already completed (by this or another process). The
    /// reminder is the completed one as stored (for a recurring reminder, the completed copy).
    case alreadyCompleted(Reminder)
}

/// What ``EventStore/uncomplete(reminderWithIdentifier:)`` did.
public enum UncompletionOutcome: Sendable, Hashable {
    /// The reminder is not done any more: as stored now (for the latest completed copy of a
    /// recurring reminder, the series moved back to that instance; the copy is gone).
    case reopened(Reminder)
    /// Nothing changed: it was not completed.
    case alreadyIncomplete(Reminder)
}

// Read-modify-write in one transaction. A DatabasePool write transaction is BEGIN IMMEDIATE in
// GRDB 7 (`Database.beginTransaction` picks `.immediate` on a writable connection): it takes the
// database's write lock before the first read, so what the closure reads is the newest committed
// state of every process and nobody can change it before the commit.
extension EventStore {
    /// Completes a reminder, reading and writing it in one transaction: concurrent calls from any
    /// number of processes complete each instance once and advance the series exactly once per
    /// completion.
    ///
    /// - Parameter instance: the due instant of the instance meant (for example the one a
    ///   notification was shown for). When that instance was completed already, nothing changes and
    ///   the result is ``CompletionOutcome/alreadyCompleted(_:)``. Nil means the current instance.
    /// - Throws: ``StoreError/unknownItem(_:)``, or ``StoreError/notCurrentInstance(identifier:title:requested:current:)``
    ///   when `instance` is neither the current instance nor a completed one.
    ///
    /// ```swift
    /// switch try store.complete(reminderWithIdentifier: id) {
    /// case .completed(let done, let next?): print("Done: \(done.title); next due \(next.dueDate!)")
    /// case .completed(let done, nil): print("Done: \(done.title)")
    /// case .alreadyCompleted(let done): print("\(done.title) was already done")
    /// }
    /// ```
    @discardableResult
    public func complete(reminderWithIdentifier identifier: String, dueAt instance: Instant? = nil) throws(StoreError) -> CompletionOutcome {
        let zone = floatingZone
        let copyID = newIdentifier()
        return try write { db, stamp in
            guard case .reminder(let stored)? = try ItemRows.fetchItem(db, id: identifier) else {
                throw StoreError.unknownItem(identifier)
            }
            let current = stored.recurrenceAnchor?.instant(floatingZone: zone)
            if let instance, instance != current {
                if let copy = try Self.completedCopy(of: identifier, dueAt: instance, zone: zone, in: db) {
                    return .alreadyCompleted(copy)
                }
                throw StoreError.notCurrentInstance(
                    identifier: identifier, title: stored.title, requested: instance,
                    current: stored.isCompleted ? nil : current)
            }
            if stored.isCompleted { return .alreadyCompleted(stored) }
            // Along its own rule: a command link that was current stays linked to the next instance
            // (one something else had re-timed stays re-timed).
            let currentLinks = try Self.currentLinks(db, item: identifier)
            var done = stored
            done.isCompleted = true
            Self.markModified(&done, at: stamp)
            let saved = try Self.write(done, over: stored, copyID: copyID, stamp: stamp, zone: zone, in: db)
            try Self.confirmAlarmCommandTiming(db, holders: currentLinks)
            guard saved.identifier != identifier, case .reminder(let series)? = try ItemRows.fetchItem(db, id: identifier) else {
                return .completed(saved, next: nil)
            }
            return .completed(saved, next: series)
        }
    }

    /// Marks a completed reminder as not done, reading and writing it in one transaction. For the
    /// most recent completed copy of a recurring reminder the series moves back to that instance
    /// and the copy is deleted (see ``save(_:commit:)``).
    ///
    /// ```swift
    /// if case .reopened(let r) = try store.uncomplete(reminderWithIdentifier: copyID) { print("\(r.title) is open again") }
    /// ```
    @discardableResult
    public func uncomplete(reminderWithIdentifier identifier: String) throws(StoreError) -> UncompletionOutcome {
        let zone = floatingZone
        let copyID = newIdentifier()
        return try write { db, stamp in
            guard case .reminder(let stored)? = try ItemRows.fetchItem(db, id: identifier) else {
                throw StoreError.unknownItem(identifier)
            }
            if !stored.isCompleted { return .alreadyIncomplete(stored) }
            // Reopening moves a repeating reminder back along its rule: as for a completion, only a
            // link that was current is confirmed afterwards.
            let currentLinks = try Self.currentLinks(db, item: stored.seriesIdentifier ?? identifier)
            var open = stored
            open.isCompleted = false
            Self.markModified(&open, at: stamp)
            let reopened = try Self.write(open, over: stored, copyID: copyID, stamp: stamp, zone: zone, in: db)
            try Self.confirmAlarmCommandTiming(db, holders: currentLinks)
            return .reopened(reopened)
        }
    }

    /// Changes a reminder in one transaction: reads the stored reminder, lets `transform` change
    /// it, and saves it as ``save(_:commit:)`` would (setting `isCompleted` completes it). No other
    /// process can change the reminder in between, so no change made elsewhere is lost.
    ///
    /// `transform` runs inside the write transaction: keep it short and do no I/O in it. Changes
    /// queued with `commit: false` are not part of this transaction.
    ///
    /// - Returns: the reminder as stored (for a completed instance, the completed copy).
    /// - Throws: what `transform` throws (nothing is written), else ``StoreError``.
    ///
    /// ```swift
    /// let saved = try store.modifyReminder(identifier: id) { r in
    ///     r.priority = 1
    ///     r.notes = (r.notes ?? "") + "\nAsk about the invoice"
    /// }
    /// ```
    @discardableResult
    public func modifyReminder(identifier: String, _ transform: (inout Reminder) throws -> Void) throws -> Reminder {
        let zone = floatingZone
        let copyID = newIdentifier()
        return try writeForwardingCallerErrors { db, stamp in
            guard case .reminder(let stored)? = try ItemRows.fetchItem(db, id: identifier) else {
                throw StoreError.unknownItem(identifier)
            }
            var changed = stored
            do { try transform(&changed) } catch { throw CallerError(error: error) }
            Self.markModified(&changed, at: stamp)
            return try Self.write(changed, over: stored, copyID: copyID, stamp: stamp, zone: zone, in: db)
        }
    }

    /// Changes an event, or some occurrences of a recurring one, in one transaction: reads the
    /// occurrence at `occurrence` (nil: the first one, which with `.futureEvents` means the whole
    /// series), lets `transform` change it, and saves it with `span` as ``save(_:span:commit:)``
    /// would. No other process can change the event in between.
    ///
    /// `transform` runs inside the write transaction: keep it short and do no I/O in it.
    ///
    /// - Returns: the event as saved (for a split series, the first occurrence of the new one).
    /// - Throws: what `transform` throws (nothing is written), else ``StoreError``.
    ///
    /// ```swift
    /// try store.modifyEvent(identifier: id, occurrence: monday, span: .thisEvent) { e in
    ///     e.title = "Stand-up (remote)"
    /// }
    /// ```
    @discardableResult
    public func modifyEvent(
        identifier: String, occurrence: Instant? = nil, span: Span = .thisEvent,
        _ transform: (inout Event) throws -> Void
    ) throws -> Event {
        let zone = floatingZone
        let newSeriesID = newIdentifier()
        return try writeForwardingCallerErrors { db, stamp in
            guard let master = try Self.fetchMaster(db, identifier) else { throw StoreError.unknownItem(identifier) }
            let found: Event? =
                if let occurrence, master.isRecurring {
                    try Self.occurrence(of: master, at: occurrence, zone: zone, in: db)
                } else {
                    try Self.firstOccurrence(of: master, zone: zone, in: db)
                }
            guard var event = found else {
                throw ItemValidationError.notAnOccurrence(occurrence.map { "\($0)" } ?? identifier)
            }
            do { try transform(&event) } catch { throw CallerError(error: error) }
            Self.markModified(&event, at: stamp)
            return try Self.write(event, span: span, newSeriesID: newSeriesID, stamp: stamp, zone: zone, changedHere: true, in: db)
        }
    }

    // MARK: Helpers

    /// Stamps a change made through these methods with the store's clock: `lastModifiedDate`, and
    /// the LAST-MODIFIED kept among the item's iCalendar lines (replaced where an imported one
    /// stood, else added), so an export says when the item last changed and a later import of an
    /// older copy (same SEQUENCE, older LAST-MODIFIED) does not overwrite the change. ``save(_:span:commit:)``
    /// leaves the lines alone: an import saves the file's own LAST-MODIFIED through it.
    static func markModified(_ event: inout Event, at stamp: Instant) {
        event.lastModifiedDate = stamp
        stampLastModified(&event.icsExtras, stamp)
    }

    /// The same for a reminder.
    static func markModified(_ reminder: inout Reminder, at stamp: Instant) {
        reminder.lastModifiedDate = stamp
        stampLastModified(&reminder.icsExtras, stamp)
    }

    private static func stampLastModified(_ extras: inout [String], _ stamp: Instant) {
        AlarmAnswers.setLine("LAST-MODIFIED", to: stamp.utcBasicFormat, in: &extras)
    }

    /// The completed copy of `seriesID`'s instance due at `instance`, if there is one.
    static func completedCopy(of seriesID: String, dueAt instance: Instant, zone: ZoneRules, in db: Database) throws -> Reminder? {
        // range_start reads floating due dates as UTC: widen, then compare exactly.
        let ids = try String.fetchAll(
            db,
            sql: """
                SELECT id FROM item WHERE completed_series_id = ? AND completed = 1 AND range_start BETWEEN ? AND ?
                """,
            arguments: [
                seriesID, instance.secondsSince1970 - ItemRows.floatingMargin,
                instance.secondsSince1970 + ItemRows.floatingMargin
            ])
        for id in ids {
            if case .reminder(let copy)? = try ItemRows.fetchItem(db, id: id),
                copy.recurrenceAnchor?.instant(floatingZone: zone) == instance
            {
                return copy
            }
        }
        return nil
    }

    /// An error thrown by a closure the caller passed in, carried through the transaction unchanged.
    struct CallerError: Error { let error: any Error }

    /// Like ``write(_:)``, but an error `body` throws as ``CallerError`` comes out as it was thrown.
    func writeForwardingCallerErrors<T>(_ body: (Database, Instant) throws -> T) throws -> T {
        var callerError: (any Error)?
        do {
            return try write { db, stamp in
                do { return try body(db, stamp) } catch let error as CallerError {
                    callerError = error.error
                    throw error
                }
            }
        } catch {
            if let callerError { throw callerError }
            throw error
        }
    }
}
