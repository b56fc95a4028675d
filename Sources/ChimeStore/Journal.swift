import ChimeCore
import GRDB

/// What kind of thing a change is about.
public enum ChangeEntity: String, Hashable, Sendable {
    case calendar, event, reminder
}

/// What happened to it.
public enum ChangeKind: String, Hashable, Sendable {
    case inserted, updated, deleted
}

/// One entry of the change journal.
public struct StoreChange: Hashable, Sendable {
    /// Increases by one per entry, across processes and restarts.
    public let sequence: Int64
    public let entity: ChangeEntity
    public let identifier: String
    public let kind: ChangeKind
}

/// The change journal: appended to inside every write transaction, compacted to its newest
/// ``retained`` entries.
enum Journal {
    /// How many entries are kept. A consumer further behind than this gets a truncated change
    /// set and must re-read what it shows.
    static let retained: Int64 = 10_000

    static func record(_ db: Database, _ entity: ChangeEntity, _ identifier: String, _ kind: ChangeKind) throws {
        try db.cachedStatement(sql: "INSERT INTO change (entity, identifier, kind) VALUES (?, ?, ?)").run { row in
            row.bind(entity.rawValue)
            row.bind(identifier)
            row.bind(kind.rawValue)
        }
    }

    /// The same entry for many identifiers, in one statement of one text: each INSERT also
    /// updates the AUTOINCREMENT counter in `sqlite_sequence`, which cost as much as the row
    /// itself when an import journaled its 10,000 events one statement each; and a statement of
    /// many `VALUES` rows, compiled anew for each count, cost more than its rows.
    static func record(_ db: Database, _ entity: ChangeEntity, _ identifiers: [String], _ kind: ChangeKind) throws {
        guard identifiers.count > 1 else {
            if let only = identifiers.first { try record(db, entity, only, kind) }
            return
        }
        // The entries of one call say the same of each identifier: their order among themselves
        // (json_each's, the array's) carries no meaning.
        try db.cachedStatement(sql: "INSERT INTO change (entity, identifier, kind) SELECT ?, value, ? FROM json_each(?)").run { row in
            row.bind(entity.rawValue)
            row.bind(kind.rawValue)
            row.bind(JSONText.stringArray(identifiers))
        }
    }

    static func compact(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM change WHERE seq <= (SELECT max(seq) FROM change) - ?", arguments: [retained])
    }

    /// The newest sequence number (0 for an empty journal).
    static func lastSequence(_ db: Database) throws -> Int64 {
        // sqlite_sequence survives compaction, so this never goes backwards.
        try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'change'") ?? 0
    }

    /// Entries after `sequence`, oldest first, and whether some were compacted away.
    static func entries(after sequence: Int64, in db: Database) throws -> (changes: [StoreChange], truncated: Bool) {
        let rows = try Row.fetchCursor(
            db, sql: "SELECT seq, entity, identifier, kind FROM change WHERE seq > ? ORDER BY seq",
            arguments: [sequence])
        var changes: [StoreChange] = []
        while let row = try rows.next() {
            guard let entity = ChangeEntity(rawValue: row[1]), let kind = ChangeKind(rawValue: row[3]) else { continue }
            changes.append(StoreChange(sequence: row[0], entity: entity, identifier: row[2], kind: kind))
        }
        let truncated: Bool
        if let first = changes.first {
            truncated = first.sequence > sequence + 1
        } else {
            truncated = try lastSequence(db) > sequence
        }
        return (changes, truncated)
    }
}
