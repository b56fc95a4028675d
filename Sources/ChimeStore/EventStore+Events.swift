import ChimeCore
import GRDB
import Synchronization

extension EventStore {
    /// Saves an event, or some occurrences of a recurring one.
    ///
    /// - A new event, or one that does not repeat: inserted or updated as a whole.
    /// - An occurrence of a recurring event (one fetched by a date-range query, or by
    ///   ``event(withIdentifier:)``, which returns the first occurrence):
    ///   - `.thisEvent` detaches that occurrence (an iCalendar RECURRENCE-ID override); the
    ///     rest of the series is unchanged. Changing the recurrence rules needs `.futureEvents`.
    ///   - `.futureEvents` on the first occurrence changes the whole series; on a later one it
    ///     splits the series: the original ends just before this occurrence and a new series
    ///     (new identifier, returned) starts here with the changes. Detached occurrences from
    ///     this one on are dropped in favour of the new series.
    ///
    /// - Returns: the event as saved; for a split, the first occurrence of the new series (with
    ///   `commit: false`, known only once `commit()` has run, so the event passed in is returned).
    /// - Throws: ``StoreError/identifierInUse(identifier:title:storedKind:)`` when the identifier
    ///   is a stored reminder's (or a changed occurrence's row), among the others.
    @discardableResult
    public func save(_ event: Event, span: Span = .thisEvent, commit: Bool = true) throws(StoreError) -> Event {
        try save(event, span: span, commit: commit, newSeriesID: newIdentifier())
    }

    /// The same, with the identifier a split (`.futureEvents` on a later occurrence) gives the new
    /// series chosen by the caller: an import that queues more changes to it before committing.
    @discardableResult
    func save(_ event: Event, span: Span, commit: Bool, newSeriesID: String) throws(StoreError) -> Event {
        do { try event.validate() } catch { throw .invalid(error) }
        let zone = floatingZone
        let savedAs = Shared(event)
        try perform(commit: commit) { db, stamp in
            let saved = try Self.write(event, span: span, newSeriesID: newSeriesID, stamp: stamp, zone: zone, in: db)
            savedAs.update { $0 = saved }
        }
        return savedAs.value
    }

    /// Removes an event, or some occurrences of a recurring one.
    ///
    /// `.thisEvent` on an occurrence adds an exception date (and drops its detached copy);
    /// `.futureEvents` ends the series just before the occurrence (on the first occurrence it
    /// removes the whole series). An event that does not repeat is removed whatever the span.
    /// Either changes the series: its SEQUENCE goes up by one and its LAST-MODIFIED is stamped, so
    /// another device or client that imports or syncs it takes the change instead of keeping its
    /// older copy.
    public func remove(_ event: Event, span: Span = .thisEvent, commit: Bool = true) throws(StoreError) {
        let zone = floatingZone
        try perform(commit: commit) { db, stamp in
            guard let master = try Self.fetchMaster(db, event.identifier) else { throw StoreError.unknownItem(event.identifier) }
            try Self.checkWritable(db, calendarID: master.calendarIdentifier, for: .event)
            guard master.isRecurring, let occurrence = event.occurrenceDate,
                span == .thisEvent || occurrence > Self.firstInstant(master, zone: zone)
            else {
                try db.execute(sql: "DELETE FROM item WHERE id = ?", arguments: [master.identifier])
                try Journal.record(db, .event, master.identifier, .deleted)
                return
            }
            switch span {
            case .thisEvent:
                try Self.requireOccurrence(master, occurrence, zone: zone, in: db)
                var updated = master
                updated.exceptionDates.append(Self.exceptionDate(for: occurrence, of: master, zone: zone))
                // A change of the series: other devices and clients take it only when it is newer.
                updated.sequence += 1
                Self.markModified(&updated, at: stamp)
                try ItemRows.upsert(
                    updated, rowID: master.identifier, series: nil, created: master.creationDate ?? stamp,
                    modified: stamp, in: db)
                try db.execute(sql: "DELETE FROM item WHERE id = ?", arguments: [Self.detachedRowID(master.identifier, occurrence)])
                try Journal.record(db, .event, master.identifier, .updated)
            case .futureEvents:
                try Self.endSeries(master, before: occurrence, stamp: stamp, zone: zone, changedHere: true, in: db)
            }
        }
    }

    /// The event with this identifier; for a recurring event, its first occurrence.
    public func event(withIdentifier identifier: String) throws(StoreError) -> Event? {
        let zone = floatingZone
        return try read { db in
            guard let master = try Self.fetchMaster(db, identifier) else { return nil }
            return try Self.firstOccurrence(of: master, zone: zone, in: db)
        }
    }

    /// An event or a reminder by identifier (events as their first occurrence).
    public func calendarItem(withIdentifier identifier: String) throws(StoreError) -> AnyCalendarItem? {
        let zone = floatingZone
        return try read { db in
            switch try ItemRows.fetchItem(db, id: identifier) {
            case .event(let e)? where e.isDetached: return nil  // a detached row answers to its series' ID
            case .event(let master)?: return try Self.firstOccurrence(of: master, zone: zone, in: db).map(AnyCalendarItem.event)
            case let other: return other
            }
        }
    }

    /// Reloads a fetched event from the store. Returns false, leaving `event` as it was, when it
    /// (or, for an occurrence, that occurrence) no longer exists.
    public func refresh(_ event: inout Event) throws(StoreError) -> Bool {
        guard let fresh = try refreshed(event) else { return false }
        event = fresh
        return true
    }

    private func refreshed(_ event: Event) throws(StoreError) -> Event? {
        let zone = floatingZone
        return try read { db in
            guard let master = try Self.fetchMaster(db, event.identifier) else { return nil }
            guard master.isRecurring, let occurrence = event.occurrenceDate else { return Self.single(master, zone: zone) }
            return try Self.occurrence(of: master, at: occurrence, zone: zone, in: db)
        }
    }

    /// The occurrences of a series that were changed on their own (detached), each with its
    /// `occurrenceDate` (the instant it replaces), in order.
    ///
    /// ```swift
    /// let moved = try store.detachedOccurrences(ofSeries: standup.identifier)
    /// ```
    public func detachedOccurrences(ofSeries identifier: String) throws(StoreError) -> [Event] {
        try read { db in
            try Row.fetchAll(
                db, sql: "SELECT \(ItemColumns.list) FROM item WHERE series_id = ? AND kind = 'event' ORDER BY recurrence_id",
                arguments: [identifier]
            ).map { row in
                let rowID: String = row[ItemColumns.id]
                var event = try ItemRows.event(row, alarms: try AlarmRows.fetch(db, itemFilter: "SELECT ?", arguments: [rowID])[rowID] ?? [])
                event.isDetached = true
                event.occurrenceDate = (row["recurrence_id"] as Int64?).map(Instant.init(secondsSince1970:))
                return event
            }
        }
    }

    // MARK: Helpers (inside a transaction)

    /// Writes `event` (see ``save(_:span:commit:)``) inside a transaction; returns it as saved.
    /// - Parameter changedHere: a change made on this device (``modifyEvent(identifier:occurrence:span:_:)``),
    ///   not a copy from a file or a server: a series it ends early says so with its own SEQUENCE
    ///   and LAST-MODIFIED, as the edited part does.
    static func write(
        _ event: Event, span: Span, newSeriesID: String, stamp: Instant, zone: ZoneRules,
        changedHere: Bool = false, in db: Database
    ) throws -> Event {
        try event.validate()
        try Self.checkWritable(db, calendarID: event.calendarIdentifier, for: .event)
        guard let master = try Self.fetchMaster(db, event.identifier) else {
            // A reminder's row (or a changed occurrence's) under that identifier: the insert
            // would fail on the key, and an update would have turned it into this event.
            if let other = try Row.fetchOne(db.cachedStatement(sql: "SELECT kind, series_id, title FROM item WHERE id = ?"), arguments: [event.identifier]) {
                let kind: String = other[0], series: String? = other[1]
                throw StoreError.identifierInUse(
                    identifier: event.identifier, title: other[2],
                    storedKind: kind == "reminder" ? .reminder : series != nil ? .changedOccurrence : .event)
            }
            try insert(event, stamp: stamp, in: db)
            return event
        }
        let created = master.creationDate ?? stamp
        var event = event
        if event.icsExtras.contains(where: { ICalendarText.isLine($0, of: "X-APPLE-STRUCTURED-LOCATION") }) {
            // Compared with the copy this one replaces: an occurrence changed before has its own.
            var previous = master
            if master.isRecurring, let occurrence = event.occurrenceDate,
                let row = try ItemRows.fetchRow(db, id: Self.detachedRowID(master.identifier, occurrence))
            {
                previous = try ItemRows.event(row, alarms: [])
            }
            if event.location != previous.location {
                event.icsExtras = ICalendarText.keptAfterLocationChange(event.icsExtras, stored: previous.icsExtras)
            }
        }
        let input = event
        if event.isDetached {
            // A detached occurrence is stored without the series' rules; it still belongs to them.
            event.recurrenceRules = master.recurrenceRules
            event.recurrenceDates = master.recurrenceDates
            event.exceptionDates = master.exceptionDates
        }
        guard master.isRecurring, let occurrence = event.occurrenceDate else {
            try Self.replaceSeries(master, with: event, created: created, stamp: stamp, zone: zone, changedHere: changedHere, in: db)
            return input
        }
        switch span {
        case .thisEvent:
            guard event.recurrenceRules == master.recurrenceRules else { throw ItemValidationError.recurrenceChangeNeedsFutureSpan }
            try Self.requireOccurrence(master, occurrence, zone: zone, in: db)
            var detached = event
            detached.recurrenceRules = []
            detached.recurrenceDates = []
            detached.exceptionDates = []
            let rowID = Self.detachedRowID(master.identifier, occurrence)
            let previous = try Int64.fetchOne(db, sql: "SELECT created FROM item WHERE id = ?", arguments: [rowID])
            try ItemRows.upsert(
                detached, rowID: rowID, series: (master.identifier, occurrence),
                created: previous.map(Instant.init(secondsSince1970:)) ?? stamp, modified: stamp, in: db)
            try Journal.record(db, .event, master.identifier, .updated)
            var saved = input
            saved.isDetached = true
            return saved
        case .futureEvents:
            if occurrence <= Self.firstInstant(master, zone: zone) {
                try Self.replaceSeries(master, with: event, created: created, stamp: stamp, zone: zone, changedHere: changedHere, in: db)
                return input
            }
            try Self.requireOccurrence(master, occurrence, zone: zone, in: db)
            let successor = try Self.successor(of: master, from: occurrence, edited: event, id: newSeriesID, zone: zone)
            try Self.endSeries(master, before: occurrence, stamp: stamp, zone: zone, changedHere: changedHere, in: db)
            try ItemRows.upsert(successor, rowID: newSeriesID, series: nil, created: stamp, modified: stamp, in: db)
            try Journal.record(db, .event, newSeriesID, .inserted)
            var first = successor
            first.occurrenceDate = successor.start.instant(floatingZone: zone)
            return first
        }
    }

    /// Stores an event the store does not hold yet, as a series of its own, into a calendar the
    /// caller has checked (``checkWritable(_:calendarID:for:)``). Without `journaled`, the caller
    /// records it in the change journal (an import records all its new events at once).
    /// `values` and `statements`: see ``ItemRows/upsert(_:rowID:series:created:modified:isNewRow:values:statements:in:)``.
    static func insert(
        _ event: Event, stamp: Instant, journaled: Bool = true, values: ItemRows.RowValues? = nil,
        statements: ItemRows.NewRowStatements? = nil, in db: Database
    ) throws {
        var fresh = event
        fresh.isDetached = false
        fresh.occurrenceDate = nil
        try ItemRows.upsert(
            fresh, rowID: event.identifier, series: nil, created: stamp, modified: stamp, isNewRow: true, values: values,
            statements: statements, in: db)
        if journaled { try Journal.record(db, .event, event.identifier, .inserted) }
    }

    static func detachedRowID(_ series: String, _ occurrence: Instant) -> String { "\(series)/\(occurrence.secondsSince1970)" }

    static func fetchMaster(_ db: Database, _ id: String) throws -> Event? {
        let statement = try db.cachedStatement(sql: "SELECT \(ItemColumns.list) FROM item WHERE id = ? AND kind = 'event' AND series_id IS NULL")
        guard let row = try Row.fetchOne(statement, arguments: [id]) else { return nil }
        let alarms = try AlarmRows.fetch(db, itemFilter: "?", arguments: [id])[id] ?? []
        return try ItemRows.event(row, alarms: alarms)
    }

    static func firstInstant(_ e: Event, zone: ZoneRules) -> Instant {
        e.recurrenceSet.first(1, floatingZone: zone).first?.instant ?? e.start.instant(floatingZone: zone)
    }

    /// What fetching a series by identifier returns: its first occurrence.
    static func firstOccurrence(of master: Event, zone: ZoneRules, in db: Database) throws -> Event? {
        guard master.isRecurring else { return single(master, zone: zone) }
        return try occurrence(of: master, at: firstInstant(master, zone: zone), zone: zone, in: db)
    }

    /// A non-recurring event as its one occurrence.
    static func single(_ e: Event, zone: ZoneRules) -> Event {
        var single = e
        single.occurrenceDate = e.start.instant(floatingZone: zone)
        return single
    }

    /// The occurrence of `master` scheduled at `instant`: its detached copy, or a generated one.
    static func occurrence(of master: Event, at instant: Instant, zone: ZoneRules, in db: Database) throws -> Event? {
        let rowID = detachedRowID(master.identifier, instant)
        if let row = try ItemRows.fetchRow(db, id: rowID) {
            let alarms = try AlarmRows.fetch(db, itemFilter: "?", arguments: [rowID])[rowID] ?? []
            return try ItemRows.event(row, alarms: alarms)
        }
        guard isOccurrence(master, instant, zone: zone) else { return nil }
        return master.occurrence(at: instant, duration: master.durationSeconds(floatingZone: zone), floatingZone: zone)
    }

    static func isOccurrence(_ master: Event, _ instant: Instant, zone: ZoneRules) -> Bool {
        master.hasOccurrence(at: instant, floatingZone: zone)
    }

    static func requireOccurrence(_ master: Event, _ instant: Instant, zone: ZoneRules, in db: Database) throws {
        if isOccurrence(master, instant, zone: zone) { return }
        if try ItemRows.fetchRow(db, id: detachedRowID(master.identifier, instant)) != nil { return }
        throw ItemValidationError.notAnOccurrence(instant.description)
    }

    /// Updates a series (or single event) as a whole. Moving a series' start moves its detached
    /// and removed occurrences with it (``Event/placeOfOccurrence(at:inMoved:floatingZone:)``); one that has no
    /// place in the moved series is dropped, and the caller can name it by comparing before and after.
    static func replaceSeries(
        _ master: Event, with edited: Event, created: Instant, stamp: Instant, zone: ZoneRules,
        changedHere: Bool = false, in db: Database
    ) throws {
        var whole = edited
        whole.isDetached = false
        whole.occurrenceDate = nil
        if master.isRecurring, let occurrence = edited.occurrenceDate {
            // An occurrence carries its own dates; the series start moves by as much as it did.
            let delta = edited.start.instant(floatingZone: zone).secondsSince1970 - occurrence.secondsSince1970
            let duration = edited.durationSeconds(floatingZone: zone)
            if delta == 0 && edited.start.timeZone == master.start.timeZone && edited.isAllDay == master.isAllDay {
                whole.start = master.start
            } else if case .allDay(let day) = master.start, edited.isAllDay {
                whole.start = .allDay(day.adding(days: Int(delta / 86_400)))
            } else {
                let moved = master.start.instant(floatingZone: zone).secondsSince1970 + delta
                whole.start = edited.start.with(instant: Instant(secondsSince1970: moved), floatingZone: zone)
            }
            if case .allDay(let day) = whole.start {
                whole.end = .allDay(day.adding(days: max(1, Int(duration / 86_400))))
            } else {
                let end = whole.start.instant(floatingZone: zone).secondsSince1970 + duration
                whole.end = edited.end.with(instant: Instant(secondsSince1970: end), floatingZone: zone)
            }
        }
        if whole.start != master.start && master.isRecurring {
            if whole.exceptionDates == master.exceptionDates {
                let rest = whole.start.zone(floatingZone: zone)
                whole.exceptionDates = master.exceptionDates.compactMap { exdate -> RecurrenceDate? in
                    if case .date = exdate, !master.isAllDay { return exdate }  // a whole day stays removed
                    var unremoved = whole
                    unremoved.exceptionDates = []
                    guard let moved = master.placeOfOccurrence(at: ItemRows.instant(of: exdate, in: master.start), inMoved: unremoved, floatingZone: zone)
                    else { return nil }
                    if case .allDay = whole.start { return .date(rest.localTime(at: moved).date) }
                    return whole.start.timeZone == nil && !whole.start.isFloating ? .instant(moved) : .local(rest.localTime(at: moved))
                }
            }
            try moveDetached(of: master, to: whole, stamp: stamp, zone: zone, in: db)
        } else if master.isRecurring, !changedHere,
            whole.exceptionDates != master.exceptionDates || whole.recurrenceRules != master.recurrenceRules
                || whole.recurrenceDates != master.recurrenceDates
        {
            // A copy from elsewhere (an import, a sync); an edit here that thins the series says
            // what it drops itself (`remove`, "this and later").
            try dropDetachedNoLongerInSeries(of: master, now: whole, zone: zone, in: db)
        }
        if master.isRecurring { try carrySeriesChanges(from: master, to: whole, stamp: stamp, in: db) }
        try ItemRows.upsert(whole, rowID: master.identifier, series: nil, created: created, modified: stamp, in: db)
        try Journal.record(db, .event, master.identifier, .updated)
    }

    /// Gives each detached occurrence of `old` its place in `new` (its start moved); one with no
    /// place is dropped.
    static func moveDetached(of old: Event, to new: Event, stamp: Instant, zone: ZoneRules, in db: Database) throws {
        let rows = try Row.fetchAll(db, sql: "SELECT \(ItemColumns.list) FROM item WHERE series_id = ?", arguments: [old.identifier])
        var taken: Set<Instant> = []
        for row in rows {
            let rowID: String = row[ItemColumns.id]
            guard let recurrence: Int64 = row["recurrence_id"] else { continue }
            let alarms = try AlarmRows.fetch(db, itemFilter: "SELECT ?", arguments: [rowID])[rowID] ?? []
            var detached = try ItemRows.event(row, alarms: alarms)
            try db.execute(sql: "DELETE FROM item WHERE id = ?", arguments: [rowID])
            guard let moved = old.placeOfOccurrence(at: Instant(secondsSince1970: recurrence), inMoved: new, floatingZone: zone),
                taken.insert(moved).inserted
            else { continue }
            detached.occurrenceDate = moved
            try ItemRows.upsert(
                detached, rowID: detachedRowID(old.identifier, moved), series: (old.identifier, moved),
                created: detached.creationDate ?? stamp, modified: stamp, in: db)
        }
    }

    /// Drops the changed copies of occurrences the series had and no longer has: an EXDATE, an
    /// earlier UNTIL or a new rule from another device (an import, a sync) removed the occurrence,
    /// and its changed copy must not stay behind and ring. A copy of an instant its rules never
    /// made (an invitation to one moved instance, kept with an extra date) is the series' extra
    /// occurrence, and stays.
    static func dropDetachedNoLongerInSeries(of old: Event, now new: Event, zone: ZoneRules, in db: Database) throws {
        let instants = try Int64.fetchAll(
            db, sql: "SELECT recurrence_id FROM item WHERE series_id = ? AND recurrence_id IS NOT NULL", arguments: [old.identifier])
        var byRules = old
        byRules.recurrenceDates = []
        for seconds in instants {
            let instant = Instant(secondsSince1970: seconds)
            guard isOccurrence(byRules, instant, zone: zone), !isOccurrence(new, instant, zone: zone) else { continue }
            try db.execute(sql: "DELETE FROM item WHERE id = ?", arguments: [detachedRowID(old.identifier, instant)])
        }
    }

    /// A change to a whole series reaches its detached occurrences for every field they did not
    /// change on their own (still equal to the series' old value), as Google Calendar and Apple's
    /// Calendar do: renaming a series renames the moved occurrence too, a title given to that one
    /// occurrence stays. Times stay the detached occurrence's own.
    static func carrySeriesChanges(from old: Event, to new: Event, stamp: Instant, in db: Database) throws {
        let rows = try Row.fetchAll(db, sql: "SELECT \(ItemColumns.list) FROM item WHERE series_id = ?", arguments: [old.identifier])
        for row in rows {
            let rowID: String = row[ItemColumns.id]
            let alarms = try AlarmRows.fetch(db, itemFilter: "SELECT ?", arguments: [rowID])[rowID] ?? []
            var detached = try ItemRows.event(row, alarms: alarms)
            let before = detached
            func carry<T: Equatable>(_ field: WritableKeyPath<Event, T>) {
                if detached[keyPath: field] == old[keyPath: field] { detached[keyPath: field] = new[keyPath: field] }
            }
            carry(\.title)
            carry(\.notes)
            carry(\.location)
            carry(\.url)
            carry(\.alarms)
            carry(\.calendarIdentifier)
            guard detached != before, let recurrence: Int64 = row["recurrence_id"], let seriesID: String = row["series_id"] else { continue }
            detached.sequence = max(detached.sequence, new.sequence)
            try ItemRows.upsert(
                detached, rowID: rowID, series: (seriesID, Instant(secondsSince1970: recurrence)),
                created: detached.creationDate ?? stamp, modified: stamp, in: db)
        }
    }

    /// Ends a series just before `occurrence`: every rule gets an UNTIL one second (or one day)
    /// earlier, later RDATEs go, and detached occurrences from then on are dropped.
    static func endSeries(
        _ master: Event, before occurrence: Instant, stamp: Instant, zone: ZoneRules, changedHere: Bool = false, in db: Database
    ) throws {
        var truncated = master
        if changedHere {
            truncated.sequence += 1
            markModified(&truncated, at: stamp)
        }
        let until = untilValue(before: occurrence, of: master, zone: zone)
        truncated.recurrenceRules = try master.recurrenceRules.map { try $0.with(end: .until(until)) }
        truncated.recurrenceDates = master.recurrenceDates.filter { ItemRows.instant(of: $0, in: master.start) < occurrence }
        try ItemRows.upsert(
            truncated, rowID: master.identifier, series: nil, created: master.creationDate ?? stamp,
            modified: stamp, in: db)
        try db.execute(
            sql: "DELETE FROM item WHERE series_id = ? AND recurrence_id >= ?",
            arguments: [master.identifier, occurrence.secondsSince1970])
        try Journal.record(db, .event, master.identifier, .updated)
    }

    /// The new series a `.futureEvents` save starts at `occurrence`.
    static func successor(of master: Event, from occurrence: Instant, edited: Event, id: String, zone: ZoneRules) throws -> Event {
        var next = edited
        next.identifier = id
        next.externalIdentifier = id
        next.isDetached = false
        next.occurrenceDate = nil
        if edited.recurrenceRules == master.recurrenceRules {
            // COUNT continues where the original stopped: minus the instances it keeps.
            next.recurrenceRules = try master.recurrenceRules.map { rule -> RecurrenceRule in
                guard case .count(let n) = rule.end else { return rule }
                let single = RecurrenceSet(start: master.start, rules: [rule])
                let before = single.occurrences(floatingZone: zone).prefix { $0.instant < occurrence }.count
                return try rule.with(end: .count(max(1, n - before)))
            }
        }
        if edited.recurrenceDates == master.recurrenceDates {
            next.recurrenceDates = master.recurrenceDates.filter { ItemRows.instant(of: $0, in: master.start) >= occurrence }
        }
        if edited.exceptionDates == master.exceptionDates {
            next.exceptionDates = master.exceptionDates.filter { ItemRows.instant(of: $0, in: master.start) >= occurrence }
        }
        return next
    }

    static func untilValue(before occurrence: Instant, of master: Event, zone: ZoneRules) -> RecurrenceUntil {
        switch master.start {
        case .allDay: return .date(zone.localTime(at: occurrence).date.adding(days: -1))
        case .floating: return .local(LocalDateTime(localSeconds: zone.localTime(at: occurrence).localSeconds - 1))
        case .utc, .zoned: return .utc(Instant(secondsSince1970: occurrence.secondsSince1970 - 1))
        }
    }

    static func exceptionDate(for occurrence: Instant, of master: Event, zone: ZoneRules) -> RecurrenceDate {
        switch master.start {
        case .allDay: return .date(zone.localTime(at: occurrence).date)
        case .floating: return .local(zone.localTime(at: occurrence))
        case .utc, .zoned: return .instant(occurrence)
        }
    }
}
