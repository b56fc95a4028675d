import ChimeCore
import Glibc

/// Why the store refused an operation. Each case names the file, item or value involved.
public enum StoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file exists but is not an SQLite database; it was not touched.
    case notADatabase(path: String)
    /// An SQLite database, but not one Chime wrote; it was not touched.
    case foreignDatabase(path: String)
    /// Written by a newer Chime whose schema this version does not know.
    case newerSchema(path: String, unknownMigrations: [String])
    case cannotCreate(path: String, reason: String)
    /// The store path is a symbolic link; SQLite would follow it, so Chime opens only the real file.
    case symbolicLink(path: String, target: String)
    /// The store path is a folder, device, socket or pipe.
    case notAFile(path: String, kind: String)
    /// The store file belongs to another user (uid `owner`); it was not touched.
    case notOwned(path: String, owner: UInt32)
    /// The disk holding the store is full (`freeBytes` left); the operation changed nothing.
    case diskFull(path: String, freeBytes: UInt64)
    /// The store file (or its folder) is not writable: it can be read, not changed.
    case readOnly(path: String)
    /// The file system holding the store is mounted read-only.
    case readOnlyFileSystem(path: String)
    /// The store file has more than one name (hard links): SQLite keys its write-ahead log by the
    /// name a store was opened through, so writes through two names would be acknowledged and lost.
    case hardLinked(path: String, links: Int)
    case unknownItem(String)
    case unknownCalendar(String)
    /// An import asked for a new calendar (or list) under a title one of its kind already has.
    case calendarExists(title: String, entityType: EntityType)
    /// The calendar mirrors a CalDAV collection: removing it here would remove its items on the server.
    case syncedCalendar(title: String, account: String)
    case invalid(ItemValidationError)
    /// A stored row that cannot be read back (hand-edited or damaged file).
    case corruptRow(table: String, identifier: String, detail: String)
    /// Any other database failure: SQLite's extended result code (nil when the error was not
    /// SQLite's) and its message.
    case database(path: String, resultCode: Int32?, message: String)
    /// A reminder saved from a copy read before another change (by this or another process) that
    /// the save would undo or repeat. Read it again and repeat the change.
    case changedSinceRead(identifier: String, title: String)
    /// `complete(reminderWithIdentifier:dueAt:)` named an instance the reminder has not reached.
    case notCurrentInstance(identifier: String, title: String, requested: Instant, current: Instant?)
    /// An event saved under the identifier of a stored reminder (or of a changed occurrence's
    /// row), or a reminder under an event's: one identifier names one item, and the save would
    /// have replaced the other. Nothing was written.
    case identifierInUse(identifier: String, title: String, storedKind: StoredKind)

    /// What a stored row is, for ``identifierInUse(identifier:title:storedKind:)``.
    public enum StoredKind: String, Hashable, Sendable {
        case event
        case reminder
        case changedOccurrence = "changed occurrence"
    }

    public var description: String {
        switch self {
        case .notADatabase(let p): return "\(p) is not a Chime store (not an SQLite database); it was left untouched"
        case .foreignDatabase(let p): return "\(p) is an SQLite database of another program, not a Chime store; it was left untouched"
        case .newerSchema(let p, let m):
            return "\(p) was written by a newer version of Chime (schema \(m.joined(separator: ", "))); upgrade Chime to open it"
        case .cannotCreate(let p, let r): return "cannot create \(p): \(r)"
        case .symbolicLink(let p, let t):
            return "\(p) is a symbolic link to \(t); Chime opens only a real file, so nothing was written: use --store \(t) (or CHIME_STORE=\(t))"
        case .notAFile(let p, let k): return "\(p) is \(k), not a store file; it was left untouched"
        case .notOwned(let p, let o):
            return "\(p) belongs to another user (uid \(o)), not to you (uid \(geteuid())); it was left untouched: use a store of your own"
        case .diskFull(let p, let free):
            return "the disk holding \(p) is full (\(free) bytes free): free some space; nothing was changed"
        case .readOnly(let p):
            return "\(p) is read-only: Chime can show what it holds but not change it (make it writable: chmod u+w \(p))"
        case .readOnlyFileSystem(let p):
            return "\(p) is on a read-only file system: Chime can show what it holds but not change it (remount it writable, or copy the store elsewhere)"
        case .hardLinked(let p, let n):
            return "\(p) has \(n) names (hard links); writes through one name would be lost to the others, "
                + "so Chime opens a store through one name only: remove the other links (find / -samefile \(p)) or open a copy"
        case .unknownItem(let id): return "no event or reminder with identifier \"\(id)\""
        case .unknownCalendar(let c): return "no calendar \"\(c)\""
        case .calendarExists(let t, let kind): return "a \(kind == .event ? "calendar" : "list") named \"\(t)\" already exists"
        case .syncedCalendar(let t, let a):
            return "\"\(t)\" mirrors a calendar of CalDAV account \"\(a)\"; removing it here would remove its items on the server too. "
                + "`chime account remove \(a)` takes the account's calendars off this machine only (the server keeps them)"
        case .invalid(let e): return e.description
        case .corruptRow(let t, let id, let d): return "damaged \(t) row \"\(id)\": \(d)"
        case .database(let p, _, let m): return "\(p): \(m)"
        case .changedSinceRead(let id, let title):
            return "reminder \"\(title)\" (\(id)) was changed by another process since it was read; read it again"
        case .notCurrentInstance(let id, let title, let requested, let current):
            return "reminder \"\(title)\" (\(id)) has no instance due at \(requested) to complete"
                + (current.map { "; its current instance is due at \($0)" } ?? "")
        case .identifierInUse(let id, let title, let kind):
            return "identifier \"\(id)\" already names the \(kind.rawValue) \"\(title)\"; nothing was saved (give the new item an identifier of its own)"
        }
    }
}
