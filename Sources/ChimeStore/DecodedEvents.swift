import ChimeCore
import GRDB
import Synchronization

/// Events a window query decoded, kept for the next query of the same store while the file is
/// unchanged: an app that asks for this week, then the next, then this week again decodes each
/// stored event once, not on every query.
///
/// The entries belong to one reader connection and its `PRAGMA data_version`, which SQLite
/// raises whenever another connection (this store's writer, another process) commits: any write
/// anywhere empties the cache, so an entry is never older than the file. They are keyed by
/// rowid, which the window index carries, so a query finds its candidates without reading their
/// rows. At most ``capacity`` events are kept, and only from a store's second query on: a
/// command that makes one query (most of `chime`'s) does not pay for keeping.
final class DecodedEvents: Sendable {
    struct Entry {
        /// The row's identifier (the detached occurrences and the merge order use it).
        let id: String
        let event: Event
    }

    /// What the entries were read under: another connection or version starts afresh.
    struct Key {
        weak var connection: Database?
        let dataVersion: Int64

        func matches(_ other: Key) -> Bool {
            connection != nil && connection === other.connection && dataVersion == other.dataVersion
        }
    }

    /// What the events were read with (``EventPredicate/includesDetails`` and
    /// ``EventPredicate/includesAlarms``): each combination is kept apart, so a listing and a
    /// full query of the same store do not empty each other's.
    struct Contents: Hashable {
        let details: Bool
        let alarms: Bool
    }

    /// Enough for a year of a 10,000-event store many times over (about 5,600 events); a
    /// 100,000-event store's year is read without keeping all of it. A kept event costs what its
    /// text costs, a few hundred bytes for most (tens of megabytes when full).
    static let capacity = 50_000

    private struct State: @unchecked Sendable {
        var key: Key?
        var entries: [Contents: [Int64: Entry]] = [:]
        var count = 0
        var queries = 0
        var rowsReadByLastQuery = 0
    }
    private let state = Mutex<State>(State())
    private let keeps: Bool

    /// `keeps` false: nothing is ever kept.
    init(keeps: Bool = true) {
        self.keeps = keeps
    }

    /// The key of a read of `db` (inside its read transaction); the statement is cached, as every
    /// window query asks.
    static func key(_ db: Database) throws -> Key {
        Key(connection: db, dataVersion: try Int64.fetchOne(db.cachedStatement(sql: "PRAGMA data_version")) ?? -1)
    }

    /// The entries of `rowids` kept under `key` with `contents`, nil where none is; nil when
    /// nothing is kept under that key and contents (another connection or version, or nothing
    /// kept yet).
    func lookup(_ rowids: [Int64], key: Key, contents: Contents) -> [Entry?]? {
        state.withLock { s in
            guard let kept = s.key, kept.matches(key), let entries = s.entries[contents] else { return nil }
            return rowids.map { entries[$0] }
        }
    }

    /// How many events are kept, and how many rows the last query read (for tests).
    var count: Int { state.withLock { $0.count } }
    var rowsReadByLastQuery: Int { state.withLock { $0.rowsReadByLastQuery } }

    func noteRowsRead(_ n: Int) {
        state.withLock { $0.rowsReadByLastQuery = n }
    }

    /// Whether anything is kept under `key` with `contents`.
    func holds(key: Key, contents: Contents) -> Bool {
        state.withLock { s in s.key?.matches(key) == true && s.entries[contents] != nil }
    }

    /// Counts a query; true from the store's second on, when what it decodes is worth keeping.
    func countQuery() -> Bool {
        guard keeps else { return false }
        return state.withLock { s in
            s.queries += 1
            return s.queries > 1
        }
    }

    /// Keeps `new` under `key`, beside what is kept under the same key (in place of it otherwise:
    /// what no longer matches the file is let go even when nothing new came).
    func keep(_ new: [(rowid: Int64, entry: Entry)], key: Key, contents: Contents) {
        state.withLock { s in
            if s.key?.matches(key) != true {
                s.key = key
                s.entries = [:]
                s.count = 0
            }
            if new.isEmpty { return }
            var entries = s.entries.removeValue(forKey: contents) ?? [:]
            for (rowid, entry) in new where s.count < Self.capacity {
                if entries.updateValue(entry, forKey: rowid) == nil { s.count += 1 }
            }
            s.entries[contents] = entries
        }
    }
}
