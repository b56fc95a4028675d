import ChimeCore

/// Why the store refused an operation. Each case names the file, item or value involved.
public enum StoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file exists but is not an SQLite database; it was not touched.
    case notADatabase(path: String)
    /// An SQLite database, but not one Chime wrote; it was not touched.
    case foreignDatabase(path: String)
    /// Written by a newer Chime whose schema this version does not know.
    case newerSchema(path: String, unknownMigrations: [String])
    case cannotCreate(path: String, reason: String)
    case unknownItem(String)
    case unknownCalendar(String)
    case invalid(ItemValidationError)
    /// A stored row that cannot be read back (hand-edited or damaged file).
    case corruptRow(table: String, identifier: String, detail: String)
    case database(path: String, message: String)
    /// A reminder saved from a copy read before another change (by this or another process) that
    /// the save would undo or repeat. Read it again and repeat the change.
    case changedSinceRead(identifier: String, title: String)
    /// `complete(reminderWithIdentifier:dueAt:)` named an instance the reminder has not reached.
    case notCurrentInstance(identifier: String, title: String, requested: Instant, current: Instant?)

    public var description: String {
        switch self {
        case .notADatabase(let p): return "\(p) is not a Chime store (not an SQLite database); it was left untouched"
        case .foreignDatabase(let p): return "\(p) is an SQLite database of another program, not a Chime store; it was left untouched"
        case .newerSchema(let p, let m):
            return "\(p) was written by a newer version of Chime (schema \(m.joined(separator: ", "))); upgrade Chime to open it"
        case .cannotCreate(let p, let r): return "cannot create \(p): \(r)"
        case .unknownItem(let id): return "no event or reminder with identifier \"\(id)\""
        case .unknownCalendar(let c): return "no calendar \"\(c)\""
        case .invalid(let e): return e.description
        case .corruptRow(let t, let id, let d): return "damaged \(t) row \"\(id)\": \(d)"
        case .database(let p, let m): return "\(p): \(m)"
        case .changedSinceRead(let id, let title):
            return "reminder \"\(title)\" (\(id)) was changed by another process since it was read; read it again"
        case .notCurrentInstance(let id, let title, let requested, let current):
            return "reminder \"\(title)\" (\(id)) has no instance due at \(requested) to complete"
                + (current.map { "; its current instance is due at \($0)" } ?? "")
        }
    }
}
