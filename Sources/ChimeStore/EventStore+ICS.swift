import ChimeCore
import ChimeICS
import GRDB

/// Where `importICS` puts what it reads.
public enum ImportTarget: Hashable, Sendable {
    /// The default calendar (events) and the default list (reminders).
    case defaults
    /// Events into this event calendar (it must exist); reminders into the reminder list of the
    /// same name if there is one, else the default list.
    case existing(String)
    /// A new event calendar and/or reminder list with this name, created for the import.
    case new(String)
    /// A new calendar and/or list named as the file names itself (X-WR-CALNAME), else `fallback`
    /// (the file's name, say): `chime import work.ics --new-calendar`.
    case newNamedByFile(fallback: String)
    /// These calendars, by identifier (a synced collection holds one kind); UIDs are matched only
    /// inside them, so the same UID in another calendar is another item.
    case identified(events: String?, reminders: String?)
}

/// What an import did (or, with `dryRun`, would do).
public struct ImportReport: Hashable, Sendable {
    public var eventsAdded = 0, eventsUpdated = 0
    public var remindersAdded = 0, remindersUpdated = 0
    /// Same UID with an equal or older SEQUENCE / LAST-MODIFIED than what is stored: left alone.
    public var unchanged = 0, older = 0
    public var overrides = 0, cancelledOccurrences = 0
    public var alarms = 0, locationAlarms = 0
    /// Components not imported, with the reason (unsupported kinds, ones that cannot be an item).
    public var skipped: [ICSError] = []
    /// Faults repaired while reading, each `FILE:LINE: PROPERTY: the fault: what was done`.
    public var repairs: [ICSError] = []
    /// The titles of the calendars and lists that took a new or updated item, in the order they
    /// first took one (one title once; none known for a synced collection).
    public var calendars: [String] = []
    /// The new calendar an import was told to make (`.new`, `.newNamedByFile`) when nothing
    /// went into it (every item of the file was already stored in another calendar): it is not
    /// kept, and this is its title. Nil otherwise.
    public var newCalendarNotKept: String?

    public init() {}

    /// Whether the file held nothing to import: no item, occurrence or skipped component (its
    /// repairs aside), as an empty calendar or feed.
    ///
    /// ```swift
    /// if report.fileHeldNothing { print("nothing to import") }
    /// ```
    public var fileHeldNothing: Bool {
        var nothing = ImportReport()
        nothing.repairs = repairs
        return self == nothing
    }
}

/// A calendar an import writes into: its identifier, and its title where the import knows it.
struct ImportHome {
    let id: String
    let title: String?
    /// A calendar the import makes (`--new-calendar`), saved with the first item it takes.
    var unsaved: ChimeCore.Calendar? = nil
}

extension EventStore {
    /// Imports an iCalendar file in one transaction: all or nothing. A UID already in the store
    /// is updated when the file's SEQUENCE is higher (or equal with a newer LAST-MODIFIED), left
    /// alone otherwise; never duplicated.
    ///
    /// The file is read the way real clients read real files (``ICalendar/parse(_:file:strict:zones:)``):
    /// faults are repaired and listed in ``ImportReport/repairs``, a component that cannot be an
    /// item is skipped alone. An override whose RECURRENCE-ID names no instance of its series (a
    /// moved instance, an invitation to one instance) is kept as an extra occurrence of the
    /// series, unless the series excludes that instance. `strict` refuses any file that needed a
    /// repair or a skip instead.
    ///
    /// ```swift
    /// let report = try store.importICS(bytes, file: "work.ics", into: .new("Work"))
    /// print(report.eventsAdded, report.skipped.map(\.description))
    /// ```
    ///
    /// - Parameter progress: told each phase (read, then storing), for a terminal's benefit on
    ///   large files; the caller says it in the user's words.
    public func importICS(
        _ bytes: [UInt8], file: String, into target: ImportTarget = .defaults,
        dryRun: Bool = false, strict: Bool = false,
        progress: ((ImportProgress) -> Void)? = nil
    ) throws -> ImportReport {
        let parsed = try ICalendar.parse(bytes, file: file, strict: strict)
        return try importICS(parsed: consume parsed, file: file, into: target, dryRun: dryRun, strict: strict, progress: progress)
    }

    /// The same, for a file already read (a chunk at a time: ``ICalendar/parse(file:strict:chunks:)``).
    ///
    /// ```swift
    /// let parsed = try ICalendar.parse(file: "big.ics") { try handle.read(upToCount: 65_536).map(Array.init) }
    /// let report = try store.importICS(parsed: parsed, file: "big.ics")
    /// ```
    public func importICS(
        parsed: consuming ICSParseResult, file: String, into target: ImportTarget = .defaults,
        dryRun: Bool = false, strict: Bool = false,
        progress: ((ImportProgress) -> Void)? = nil
    ) throws -> ImportReport {
        try importParsed(
            consume parsed, file: file, into: target, dryRun: dryRun, strict: strict,
            authoritative: false, commit: true, progress: progress)
    }

    /// The body of ``importICS(_:file:into:dryRun:strict:progress:)`` on a parsed file.
    /// - Parameters:
    ///   - authoritative: the file is the item's source of truth (a server's copy during sync):
    ///     a stored UID is replaced whatever the SEQUENCE says, and its detached occurrences
    ///     are replaced by the file's overrides.
    ///   - commit: false leaves the writes queued, so a caller adds its own to the same transaction.
    func importParsed(
        _ parsed: consuming ICSParseResult, file: String, into target: ImportTarget, dryRun: Bool, strict: Bool,
        authoritative: Bool, commit: Bool, progress: ((ImportProgress) -> Void)? = nil
    ) throws -> ImportReport {
        progress?(.read(items: parsed.items.count, overrides: parsed.overrides.count))
        let session = try ImportSession(
            store: self, file: file, target: target, header: ICSCalendarHeader(name: parsed.calendarName, properties: parsed.calendarProperties),
            strict: strict, authoritative: authoritative, db: nil)
        session.unreadableOccurrences = parsed.unreadable.occurrences
        defer { if dryRun { reset() } }
        let masters = Set(parsed.items.map(\.uid))
        var (overrides, standIns) = try session.standIns(for: parsed.overrides) { masters.contains($0) }
        parsed.overrides = []
        // Series first (overrides need them), with cancelled occurrences folded in as EXDATEs.
        let cancellations = Dictionary(grouping: overrides.filter { $0.isCancelled }, by: { $0.uid })
        let overridden = Set(overrides.lazy.filter { !$0.isCancelled }.map { $0.uid })
        // Moved out of the file's list, so a large file's items are held once.
        var items = parsed.items
        parsed.items = []
        items += standIns
        try session.add(consume items, overridden: overridden, cancellations: cancellations)
        try session.cancel(overrides.filter { $0.isCancelled })
        try session.loadSeries(overridden)
        try session.applyOverrides(&overrides)
        session.noteUnusedNewCalendar()
        if !dryRun && commit {
            progress?(.storing(items: session.storedCount))
            try self.commit()
        }
        return session.report(skipped: parsed.skipped, repairs: parsed.repairs)
    }

    /// Imports an iCalendar file read a chunk at a time, each item written as it is read inside
    /// the one transaction, so that neither the file nor its items are ever held whole: a 100 MB
    /// file is imported in a small fraction of its size. The result is that of
    /// ``importICS(parsed:file:into:dryRun:strict:progress:)`` on the same file: the same items,
    /// repairs, warnings and counts. A file whose reading needs the whole file
    /// (``ICalendar/stream(file:chunks:each:)``) is read again that way: `open` is called
    /// once more, and must then give the file from its start again.
    ///
    /// ```swift
    /// let report = try store.importICS(file: "big.ics") {
    ///     let handle = try FileHandle(forReadingFrom: url)
    ///     return { () throws(ICSError) -> [UInt8]? in (try? handle.read(upToCount: 65_536)).flatMap { $0.isEmpty ? nil : Array($0) } }
    /// }
    /// ```
    public func importICS(
        file: String, into target: ImportTarget = .defaults, dryRun: Bool = false, strict: Bool = false,
        progress: ((ImportProgress) -> Void)? = nil,
        open: () throws -> () throws(ICSError) -> [UInt8]?
    ) throws -> ImportReport {
        // The reader's and the caller's own errors come out as they were thrown, not as the
        // store's; a dry run and a file that needs the whole-file read roll the transaction back.
        var failure: (any Error)?
        var outcome: ImportReport?
        // A strict read refuses the file at its first fault, which only the whole file says.
        var needsWholeFile = strict
        if !needsWholeFile {
            try streamedImport()
        }
        if needsWholeFile {
            let parsed = try ICalendar.parse(file: file, strict: strict, chunks: try open())
            return try importICS(parsed: parsed, file: file, into: target, dryRun: dryRun, strict: strict, progress: progress)
        }
        guard let report = outcome else { throw StoreError.database(path: path, resultCode: nil, message: "the import ended without a report") }
        return report

        func streamedImport() throws {
            do {
                try write { db, stamp in
                    do {
                        // Into an empty store the item indexes are built once the rows are in,
                        // and the rows alone need a smaller cache.
                        let deferred = try DeferredIndexes.dropIfEmpty(db)
                        let cache = deferred.isEmpty ? Self.streamingCacheKiB : Self.streamingCacheWithoutIndexesKiB
                        try Self.withCache(db, kibibytes: cache) {
                            let next = try open()
                            // Read once for both threads: an item the store holds already is an
                            // update (or unchanged), whose row values the reader need not work out.
                            let known = try self.storedUIDs(in: Self.calendarScope(target))
                            var session: ImportSession?
                            var masters = Set<Int>()
                            // The file is parsed on a thread of its own while the items read
                            // before are stored on this one.
                            let leftovers = ReadWhileStoring.Leftovers()
                            let rest = try ReadWhileStoring.run { hand in
                                var batch: [ImportEntry] = []
                                var header: ICSCalendarHeader?
                                let rest = try ICalendar.stream(file: file, chunks: next) { (item: consuming ICSItem, itemHeader) in
                                    if header == nil { header = itemHeader }
                                    // A new item's row values are worked out here only while the storing
                                    // thread is behind; else it works them out as it writes the row.
                                    // Neither thread is always the longer: which one is depends on the
                                    // file (rules, alarms, long texts) and on the machine. The item is
                                    // handed over whole, so taking out its calendar's name copies nothing.
                                    let isNew = known.isEmpty || !known.contains(Self.uidKey(item.uid, item.item))
                                    batch.append(ImportEntry(item, withValues: isNew && hand.storeIsBehind))
                                    if batch.count >= Self.streamingBatch {
                                        try hand((batch, header))
                                        batch = []
                                        leftovers.free()
                                    }
                                }
                                if rest != nil && !batch.isEmpty { try hand((batch, header)) }
                                return rest
                            } store: { (read: inout (items: [ImportEntry], header: ICSCalendarHeader?)) in
                                // Taken out of the batch, the items are this thread's alone: the
                                // import changes each in place instead of copying it.
                                let batch = read.items
                                read.items = []
                                if session == nil, let header = read.header {
                                    session = try ImportSession(
                                        store: self, file: file, target: target, header: header, strict: strict, authoritative: false, db: db, known: known)
                                }
                                // By index: `for item in batch` copied each entry whole (every field retained).
                                for index in batch.indices { masters.insert(ImportSession.uidHash(batch[index].entry.uid)) }
                                try session?.add(prepared: batch, overridden: nil, cancellations: [:])
                                try self.drain(db, stamp: stamp)
                                if let session { leftovers.keep(session.takeStored()) }
                            }
                            guard var rest else {
                                needsWholeFile = true
                                throw StreamingRollback()
                            }
                            progress?(.read(items: session?.itemCount ?? 0, overrides: rest.overrides.count))
                            // Before the overrides, which look their series up by UID.
                            try deferred.restore(db, rowsCacheKiB: cache)
                            let current =
                                try session
                                ?? ImportSession(
                                    store: self, file: file, target: target,
                                    header: ICSCalendarHeader(name: rest.calendarName, properties: rest.calendarProperties),
                                    strict: strict, authoritative: false, db: db, known: known)
                            var (overrides, standIns) = try current.standIns(for: rest.overrides) { masters.contains(ImportSession.uidHash($0)) }
                            rest.overrides = []
                            let standInUIDs = Set(standIns.map(\.uid))
                            try current.cancel(overrides.filter { $0.isCancelled && !standInUIDs.contains($0.uid) })
                            try current.loadSeries(Set(overrides.lazy.filter { !$0.isCancelled && !standInUIDs.contains($0.uid) }.map(\.uid)))
                            try current.add(
                                standIns, overridden: standInUIDs,
                                cancellations: Dictionary(grouping: overrides.filter { $0.isCancelled && standInUIDs.contains($0.uid) }, by: \.uid))
                            try current.applyOverrides(&overrides)
                            current.noteUnusedNewCalendar()
                            try self.drain(db, stamp: stamp)
                            outcome = current.report(skipped: rest.skipped, repairs: rest.repairs)
                            if dryRun { throw StreamingRollback() }
                            progress?(.storing(items: current.storedCount))
                        }
                    } catch {
                        if !(error is StreamingRollback) { failure = error }
                        throw StreamingRollback()
                    }
                }
            } catch {
                reset()
                // The reader's own errors as they are; the database's as the store says them (a full disk…).
                if let failure { throw (failure as? ICSError).map { $0 as any Error } ?? StoreError.from(failure, path: path) }
                if !(needsWholeFile || (dryRun && outcome != nil)) { throw error }
            }
        }
    }

    /// Items a streamed import stores per write (its queued writes are run each time).
    static let streamingBatch = 256
    /// A streamed import's page cache: small beside the file it reads, large enough that its
    /// index pages rarely spill mid-transaction (a 100 MB file's import peaked at 79 MiB and took
    /// 1.03× the time of the import that held every item; 16 MiB spilled: 60 MiB, 1.08×).
    static let streamingCacheKiB = 32_768
    /// The same while ``DeferredIndexes`` holds the item indexes back: only the table and its
    /// identifiers' index take pages. The 100 MB file, the build's in-memory sort included:
    /// 16 MiB peaked at 81 MiB, as 32 MiB had with every index kept; 32 MiB peaked at 101 MiB.
    static let streamingCacheWithoutIndexesKiB = 16_384

    /// Thrown to roll back a streamed import's transaction (a dry run, a file read again whole).
    private struct StreamingRollback: Error {}

    /// Every event (series, single, detached occurrence) and reminder, for export.
    ///
    /// ```swift
    /// let bytes = ICalendar.serialize(try store.allItems(in: nil), now: now, floatingZone: store.floatingZone)
    /// ```
    public func allItems(in calendars: [ChimeCore.Calendar]?) throws(StoreError) -> [AnyCalendarItem] {
        try read { db in
            var filter = "1"
            var arguments: StatementArguments = []
            if let calendars {
                filter = "calendar_id IN (\(calendars.map { _ in "?" }.joined(separator: ",")))"
                arguments = StatementArguments(calendars.map(\.identifier))
            }
            let alarms = try AlarmRows.fetch(
                db, itemFilter: calendars == nil ? nil : "SELECT id FROM item WHERE \(filter)",
                arguments: arguments)
            // The order is the store's contents, not its random ids: two exports of the same items are the same file.
            let rows = try Row.fetchCursor(
                db, sql: "SELECT \(ItemColumns.list) FROM item WHERE \(filter) ORDER BY series_id IS NOT NULL, created, external_id, kind, recurrence_id, id",
                arguments: arguments)
            var items: [AnyCalendarItem] = []
            while let row = try rows.next() {
                let id: String = row[ItemColumns.id]
                if let item = unreadable.decode(row, { row throws(StoreError) in try ItemRows.item(row, alarms: alarms[id] ?? []) }) {
                    items.append(item)
                }
            }
            return items
        }
    }

    /// The calendar (events) and list (reminders) an import writes into, each with its title
    /// where the import knows it (a synced collection's is not needed). A new one keeps the
    /// file's calendar-level properties, and is not saved yet: the import saves it when an item
    /// goes into it (``ImportHome/unsaved``), so a file whose items all stay where they are
    /// stored leaves no empty calendar behind.
    /// - Parameter db: an open write transaction (a streamed import), where a missing default
    ///   calendar is made; nil: it is made in a write of its own.
    func calendars(
        for target: ImportTarget, events: Bool, reminders: Bool, properties: [String], in db: Database?
    ) throws -> (ImportHome?, ImportHome?) {
        func home(_ c: ChimeCore.Calendar?) -> ImportHome? { c.map { ImportHome(id: $0.identifier, title: $0.title) } }
        switch target {
        case .defaults:
            return (
                events ? home(try defaultCalendar(for: .event, in: db)) : nil,
                reminders ? home(try defaultCalendar(for: .reminder, in: db)) : nil
            )
        case .existing(let name):
            let eventCalendar = try calendar(matching: name, for: .event, in: db)
            let namedList = try calendar(matching: name, for: .reminder, in: db)
            guard eventCalendar != nil || (!events && namedList != nil) else { throw StoreError.unknownCalendar(name) }
            let list = reminders ? try namedList ?? defaultCalendar(for: .reminder, in: db) : nil
            return (events ? home(eventCalendar) : nil, home(list))
        case .identified(let events, let reminders):
            return (events.map { ImportHome(id: $0, title: nil) }, reminders.map { ImportHome(id: $0, title: nil) })
        case .newNamedByFile(let fallback):
            // The import names it from the file first; reached only without a file name.
            return try calendars(for: .new(fallback), events: events, reminders: reminders, properties: properties, in: db)
        case .new(let name):
            var result: (ImportHome?, ImportHome?) = (nil, nil)
            // A second import of a file into a new calendar of its name would make a twin.
            for (kind, wanted) in [(EntityType.event, events), (.reminder, reminders)] where wanted {
                if let existing = try calendar(named: name, for: kind, in: db), existing.title.lowercased() == name.lowercased() {
                    // Named as it is stored: `--new-calendar WORK` where "work" exists.
                    throw StoreError.calendarExists(title: existing.title, entityType: kind)
                }
            }
            func made(_ kind: EntityType) -> ImportHome {
                var c = ChimeCore.Calendar(title: name, entityType: kind)
                c.icsExtras = properties
                return ImportHome(id: c.identifier, title: name, unsaved: c)
            }
            if events { result.0 = made(.event) }
            if reminders { result.1 = made(.reminder) }
            return result
        }
    }

    struct Stored {
        var item: AnyCalendarItem
        var sequence: Int
        var lastModified: Instant?
    }

    /// Which stored items an import matches UIDs against: series and reminders other than
    /// completed copies of recurring ones that kept their series' UID, in every calendar; or, in identified calendars (a
    /// synced collection, where a completed copy is a resource of its own), all of them there.
    /// X-WR-CALNAME as a calendar title: on one line, trimmed; nil when nothing is left.
    static func calendarTitle(_ name: String?) -> String? {
        guard let name else { return nil }
        let line = name.split(whereSeparator: \.isNewline).joined(separator: " ")
        guard let first = line.firstIndex(where: { !$0.isWhitespace }),
            let last = line.lastIndex(where: { !$0.isWhitespace })
        else { return nil }
        return String(line[first...last])
    }

    static func calendarScope(_ target: ImportTarget) -> (sql: String, arguments: StatementArguments) {
        // A completed copy of a repeating reminder that kept its series' UID is not a match of
        // its own (the series is); one with a UID of its own (Chime's export of a ticked-off
        // instance) is, so the file that carries it back does not add it twice.
        guard case .identified(let events, let reminders) = target else {
            return (
                " AND (completed_series_id IS NULL OR external_id NOT IN (SELECT s.external_id FROM item AS s WHERE s.id = item.completed_series_id))",
                []
            )
        }
        let ids = [events, reminders].compactMap { $0 }
        return (" AND calendar_id IN (\(ids.map { _ in "?" }.joined(separator: ",")))", StatementArguments(ids))
    }

    /// UIDs already stored (series and reminders), with their kind: one read instead of one per item.
    func storedUIDs(in scope: (sql: String, arguments: StatementArguments)) throws -> Set<String> {
        try read { db in
            var keys = Set<String>()
            let rows = try Row.fetchCursor(
                db, sql: "SELECT kind, external_id FROM item WHERE series_id IS NULL" + scope.sql,
                arguments: scope.arguments)
            while let row = try rows.next() { keys.insert((row[0] as String) + " " + (row[1] as String)) }
            return keys
        }
    }

    static func uidKey(_ uid: String, _ item: AnyCalendarItem) -> String { item.kindName + " " + uid }

    /// The stored series or reminder of each entry's UID (not detached occurrences nor completed
    /// copies), by ``uidKey(_:_:)``, read in one transaction: one read per item was a third of
    /// importing a file whose items are all stored already.
    func storedItems(_ entries: [ICSItem], in scope: (sql: String, arguments: StatementArguments)) throws -> [String: Stored] {
        if entries.isEmpty { return [:] }
        return try read { db in
            var stored: [String: Stored] = [:]
            for entry in entries {
                stored[Self.uidKey(entry.uid, entry.item)] = try Self.storedItem(db, uid: entry.uid, kind: entry.item.kindName, scope: scope)
            }
            return stored
        }
    }

    /// The stored series or reminder of one UID and kind, read in `db`.
    static func storedItem(_ db: Database, uid: String, kind: String, scope: (sql: String, arguments: StatementArguments)) throws -> Stored? {
        let statement = try db.cachedStatement(sql: Self.storedItemSQL(scope: scope.sql))
        guard let row = try Row.fetchOne(statement, arguments: [uid, kind] + scope.arguments) else { return nil }
        let id: String = row[ItemColumns.id]
        let item = try ItemRows.item(row, alarms: AlarmRows.fetch(db, itemFilter: "?", arguments: [id])[id] ?? [])
        return Stored(item: item, sequence: row[ItemColumns.sequence], lastModified: Self.lastModified(item.icsExtras))
    }

    /// The lookup of one UID's stored item, by the UID's index: without statistics, SQLite chose
    /// the range index for `kind = ?` and read every event of the store per lookup, so that
    /// importing a 10,000-event file a second time took minutes.
    static func storedItemSQL(scope: String) -> String {
        """
        SELECT \(ItemColumns.list) FROM item INDEXED BY item_external_id
        WHERE external_id = ? AND kind = ? AND series_id IS NULL\(scope) ORDER BY created LIMIT 1
        """
    }

    static func isNewer(_ entry: ICSItem, than stored: Stored) -> Bool {
        let sequence = entry.item.sequence
        if sequence != stored.sequence { return sequence > stored.sequence }
        guard let incoming = entry.lastModified else { return false }
        guard let known = stored.lastModified else { return true }
        return incoming > known
    }

    /// The file's LAST-MODIFIED, kept among the preserved lines.
    private static func lastModified(_ extras: [String]) -> Instant? {
        guard let line = extras.first(where: { $0.hasPrefix("LAST-MODIFIED") }),
            let value = line.split(separator: ":").last, case .utc(let l)? = BasicDateTime.parse(value)
        else { return nil }
        return Instant(utc: l)
    }

    static func exceptionDate(_ d: CalendarDate, of series: Event) -> RecurrenceDate {
        switch d {
        case .allDay(let day): return .date(day)
        case .floating(let l): return .local(l)
        case .utc(let l): return .instant(Instant(utc: l))
        case .zoned(let l, let z): return series.start.timeZone == z ? .local(l) : .instant(z.instant(for: l))
        }
    }
}

/// A phase of a large import, for a progress line: the file read (items and the overrides of
/// their occurrences), then the items being stored in one transaction.
///
/// ```swift
/// try store.importICS(bytes, file: "big.ics") { phase in if case .storing(let n) = phase { print("storing \(n)…") } }
/// ```
public enum ImportProgress: Sendable, Equatable {
    case read(items: Int, overrides: Int)
    case storing(items: Int)
}

/// An item of a file on its way into the store, with what can be worked out from it alone,
/// before the store is asked anything: the name of its calendar in an export of several
/// (X-CHIME-CALENDAR, taken out of its preserved lines) and, when worked out ahead, its row's
/// values. A streamed import makes these on its reading thread, with the values only while its
/// storing thread is behind.
///
/// ```swift
/// let entry = ImportEntry(item, withValues: true)   // on the reading thread
/// try session.add(prepared: [entry], overridden: nil, cancellations: [:])
/// ```
struct ImportEntry: Sendable {
    var entry: ICSItem
    /// The calendar name the item's X-CHIME-CALENDAR line gave, if any.
    let calendarMarker: String?
    /// The row's values; nil: worked out when the row is written.
    var values: ItemRows.RowValues?

    init(_ item: consuming ICSItem, withValues: Bool) {
        var entry = item
        calendarMarker = entry.item.changeInPlace(
            event: { ICalendar.takeCalendarMarker(&$0.icsExtras) }, reminder: { ICalendar.takeCalendarMarker(&$0.icsExtras) })
        values = withValues ? ItemRows.RowValues(entry.item) : nil
        self.entry = entry
    }

    /// Each item as an entry without values, moved out of `items` one by one (never two copies of an item).
    static func taking(_ items: consuming [ICSItem]) -> [ImportEntry] {
        var items = items
        var entries: [ImportEntry] = []
        entries.reserveCapacity(items.count)
        items.reverse()
        while let item = items.popLast() { entries.append(ImportEntry(item, withValues: false)) }
        return entries
    }
}

/// One import between its items and its overrides. Items are added as they are read (a parsed
/// file's all at once, a stream's a batch at a time); then the whole-file rules are applied:
/// stand-in series for occurrences whose series the file lacks, cancelled occurrences, changed
/// occurrences. Writes are queued on the store (run by its commit, or by a streamed import as it goes).
final class ImportSession {
    let store: EventStore
    let file: String
    let target: ImportTarget
    let strict: Bool
    let authoritative: Bool
    /// The new items of each ``add(_:overridden:cancellations:)``, held after their write is
    /// queued so that the thread that made them can free them.
    private var stored: [any Sendable] = []
    /// Changed occurrences the file holds but could not read, by UID: an authoritative import
    /// keeps their stored copies (see ``ICSParseResult/unreadable``).
    var unreadableOccurrences: [String: [CalendarDate]] = [:]
    /// A streamed import's open transaction: series are read back from it (nil: a parsed file,
    /// whose series are kept as they are added).
    let db: Database?
    private let header: ICSCalendarHeader
    private let scope: (sql: String, arguments: StatementArguments)
    /// Kind and UID of every stored series and reminder the import may match.
    private let known: Set<String>
    private var counts = ImportReport()
    /// The import's own skips and repairs, after the file's.
    private var skipped: [ICSError] = []
    private var repairs: [ICSError] = []
    private var eventCalendar: String??
    private var reminderList: String??
    /// The calendars the file's names send items to, by kind and cleaned name.
    private var homes: [HomeKey: String] = [:]
    private struct HomeKey: Hashable {
        let kind: EntityType
        let title: String
    }
    /// ``home(_:of:creating:)``'s first questions and answers.
    private var firstHomes: [FoundHome] = []
    private struct FoundHome {
        let marker: String
        let kind: EntityType
        let creating: Bool
        let id: String?
    }
    /// The first calendars ``took(_:)`` was told of: a file sends its items to a few calendars
    /// over and over, and comparing a few identifiers costs less than looking one up by hash.
    private var tookCalendars: [String] = []
    /// Calendar names as the file's markers give them, cleaned (nil: no name left).
    private var cleanedTitles: [String: String?] = [:]
    /// Titles of the calendars written into, by identifier; those that took an item, in order.
    private var titles: [String: String] = [:]
    private var used: [String] = []
    /// New calendars not saved yet, by identifier: saved when they take an item.
    private var unsaved: [String: ChimeCore.Calendar] = [:]
    /// Calendars an export's names made during this import: an update does not move into them.
    private var madeByImport: Set<String> = []
    private var storedCalendars: [String: ChimeCore.Calendar?] = [:]
    private var checkedCalendars: Set<String?> = []
    /// Series the overrides need, by UID.
    private var seriesByUID: [String: Event] = [:]
    /// UIDs whose stored copy was left as it is (same or older in the file): their overrides too.
    private var leftAlone: Set<String> = []
    /// UIDs whose item could not be stored: their overrides have no series.
    private var refused: Set<String> = []
    /// UIDs of changed occurrences whose series the file lacks but the store holds (an update
    /// to one instance of an invitation): they change the stored series' occurrences.
    private var storedOnly: Set<String> = []
    /// Events that stood for one occurrence of a series the file now brings, as its changed occurrences.
    private var loneOccurrences: [ICSOverride] = []
    /// Marks an event made of one occurrence whose series a file lacked, with its RECURRENCE-ID.
    static let loneOccurrenceMarker = "X-CHIME-OCCURRENCE-OF"

    /// The RECURRENCE-ID an event made of one occurrence stands for, taken out of its kept lines.
    static func takeLoneOccurrenceMarker(_ extras: inout [String]) -> CalendarDate? {
        guard let index = extras.firstIndex(where: { $0.hasPrefix(loneOccurrenceMarker + ":") }) else { return nil }
        let rid = CalendarDate(storageText: String(extras[index].dropFirst(loneOccurrenceMarker.count + 1)))
        extras.remove(at: index)
        return rid
    }

    /// Sequences of the stored changed occurrences of series kept as stored, by series and instant.
    private var storedOccurrences: [String: [Instant: Int]] = [:]
    private(set) var itemCount = 0
    private(set) var storedCount = 0

    init(
        store: EventStore, file: String, target: ImportTarget, header: ICSCalendarHeader, strict: Bool, authoritative: Bool,
        db: Database?, known: Set<String>? = nil
    ) throws {
        self.store = store
        self.file = file
        if case .newNamedByFile(let fallback) = target {
            self.target = .new(EventStore.calendarTitle(header.name) ?? fallback)
        } else {
            self.target = target
        }
        self.header = header
        self.strict = strict
        self.authoritative = authoritative
        self.db = db
        scope = EventStore.calendarScope(target)
        // `known`: the caller's read of the same (``EventStore/storedUIDs(in:)`` for this target).
        self.known = try known ?? store.storedUIDs(in: scope)
    }

    /// A UID's hash, for a streamed import's list of the UIDs it read.
    static func uidHash(_ uid: String) -> Int { uid.hashValue }

    /// The report: the file's skips and repairs, then the import's own.
    func report(skipped fileSkipped: [ICSError], repairs fileRepairs: [ICSError]) -> ImportReport {
        var report = counts
        report.skipped = fileSkipped + skipped
        report.repairs = fileRepairs + repairs
        report.calendars = used
        return report
    }

    private func calendar(for kind: EntityType) throws -> String? {
        if kind == .event, let eventCalendar { return eventCalendar }
        if kind == .reminder, let reminderList { return reminderList }
        let (events, reminders) = try store.calendars(
            for: target, events: kind == .event, reminders: kind == .reminder, properties: header.properties, in: db)
        for home in [events, reminders] {
            guard let home else { continue }
            if let title = home.title { titles[home.id] = title }
            if let calendar = home.unsaved { unsaved[home.id] = calendar }
        }
        if kind == .event { eventCalendar = .some(events?.id) } else { reminderList = .some(reminders?.id) }
        return kind == .event ? events?.id : reminders?.id
    }

    /// Notes, at the end, a new calendar (`--new-calendar`) that took nothing, each item of the
    /// file staying in the calendar that holds it: it was never saved, and the report names it.
    func noteUnusedNewCalendar() {
        let planned = [eventCalendar, reminderList].compactMap { $0 ?? nil }
        guard let first = planned.first, planned.allSatisfy({ unsaved[$0] != nil }) else { return }
        counts.newCalendarNotKept = titles[first]
    }

    /// A stored calendar by identifier, read once per import (in its transaction when it has one).
    private func storedCalendar(_ id: String) throws -> ChimeCore.Calendar? {
        if let known = storedCalendars[id] { return known }
        let calendar = try db.map { try EventStore.fetchCalendar($0, id) } ?? store.calendar(withIdentifier: id)
        storedCalendars[id] = .some(calendar)
        return calendar
    }

    /// Whether the calendar `id` takes changes (not a subscription's).
    private func isWritable(_ id: String) throws -> Bool { try storedCalendar(id)?.allowsModifications ?? false }

    /// Notes that the calendar `id` took an item, for the report (a calendar the import did not
    /// resolve itself, a stored item's, is read by its identifier; a synced collection's is not said).
    private func took(_ id: String?) throws {
        guard let id, !tookCalendars.contains(id) else { return }
        try takeFirst(id)
        if tookCalendars.count < 32 { tookCalendars.append(id) }
    }

    private func takeFirst(_ id: String) throws {
        if let calendar = unsaved.removeValue(forKey: id) {
            // Queued before the item's own write, which needs it.
            try store.saveCalendar(calendar, commit: false)
        }
        if titles[id] == nil {
            if case .identified = target { return }
            titles[id] = try storedCalendar(id)?.title
        }
        guard let title = titles[id], !used.contains(title) else { return }
        used.append(title)
    }

    /// An export of several calendars names each item's (X-CHIME-CALENDAR, the entry's
    /// ``ImportEntry/calendarMarker``): into the defaults each goes back to the calendar of that
    /// name, made when missing; otherwise the target says.
    /// Without `creating` (an update of an item stored here), only a calendar the store had
    /// before the import is taken: nil otherwise, and the item stays where it is.
    private func home(_ marker: String?, of kind: EntityType, creating: Bool = true) throws -> String? {
        guard case .defaults = target, let marker else { return nil }
        // A file names a few calendars over and over: comparing the first few answers' names
        // costs less than the two hashed lookups below. An answer holds for the rest of the
        // import, but for "none here" to an update: the import may make that calendar later.
        for found in firstHomes where found.kind == kind && found.creating == creating && found.marker == marker { return found.id }
        let id = try findHome(marker, of: kind, creating: creating)
        if firstHomes.count < 8, id != nil || creating { firstHomes.append(FoundHome(marker: marker, kind: kind, creating: creating, id: id)) }
        return id
    }

    private func findHome(_ marker: String, of kind: EntityType, creating: Bool) throws -> String? {
        // A file names a few calendars over and over: each name is cleaned once.
        let cleaned: String?
        if let known = cleanedTitles[marker] {
            cleaned = known
        } else {
            cleaned = EventStore.calendarTitle(marker)
            cleanedTitles[marker] = cleaned
        }
        guard let title = cleaned else { return nil }
        let key = HomeKey(kind: kind, title: title)
        if let id = homes[key] { return creating || !madeByImport.contains(id) ? id : nil }
        let id: String
        if let existing = try store.calendar(named: title, for: kind, in: db) {
            id = existing.identifier
        } else if !creating {
            return nil
        } else {
            let made = ChimeCore.Calendar(title: title, entityType: kind)
            try store.saveCalendar(made, commit: false)
            id = made.identifier
            madeByImport.insert(id)
        }
        homes[key] = id
        titles[id] = title
        return id
    }

    /// Stand-in series for the occurrences whose series the file lacks, with their repairs, and
    /// the overrides that have a series (in the file, or a stand-in).
    func standIns(
        for overrides: [ICSOverride], isMaster: (String) -> Bool
    ) throws -> (overrides: [ICSOverride], standIns: [ICSItem]) {
        let zone = store.floatingZone
        var standIns: [ICSItem] = []
        // An instance invited alone, without its series: the override is the item. Several
        // instances of one series without it become one item, as Thunderbird reads them: a
        // stand-in series on their original dates, each instance detached from it. Export
        // writes the instances only, so the UID never holds two masters and reads back the same.
        // A series the store holds (not a synced copy, which is whole) is the series of an
        // occurrence the file changes alone: it is never replaced by a stand-in.
        // (A stored single event or stand-in is no such series: the file's occurrences make
        // the item again, compared with it as before.)
        if !authoritative {
            for uid in Set(overrides.lazy.map(\.uid)) where !isMaster(uid) && known.contains("event " + uid) {
                guard let stored = try storedSeries(uid), stored.isRecurring, !stored.icsExtras.contains(ICalendar.standInSeriesMarker) else { continue }
                storedOnly.insert(uid)
            }
        }
        func hasSeries(_ uid: String) -> Bool { isMaster(uid) || storedOnly.contains(uid) }
        let orphans = Dictionary(grouping: overrides.filter { !$0.isCancelled && !hasSeries($0.uid) }, by: \.uid)
        var standInUIDs: Set<String> = []
        for (uid, group) in orphans.sorted(by: { $0.value[0].line < $1.value[0].line }) {
            let first = group.min {
                ($0.recurrenceID.instant(floatingZone: zone), $0.line) < ($1.recurrenceID.instant(floatingZone: zone), $1.line)
            }!
            if strict { throw ICSError(file: file, line: first.line, property: "RECURRENCE-ID", "no event with UID \(uid) for this override") }
            if group.count == 1 {
                var single = first.event
                single.externalIdentifier = uid
                // Kept with it (and written back by an export): the series, arriving later, takes
                // this event as its changed occurrence instead of being refused as older.
                single.icsExtras.append(Self.loneOccurrenceMarker + ":" + first.recurrenceID.storageText)
                standIns.append(ICSItem(item: .event(single), uid: uid, lastModified: nil, line: first.line))
                repairs.append(
                    ICSError(
                        file: file, line: first.line, property: "RECURRENCE-ID",
                        MessageText("no series with UID {uid} in the file: this occurrence is imported as an event of its own", ["uid": uid])))
                continue
            }
            var series = first.event
            let shape = Event(title: series.title, start: first.recurrenceID, duration: series.durationSeconds(floatingZone: zone))
            series.externalIdentifier = uid
            (series.start, series.end) = (shape.start, shape.end)
            (series.isDetached, series.occurrenceDate) = (false, nil)
            series.recurrenceRules = []
            series.exceptionDates = []
            series.recurrenceDates = group.filter { $0.recurrenceID != first.recurrenceID }.map {
                EventStore.exceptionDate($0.recurrenceID, of: series)
            }
            series.alarms = []  // each instance carries its own
            series.icsExtras = [ICalendar.standInSeriesMarker]
            standIns.append(ICSItem(item: .event(series), uid: uid, lastModified: nil, line: first.line))
            standInUIDs.insert(uid)
            repairs.append(
                ICSError(
                    file: file, line: first.line, property: "RECURRENCE-ID",
                    MessageText(
                        "no series with UID {uid} in the file: its {count} occurrences are kept as one item", ["uid": uid, "count": "\(group.count)"])))
        }
        // A cancellation of an occurrence whose series is not in the file has nothing to cancel.
        for o in overrides where o.isCancelled && !hasSeries(o.uid) {
            let problem = ICSError(
                file: file, line: o.line, property: "RECURRENCE-ID",
                MessageText("a cancelled occurrence of {uid}, which is not in the file: dropped", ["uid": o.uid]))
            if strict { throw problem.refused }
            repairs.append(problem)
        }
        var kept = overrides
        kept.removeAll { !standInUIDs.contains($0.uid) && !hasSeries($0.uid) }
        for i in kept.indices { _ = ICalendar.takeCalendarMarker(&kept[i].event.icsExtras) }
        return (kept, standIns)
    }

    /// Stores `entries` (queued writes): new UIDs inserted, stored ones updated when the file's
    /// copy is newer (always, when authoritative), refused values skipped.
    /// - Parameters:
    ///   - overridden: UIDs with changed occurrences, whose series are kept for them (nil: a
    ///     stream, which reads them back at the end instead).
    ///   - cancellations: cancelled occurrences by UID, folded into their series as EXDATEs.
    func add(_ entries: consuming [ICSItem], overridden: Set<String>?, cancellations: [String: [ICSOverride]]) throws {
        try add(prepared: ImportEntry.taking(entries), overridden: overridden, cancellations: cancellations)
    }

    /// The same for entries whose calendar names (and perhaps row values) were taken out before.
    func add(prepared entries: consuming [ImportEntry], overridden: Set<String>?, cancellations: [String: [ICSOverride]]) throws {
        let lenient = !strict
        // Taken out one by one, in file order from the reversed list: each entry is moved out, not
        // copied, its own copy freed as its prepared copy is made (never held twice for the whole
        // file), and a change to it copies nothing.
        var items = entries
        itemCount += items.count
        items.reverse()
        // Into a store without the file's UIDs (a new one), no key is made for each item.
        let storedCopies =
            known.isEmpty
            ? [:] : try store.storedItems(items.compactMap { known.contains(EventStore.uidKey($0.entry.uid, $0.entry.item)) ? $0.entry : nil }, in: scope)
        // New items are stored by plain inserts in one queued write (their calendars checked once,
        // below), without looking each one up first; stored ones are saved over their copies.
        var newEvents: [(Event, ItemRows.RowValues?)] = [], newReminders: [(Reminder, ItemRows.RowValues?)] = []
        var changed: [AnyCalendarItem] = []
        while var next = items.popLast() {
            var values = next.values
            let isEvent = if case .event = next.entry.item { true } else { false }
            let existing = storedCopies.isEmpty ? nil : storedCopies[EventStore.uidKey(next.entry.uid, next.entry.item)]
            let eventCalendar: String?, reminderList: String?
            let storedCalendar: String? =
                switch existing?.item {
                case .event(let e): e.calendarIdentifier
                case .reminder(let r): r.calendarIdentifier
                case nil: nil
                }
            if case .defaults = target, let storedCalendar, try isWritable(storedCalendar) {
                // Sent nowhere in particular, an update stays in its calendar (an export's name
                // aside): the default calendar is for new items, and for a stored copy in a
                // calendar that takes no changes (a subscription's).
                // A name this store lacks (the other device's default calendar, "Kalender" beside
                // "Calendar") makes no calendar for an update: it stays where it is.
                let stays = try home(next.calendarMarker, of: isEvent ? .event : .reminder, creating: false) ?? storedCalendar
                (eventCalendar, reminderList) = isEvent ? (stays, nil) : (nil, stays)
            } else {
                // The kind's calendar first: a default made now is the one an export's name finds.
                let kindCalendar = try calendar(for: isEvent ? .event : .reminder)
                let ownHome = try home(next.calendarMarker, of: isEvent ? .event : .reminder)
                (eventCalendar, reminderList) = (ownHome ?? (isEvent ? kindCalendar : nil), ownHome ?? (isEvent ? nil : kindCalendar))
            }
            // The series of an occurrence imported alone before: it replaces that event, which
            // becomes its changed occurrence (unless the file has its own).
            var replacesLoneOccurrence = false
            if let existing, !authoritative, case .event(let series) = next.entry.item, series.isRecurring,
                case .event(var lone) = existing.item, let rid = Self.takeLoneOccurrenceMarker(&lone.icsExtras)
            {
                lone.identifier = ""
                lone.calendarIdentifier = nil
                loneOccurrences.append(
                    ICSOverride(uid: next.entry.uid, recurrenceID: rid, thisAndFuture: false, isCancelled: false, event: lone, line: next.entry.line))
                replacesLoneOccurrence = true
            }
            if let existing, !authoritative, !replacesLoneOccurrence, !EventStore.isNewer(next.entry, than: existing) {
                if next.entry.item.sequence < existing.sequence { counts.older += 1 } else { counts.unchanged += 1 }
                if case .event(let e) = existing.item, overridden?.contains(next.entry.uid) == true { seriesByUID[next.entry.uid] = e }
                leftAlone.insert(next.entry.uid)
                continue
            }
            // The item taken out of its entry: a copy still shared with the entry would be copied
            // whole at its first change.
            var item = AnyCalendarItem.takeOut(&next.entry.item)
            item.changeInPlace { e in
                e.identifier = existing?.item.identifier ?? e.identifier
                e.calendarIdentifier = eventCalendar
            } reminder: { r in
                r.identifier = existing?.item.identifier ?? r.identifier
                // A ticked-off instance stays linked to its series (the file says it only as RELATED-TO).
                if case .reminder(let stored)? = existing?.item, r.seriesIdentifier == nil { r.seriesIdentifier = stored.seriesIdentifier }
                r.calendarIdentifier = reminderList
            }
            // A value the store cannot hold (a date after 9999, an alarm a century away) is refused
            // here, naming the component, before anything is written.
            do {
                switch item {
                case .event(let e): try e.validate()
                case .reminder(let r): try r.validate()
                }
            } catch {
                let problem = ICSError(file: file, line: next.entry.line, "UID \(next.entry.uid): \(error)")
                if lenient {
                    skipped.append(problem)
                    refused.insert(next.entry.uid)
                    continue
                } else {
                    throw problem
                }
            }
            if let existing, authoritative, case .event(let stored) = existing.item {
                // The file's overrides replace the stored detached occurrences (only once the file's
                // copy is known to be stored: a refused one leaves the stored series as it was),
                // except those the file holds in a form that cannot be read: not gone from it.
                let zone = store.floatingZone
                let kept = (unreadableOccurrences[next.entry.uid] ?? []).map {
                    EventStore.detachedRowID(stored.identifier, Self.recurrenceID($0, of: stored).instant(floatingZone: zone))
                }
                try store.perform(commit: false) { db, _ in
                    try db.execute(
                        sql: "DELETE FROM item WHERE series_id = ? AND id NOT IN (SELECT value FROM json_each(?))",
                        arguments: [stored.identifier, JSONText.stringArray(kept)])
                }
            }
            if let cancelled = cancellations[next.entry.uid] {
                values = nil
                item.changeInPlace { e in
                    for o in cancelled {
                        e.exceptionDates.append(EventStore.exceptionDate(o.recurrenceID, of: e))
                        counts.cancelledOccurrences += 1
                    }
                } reminder: { _ in
                    // Cancelled occurrences are an event's.
                }
            }
            switch item {
            case .event(let e):
                if overridden?.contains(next.entry.uid) == true || replacesLoneOccurrence { seriesByUID[next.entry.uid] = e }
                if existing == nil { counts.eventsAdded += 1 } else { counts.eventsUpdated += 1 }
                try took(eventCalendar)
            case .reminder:
                if existing == nil { counts.remindersAdded += 1 } else { counts.remindersUpdated += 1 }
                try took(reminderList)
            }
            for alarm in item.alarms {
                if alarm.structuredLocation != nil { counts.locationAlarms += 1 } else { counts.alarms += 1 }
            }
            switch item {
            case .event(let e) where existing == nil: newEvents.append((e, values))
            case .reminder(let r) where existing == nil: newReminders.append((r, values))
            case let other: changed.append(other)
            }
        }
        storedCount += newEvents.count + newReminders.count + changed.count
        var toCheck: [(String?, EntityType)] = []
        if !newEvents.isEmpty { toCheck.append((eventCalendar ?? nil, .event)) }
        if !newReminders.isEmpty { toCheck.append((reminderList ?? nil, .reminder)) }
        if !toCheck.isEmpty { toCheck += homes.map { ($0.value, $0.key.kind) } }
        toCheck.removeAll { checkedCalendars.contains($0.0) }
        if !toCheck.isEmpty {
            checkedCalendars.formUnion(toCheck.map(\.0))
            try store.perform(commit: false) { [toCheck] db, _ in
                for (id, kind) in toCheck { try EventStore.checkWritable(db, calendarID: id, for: kind) }
            }
        }
        try store.perform(commit: false, rows: newEvents.count + newReminders.count) { [newEvents, newReminders] db, stamp in
            let statements = try ItemRows.NewRowStatements(db)
            for (e, values) in newEvents { try EventStore.insert(e, stamp: stamp, journaled: false, values: values, statements: statements, in: db) }
            for (r, values) in newReminders { try EventStore.insert(r, stamp: stamp, journaled: false, values: values, statements: statements, in: db) }
            try Journal.record(db, .event, newEvents.map(\.0.identifier), .inserted)
            try Journal.record(db, .reminder, newReminders.map(\.0.identifier), .inserted)
        }
        // Kept past the write for the caller to free elsewhere (see ``takeStored()``).
        stored.append(newEvents)
        stored.append(newReminders)
        newEvents = []
        newReminders = []
        for item in changed {
            switch item {
            case .event(let e): try store.save(e, span: .thisEvent, commit: false)
            case .reminder(let r): try store.save(r, commit: false)
            }
        }
    }

    /// The new items added since the last call, once their writes have run (``EventStore/drain(_:stamp:)``):
    /// the last references to them, for the reading thread of a streamed import to free.
    func takeStored() -> [any Sendable] {
        defer { stored = [] }
        return stored
    }

    /// The occurrence a RECURRENCE-ID names in `master`: a DATE-TIME on an all-day series
    /// (Outlook writes them) names the day. One rule for the rows changed occurrences are stored
    /// under and the rows an authoritative import keeps.
    static func recurrenceID(_ rid: CalendarDate, of master: Event) -> CalendarDate {
        master.isAllDay && !rid.isAllDay ? .allDay(rid.local.date) : rid
    }

    /// Cancelled occurrences as EXDATEs of stored series: of series kept as stored (the file's
    /// copy is not newer, or the file has only the occurrence), where not excluded already; and,
    /// for a stream, of the series it stored (its queued writes must have run). A parsed file's
    /// own series had theirs folded in by ``add(_:overridden:cancellations:)``.
    func cancel(_ cancelled: [ICSOverride]) throws {
        for (uid, group) in Dictionary(grouping: cancelled, by: \.uid).sorted(by: { $0.value[0].line < $1.value[0].line }) {
            let keptAsStored = leftAlone.contains(uid) || storedOnly.contains(uid)
            guard !refused.contains(uid), keptAsStored || db != nil, var series = try storedSeries(uid) else { continue }
            var added = 0
            for o in group {
                let date = EventStore.exceptionDate(o.recurrenceID, of: series)
                if keptAsStored && series.exceptionDates.contains(date) {
                    counts.unchanged += 1
                    continue
                }
                // A cancellation older than the stored change of that occurrence (a reschedule
                // sent after it) is left out, as an older changed occurrence is.
                let instant = o.recurrenceID.instant(floatingZone: store.floatingZone)
                if keptAsStored, let stored = try storedOccurrenceSequences(series)[instant], o.event.sequence < stored {
                    counts.older += 1
                    continue
                }
                series.exceptionDates.append(date)
                added += 1
                if keptAsStored {
                    // A changed copy of the cancelled occurrence goes with it.
                    let row = EventStore.detachedRowID(series.identifier, instant)
                    try store.perform(commit: false) { db, _ in try db.execute(sql: "DELETE FROM item WHERE id = ?", arguments: [row]) }
                }
            }
            counts.cancelledOccurrences += added
            guard added > 0 else { continue }
            try took(series.calendarIdentifier)
            try store.save(series, span: .thisEvent, commit: false)
            seriesByUID[uid] = series
        }
    }

    /// The stored series changed occurrences name, where the import did not keep them as it
    /// stored them: a stream's (read back from its transaction) and those the file lacks.
    func loadSeries(_ uids: Set<String>) throws {
        for uid in uids where seriesByUID[uid] == nil && !refused.contains(uid) && (db != nil || storedOnly.contains(uid)) {
            seriesByUID[uid] = try storedSeries(uid)
        }
    }

    private func storedSeries(_ uid: String) throws -> Event? {
        let scope = scope
        let stored =
            try db.map { try EventStore.storedItem($0, uid: uid, kind: "event", scope: scope) }
            ?? store.read { db in try EventStore.storedItem(db, uid: uid, kind: "event", scope: scope) }
        guard case .event(let e)? = stored?.item else { return nil }
        return e
    }

    /// The SEQUENCE of each changed occurrence stored for `series`, by the instant it replaces.
    private func storedOccurrenceSequences(_ series: Event) throws -> [Instant: Int] {
        if let known = storedOccurrences[series.identifier] { return known }
        let id = series.identifier
        func read(_ db: Database) throws -> [Instant: Int] {
            var result: [Instant: Int] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT \(ItemColumns.list) FROM item WHERE series_id = ?", arguments: [id]) {
                if case .event(let e) = try ItemRows.item(row, alarms: []), let instant = e.occurrenceDate { result[instant] = e.sequence }
            }
            return result
        }
        let found = try db.map(read) ?? store.read(read)
        storedOccurrences[id] = found
        return found
    }

    /// Applies the changed occurrences to their series. A RANGE=THISANDFUTURE override splits
    /// its series; the RECURRENCE-IDs of later overrides still name original instances, which
    /// now belong to the new series, moved as the split moved them. So overrides go in
    /// RECURRENCE-ID order, each to the series that holds it.
    func applyOverrides(_ overrides: inout [ICSOverride]) throws {
        let lenient = !strict
        let zone = store.floatingZone
        for lone in loneOccurrences where !overrides.contains(where: { $0.uid == lone.uid && $0.recurrenceID == lone.recurrenceID }) {
            overrides.append(lone)
        }
        loneOccurrences = []
        var splits: [String: [(at: Instant, shift: Int64, series: Event)]] = [:]
        let ordered = overrides.enumerated().filter { !$0.element.isCancelled }.sorted {
            ($0.element.recurrenceID.instant(floatingZone: zone), $0.offset) < ($1.element.recurrenceID.instant(floatingZone: zone), $1.offset)
        }.map(\.element)
        overrides = []
        for o in ordered {
            guard let master = seriesByUID[o.uid] else {
                let problem = ICSError(file: file, line: o.line, property: "RECURRENCE-ID", "no event with UID \(o.uid) for this override")
                if lenient { skipped.append(problem); continue } else { throw problem }
            }
            let rid = Self.recurrenceID(o.recurrenceID, of: master)
            let original = rid.instant(floatingZone: zone)
            let split = splits[o.uid]?.last { $0.at <= original }
            var series = split?.series ?? master
            // The RECURRENCE-ID names the original instance, which the split moved (RFC 5545).
            let instant = original.adding(split?.shift ?? 0)
            if leftAlone.contains(o.uid) || storedOnly.contains(o.uid) {
                // A series kept as stored keeps each changed occurrence unless the file's is newer
                // (a higher SEQUENCE: an organizer's update to one instance, or to this and later ones).
                // One not newer is counted as a series would be: unchanged, or older than the stored copy.
                if let stored = try storedOccurrenceSequences(master)[instant], o.event.sequence <= stored {
                    if o.event.sequence < stored { counts.older += 1 } else { counts.unchanged += 1 }
                    continue
                }
                // An instance the stored series no longer has was split off before (by this
                // update, or the file's series read before), or made an extra date then: a second
                // split or RDATE would be wrong. A stored series the file lacks takes a changed
                // occurrence on a date it does not have as an extra date, said, as a file's does.
                if (leftAlone.contains(o.uid) || o.thisAndFuture) && !EventStore.isOccurrence(series, instant, zone: zone) {
                    counts.unchanged += 1
                    continue
                }
            }
            if rid != o.recurrenceID {
                let problem = ICSError(
                    file: file, line: o.line, property: "RECURRENCE-ID",
                    MessageText("a date-time on an all-day series: read as the date {date}", ["date": rid.storageText]))
                if strict { throw problem.refused }
                repairs.append(problem)
            }
            if !EventStore.isOccurrence(series, instant, zone: zone) {
                let problem = ICSError(
                    file: file, line: o.line, property: "RECURRENCE-ID",
                    MessageText("{occurrence} is not an occurrence of {uid}", ["occurrence": o.recurrenceID.storageText, "uid": o.uid]))
                if strict { throw problem }
                if series.exceptionDates.contains(EventStore.exceptionDate(rid, of: series)) {
                    repairs.append(
                        ICSError(
                            file: file, line: o.line, property: "RECURRENCE-ID",
                            MessageText("{problem}, and the series excludes it (EXDATE): dropped", parts: ["problem": problem.text!])))
                    continue
                }
                // The RECURRENCE-ID names the original instance; where the rule does not make it
                // one (edited rule, split series, a DATE-TIME id on an all-day series), it becomes
                // an extra date of the series, changed as the override says.
                series.recurrenceDates.append(
                    split == nil
                        ? EventStore.exceptionDate(rid, of: series)
                        : .instant(instant))
                try store.save(series, span: .thisEvent, commit: false)
                if split == nil {
                    seriesByUID[o.uid] = series
                } else if let i = splits[o.uid]?.lastIndex(where: { $0.at <= original }) {
                    splits[o.uid]![i].series = series
                }
                repairs.append(
                    ICSError(
                        file: file, line: o.line, property: "RECURRENCE-ID",
                        MessageText("{problem}: kept as an extra occurrence of the series (RDATE)", parts: ["problem": problem.text!])))
            }
            var occurrence = o.event
            occurrence.identifier = series.identifier
            occurrence.externalIdentifier = series.externalIdentifier  // a split series has a UID of its own
            occurrence.calendarIdentifier = series.calendarIdentifier
            occurrence.occurrenceDate = instant
            occurrence.recurrenceRules = series.recurrenceRules
            occurrence.isDetached = true
            if o.thisAndFuture {
                let newID = newIdentifier()
                let shift = occurrence.start.instant(floatingZone: zone).secondsSince1970 - instant.secondsSince1970
                let successor: Event
                if instant <= EventStore.firstInstant(series, zone: zone) {
                    // From the first instance on: the whole series changes, nothing splits off.
                    var whole = occurrence
                    whole.isDetached = false
                    whole.occurrenceDate = nil
                    successor = whole
                } else {
                    successor = try EventStore.successor(of: series, from: instant, edited: occurrence, id: newID, zone: zone)
                }
                try store.save(occurrence, span: .futureEvents, commit: false, newSeriesID: newID)
                splits[o.uid, default: []].append((at: original, shift: shift, series: successor))
            } else {
                try store.save(occurrence, span: .thisEvent, commit: false)
            }
            counts.overrides += 1
            try took(series.calendarIdentifier)
        }
    }
}

extension AnyCalendarItem {
    /// What a value holds while its event or reminder is taken out (no storage of its own to copy).
    static let vacated = AnyCalendarItem.reminder(Reminder(identifier: "", title: ""))

    /// The value of `item`, which is left holding a placeholder: the caller then holds its
    /// storage alone, and a change does not copy it.
    fileprivate static func takeOut(_ item: inout AnyCalendarItem) -> AnyCalendarItem {
        var taken = vacated
        swap(&taken, &item)
        return taken
    }

    /// Changes the event or the reminder in place: taken out of this value while it is changed,
    /// its storage is not shared, so the change copies nothing.
    fileprivate mutating func changeInPlace<Result>(
        event: (inout Event) throws -> Result, reminder: (inout Reminder) throws -> Result
    ) rethrows -> Result {
        switch self {
        case .event(var e):
            self = Self.vacated
            defer { self = .event(e) }
            return try event(&e)
        case .reminder(var r):
            self = Self.vacated
            defer { self = .reminder(r) }
            return try reminder(&r)
        }
    }
}
