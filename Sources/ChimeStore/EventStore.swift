import ChimeCore
import Foundation
import GRDB
import Synchronization

/// The calendar database (EventKit's `EKEventStore`): calendars, events, reminders and their
/// alarms in one SQLite file, shared safely by every process that opens it.
///
/// Keep one store per process. Writes are transactions; `save(…, commit: false)` queues a
/// change, `commit()` writes the queue in one transaction and `reset()` drops it. Every write
/// appends to a change journal in the same transaction, which ``changes`` streams to observers
/// in this and other processes.
///
/// ```swift
/// let store = try EventStore(path: "/tmp/demo.sqlite")
/// let calendar = try store.defaultCalendarForNewEvents()
/// let event = Event(title: "Dentist", calendar: calendar.identifier,
///                   start: .zoned(LocalDateTime(year: 2026, month: 12, day: 3, hour: 14), try .named("Europe/Berlin")),
///                   duration: 3600)
/// try store.save(event, span: .thisEvent)
/// ```
public final class EventStore: Sendable {
    /// The titles of the calendar and the reminder list made on first use, in the user's language
    /// (the store keeps no language of its own: the command that first needs one names it).
    ///
    /// ```swift
    /// let store = try EventStore(path: path, newCalendarTitles: .init(events: "Kalender", reminders: "Erinnerungen"))
    /// ```
    public struct NewCalendarTitles: Hashable, Sendable {
        public var events: String
        public var reminders: String
        public init(events: String, reminders: String) {
            self.events = events
            self.reminders = reminders
        }
        public static let english = NewCalendarTitles(events: "Calendar", reminders: "Reminders")
    }
    let newCalendarTitles: NewCalendarTitles

    /// The database file.
    public let path: String
    /// The zone floating times and all-day dates are read in: the one given at init, else the
    /// system zone as it is now (read again for every operation, so a long-lived store follows
    /// a change of `/etc/localtime`).
    public var floatingZone: ZoneRules { zoneSource() }
    private let zoneSource: @Sendable () -> ZoneRules
    let pool: DatabasePool
    let now: @Sendable () -> Instant
    /// The clock the store was opened with: what "now" is for it and for what serves from it.
    public var clock: @Sendable () -> Instant { now }
    /// Writes saved with `commit: false`, each with how many items it stores (see ``perform(commit:rows:_:)``).
    let pending = Mutex<[(write: PendingWrite, rows: Int)]>([])
    let watcher: ChangeWatcher
    /// Whether this store committed a write (``foldWriteAheadLog()`` does nothing for a reader).
    private let hasWritten = Mutex(false)
    /// Serializes reads of a `longLived` store (the daemon).
    let readGate: NSLock?
    let unreadable = UnreadableRows()
    /// Events window queries decoded, kept while the file is unchanged (not in a `longLived`
    /// store: the daemon stays small while it waits).
    let decodedEvents: DecodedEvents

    typealias PendingWrite = @Sendable (Database, Instant) throws -> Void

    /// Opens (creating if needed) the store at `path`.
    ///
    /// - Parameters:
    ///   - floatingZone: the zone floating and all-day times are read in; default the system zone,
    ///     read anew for each operation (``SystemZone/current(environment:localtime:)``).
    ///   - clock: where creation, modification and completion dates come from (inject one in tests).
    ///   - longLived: true for a process that reads the store and then waits for hours (the
    ///     daemon). Such a store is not read through a memory map (the mapped pages it touched stay
    ///     counted in its resident memory; others map it, for faster queries on a large store),
    ///     and takes its reads one at a time: GRDB's reader pool guards itself with a concurrent
    ///     dispatch queue, and two reads meeting there can start a libdispatch worker, and with it
    ///     a pool monitor that wakes the process every second for good. Nor does it keep the
    ///     events its window queries decoded for the next query (other stores do, from their
    ///     second query on, until the file changes), so its memory stays what it is at start.
    /// - Throws: ``StoreError`` when the file is not a Chime store, was written by a newer schema,
    ///   or cannot be created. A file that is not a Chime store is never modified.
    public convenience init(
        path: String, floatingZone: ZoneRules? = nil,
        clock: @escaping @Sendable () -> Instant = EventStore.systemNow,
        longLived: Bool = false, newCalendarTitles: NewCalendarTitles = .english
    ) throws(StoreError) {
        try self.init(
            path: path, floatingZone: floatingZone, clock: clock, busyTimeout: 10, longLived: longLived,
            newCalendarTitles: newCalendarTitles)
    }

    /// `busyTimeout`: how long a write waits for another process's write lock (tests shorten it).
    init(
        path: String, floatingZone: ZoneRules?, clock: @escaping @Sendable () -> Instant,
        busyTimeout: Double, longLived: Bool = false, newCalendarTitles: NewCalendarTitles = .english
    ) throws(StoreError) {
        self.path = path
        self.newCalendarTitles = newCalendarTitles
        if let floatingZone { zoneSource = { floatingZone } } else { zoneSource = { SystemZone.current() } }
        self.now = clock
        try StoreLocation.prepare(path: path)
        // A store the user may read but not write (a shared or backed-up copy) is opened
        // read-only: its queries work, and a change says why it cannot be made.
        let folder = (path as NSString).deletingLastPathComponent
        let readOnly = Glibc.access(path, W_OK) != 0 || Glibc.access(folder.isEmpty ? "." : folder, W_OK) != 0
        var config = Configuration()
        config.readonly = readOnly
        config.foreignKeysEnabled = true
        // Other processes' writes wait in SQLite's busy handler, never in a sleep of ours.
        config.busyMode = .timeout(busyTimeout)
        // Statement journals (every upsert that checks foreign keys keeps one) in memory, not in
        // a temporary file: an import of 12,000 items wrote 700 MB to one, 4 KiB at a time.
        // Reads map the file instead of copying each page through a read call: a window query
        // touches a few thousand rows spread over a large store.
        // A new file gets 8 KiB pages: half the log frames, checkpoint copies and read calls for
        // the same rows. SQLite takes the size only before the first table or at a VACUUM outside
        // WAL mode, and the pool keeps a writable store in WAL, so a store made before keeps its
        // 4 KiB.
        config.prepareDatabase { db in
            db.add(function: TitleMatch.sqlFunction)
            try db.execute(sql: "PRAGMA temp_store = MEMORY")
            try db.execute(sql: "PRAGMA page_size = \(Self.newStorePageSize)")
            if !longLived { try db.execute(sql: "PRAGMA mmap_size = 268435456") }
        }
        let pool: DatabasePool
        do {
            pool = try DatabasePool(path: path, configuration: config)
            if readOnly {
                if let verdict = try pool.read({ db in try Self.refusal(db, path: path) }) { throw verdict }
                guard try pool.read({ db in try Schema.migrator.hasCompletedMigrations(db) }) else { throw StoreError.readOnly(at: path) }
            } else {
                try Self.checkAndMigrate(pool, path: path)
            }
        } catch let error as StoreError {
            throw error
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
            throw .notADatabase(path: path)
        } catch {
            throw .from(error, path: path)
        }
        self.pool = pool
        self.readGate = longLived ? NSLock() : nil
        self.decodedEvents = DecodedEvents(keeps: !longLived)
        self.watcher = ChangeWatcher(pool: pool, path: path, readGate: readGate)
    }

    /// Opens the store at ``StoreLocation/defaultPath(environment:)``.
    public convenience init() throws(StoreError) {
        try self.init(path: StoreLocation.defaultPath())
    }

    deinit { watcher.stop() }

    /// Says once when this store's file is deleted or replaced by another file while the store is
    /// open (then the stream ends). SQLite goes on reading and writing the deleted file, which no
    /// other process sees: a long-lived process (the daemon) stops and starts again on the new one.
    ///
    /// ```swift
    /// for await why in store.fileReplacements { logger.error("\(why)"); break }
    /// ```
    public var fileReplacements: AsyncStream<String> { watcher.fileReplacements() }

    /// Copies what the write-ahead log holds into the store file itself (SQLite's passive
    /// checkpoint, which never waits for another process's reader). SQLite does this on its own only
    /// once the log passes 1,000 pages, so after a few `chime add` runs the file alone held nothing
    /// they wrote: a backup of `chime.sqlite` without its `-wal` lost them. A command calls this as it
    /// ends; it does something only when this store wrote (a reader leaves the file alone).
    ///
    /// ```swift
    /// _ = try store.save(reminder)
    /// store.foldWriteAheadLog()   // chime.sqlite alone now holds the reminder
    /// ```
    public func foldWriteAheadLog() {
        var info = stat()
        guard hasWritten.withLock({ $0 }), !pool.configuration.readonly, stat(path + "-wal", &info) == 0, info.st_size > 0 else { return }
        try? pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(PASSIVE)") }
    }

    /// The page size of a store file made from now on, in bytes.
    static let newStorePageSize = 8_192

    /// The system wall clock, in whole seconds.
    public static let systemNow: @Sendable () -> Instant = {
        Instant(secondsSince1970: Int64(Date().timeIntervalSince1970.rounded(.down)))
    }

    private static func checkAndMigrate(_ pool: DatabasePool, path: String) throws {
        let (verdict, applied) = try pool.read { db in (try refusal(db, path: path), try Schema.migrator.appliedIdentifiers(db)) }
        if let verdict { throw verdict }
        // A new file is made whole at once (checked again under the write lock: another process
        // may be making it too); the migrations then have nothing left to do.
        if applied.isEmpty {
            try pool.writeWithoutTransaction { db in
                try db.inTransaction(.immediate) {
                    _ = try Schema.makeNewStore(db)
                    return .commit
                }
            }
        }
        try Schema.migrator.migrate(pool)
        // A migration that rebuilt a table (v16: the server copies) leaves the old table's pages
        // free in the file; a store it emptied by more than a quarter is compacted once, here.
        // Best effort: another connection reading now makes it wait for a later version. A new
        // file (nothing applied) or a current one (all applied: the refusal let no unknown one in)
        // has nothing to compact.
        guard !applied.isEmpty, applied.count < Schema.migrator.migrations.count else { return }
        try? pool.writeWithoutTransaction { db in
            let free = try Int.fetchOne(db, sql: "PRAGMA freelist_count") ?? 0
            let pages = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
            guard free > pages / 4 else { return }
            try db.execute(sql: "VACUUM")
            // VACUUM wrote the whole file through the write-ahead log: fold it in and let it go.
            try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
        }
    }

    /// Why the database open in `db` is not a store this version may use, or nil.
    static func refusal(_ db: Database, path: String) throws -> StoreError? {
        let tables = try String.fetchSet(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
        if !tables.isEmpty && !tables.contains("grdb_migrations") { return .foreignDatabase(path: path) }
        if tables.contains("grdb_migrations") {
            let applied = try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations")
            let known = Set(Schema.migrator.migrations)
            let unknown = applied.filter { !known.contains($0) }
            if !unknown.isEmpty { return .newerSchema(path: path, unknownMigrations: unknown) }
        }
        return nil
    }

    // MARK: Transactions

    /// Runs `body` in one write transaction and maps database errors to ``StoreError``.
    func write<T>(_ body: (Database, Instant) throws -> T) throws(StoreError) -> T {
        let stamp = now()
        do {
            let result = try pool.write { db in
                let value = try body(db, stamp)
                try Journal.compact(db)
                return value
            }
            watcher.poke()
            hasWritten.withLock { $0 = true }
            return result
        } catch {
            throw .from(error, path: path)
        }
    }

    /// Empties SQLite's page caches of the connections this process holds (`PRAGMA
    /// shrink_memory`), keeping the connections open. For a long-lived process after a read it
    /// will not repeat soon, such as the daemon's start, which reads every item: each
    /// connection's cache (up to 2 MiB) would otherwise keep those pages for the life of the
    /// process, though the system's file cache has them anyway.
    ///
    /// ```swift
    /// try scheduler.start()
    /// store.releaseCaches()
    /// ```
    public func releaseCaches() {
        try? read { db in try db.execute(sql: "PRAGMA shrink_memory") }
        try? pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA shrink_memory") }
    }

    func read<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
        readGate?.lock()
        defer { readGate?.unlock() }
        do {
            return try pool.read(body)
        } catch {
            throw .from(error, path: path)
        }
    }

    /// Queues `write` (commit: false) or runs it with everything queued before it (commit: true).
    /// `rows`: how many items the write stores (one closure may insert a whole import's), for
    /// the page cache ``commit()`` gives a large batch.
    func perform(commit: Bool, rows: Int = 1, _ write: @escaping PendingWrite) throws(StoreError) {
        pending.withLock { $0.append((write, rows)) }
        if commit { try self.commit() }
    }

    /// Writes every change saved with `commit: false`, in one transaction: all or nothing.
    /// Either way the queue is emptied: after a failure nothing was written and the queued
    /// changes are discarded (save them again to retry).
    public func commit() throws(StoreError) {
        let queue = pending.withLock { queue in
            defer { queue.removeAll() }
            return queue
        }
        if queue.isEmpty { return }
        let queued = queue.map(\.write)
        let rows = queue.reduce(0) { $0 + $1.rows }
        try write { db, stamp in
            // A large batch (an import) touches more pages than SQLite's default 2 MB cache holds;
            // spilled pages are written to the WAL mid-transaction and again at commit.
            if rows >= Self.largeBatch {
                try Self.withLargeCache(db) { for w in queued { try w(db, stamp) } }
            } else {
                for w in queued { try w(db, stamp) }
            }
        }
    }

    /// Runs `body` with a page cache of ``largeBatchCacheKiB`` on `db`'s connection, then gives
    /// the connection its previous size back: for a write of most of the store at once, where the
    /// default 2 MB cache would spill pages to the WAL mid-transaction and write them again at
    /// commit, while a long-lived reader's memory stays as it was. (The daemon's start read ran
    /// 5 % faster with it, but the pages it had held left 1.3 MB of heap behind.)
    static func withLargeCache<T>(_ db: Database, _ body: () throws -> T) throws -> T {
        try withCache(db, kibibytes: largeBatchCacheKiB, body)
    }

    /// Runs `body` with a page cache of `kibibytes` on `db`'s connection, then gives it back its size.
    static func withCache<T>(_ db: Database, kibibytes: Int, _ body: () throws -> T) throws -> T {
        let previous = try Int.fetchOne(db, sql: "PRAGMA cache_size") ?? -2_000
        try db.execute(sql: "PRAGMA cache_size = -\(kibibytes)")
        defer { try? db.execute(sql: "PRAGMA cache_size = \(previous)") }
        return try body()
    }

    /// Runs the writes queued so far in `db`, an open write transaction (a streamed import's),
    /// instead of keeping them for ``commit()``.
    func drain(_ db: Database, stamp: Instant) throws {
        let queue = pending.withLock { queue in
            defer { queue.removeAll() }
            return queue
        }
        for entry in queue { try entry.write(db, stamp) }
    }

    /// Queued writes from which ``commit()`` gives its transaction a larger page cache.
    static let largeBatch = 500
    static let largeBatchCacheKiB = 65_536

    /// Drops every change saved with `commit: false` and not yet committed.
    public func reset() {
        pending.withLock { $0.removeAll() }
    }

    /// True when changes are waiting for `commit()`.
    public var hasUncommittedChanges: Bool { pending.withLock { !$0.isEmpty } }
}
