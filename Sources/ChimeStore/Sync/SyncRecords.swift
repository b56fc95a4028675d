import ChimeCore
import ChimeICS
import Foundation
import GRDB

/// A CalDAV account (EventKit's `EKSource`): where its calendars live and who signs in. The
/// password is never stored here: it comes from ``passwordCommand``, the desktop's Secret Service
/// (ChimeCalDAV's `PasswordSource`) or a prompt.
public struct SyncAccount: Hashable, Sendable {
    public var name: String
    /// The URL the user gave (a server root or a `.well-known` host).
    public var url: String
    public var username: String
    /// A shell command that prints the password (`pass show caldav`, `secret-tool lookup …`).
    public var passwordCommand: String?
    /// Discovered: the principal and calendar home URLs.
    public var principal: String?
    public var home: String?
    /// The user's calendar addresses on the server (`calendar-user-address-set`, RFC 6638):
    /// who "I" am in the attendee lists of its invitations. Nil until the server was asked.
    public var addresses: [String]?
    public var lastSync: Instant?
    /// Why the last sync failed, or nil after a good one.
    public var lastError: String?

    public init(
        name: String, url: String, username: String, passwordCommand: String? = nil,
        principal: String? = nil, home: String? = nil
    ) {
        self.name = name
        self.url = url
        self.username = username
        self.passwordCommand = passwordCommand
        self.principal = principal
        self.home = home
    }
}

/// A server collection and the local calendar (events) and list (reminders) that mirror it.
public struct SyncCollection: Hashable, Sendable {
    public var id: Int64
    public var account: String
    /// The collection's absolute URL, ending in `/`.
    public var url: String
    public var title: String
    public var eventCalendar: String?
    public var reminderList: String?
    public var syncToken: String?
    public var ctag: String?
    /// The calendars the server says it expands rules in (RFC 7529 `supported-rscale-set`,
    /// upper case); nil when it lists none, as most servers do.
    public var rscales: Set<String>? = nil

    /// The local calendars of the collection.
    public var calendarIdentifiers: [String] { [eventCalendar, reminderList].compactMap { $0 } }
}

/// One server resource as last seen in step with the local items.
public struct SyncResource: Hashable, Sendable {
    /// The resource's path on the server, percent-decoded.
    public var href: String
    public var uid: String
    public var etag: String?
    /// The server's copy: the base of a three-way merge.
    public var serverCopy: String?
    /// The local rows' signature when last in step; another signature means a local change.
    /// ``held(_:)`` of it: the local rows hold a change kept off the server (an edit of someone
    /// else's invitation), not sent again while they stay as they are.
    public var signature: String

    /// The signature recorded for local rows whose change is kept off the server.
    public static func held(_ signature: String) -> String { "held:" + signature }

    /// Whether the local rows hold a change kept off the server.
    public var isHeld: Bool { signature.hasPrefix("held:") }
    /// The server holds something Chime keeps no item for: never pushed, never deleted.
    public var isForeign: Bool

    public init(href: String, uid: String, etag: String?, serverCopy: String?, signature: String, isForeign: Bool = false) {
        self.href = href
        self.uid = uid
        self.etag = etag
        self.serverCopy = serverCopy
        self.signature = signature
        self.isForeign = isForeign
    }
}

/// A local item (a series with its detached occurrences, or a reminder) as one resource.
public struct LocalResource: Sendable {
    public var uid: String
    public var signature: String
    public var items: [AnyCalendarItem]
}

/// The losing side of a sync conflict, kept for `chime account conflicts`.
public struct SyncConflict: Hashable, Sendable {
    public var id: Int64
    public var account: String
    public var collectionTitle: String
    public var href: String
    public var uid: String
    public var at: Instant
    /// What happened and what was kept.
    public var what: String
    /// The version that lost, as iCalendar text.
    public var lostCopy: String
}

/// What one sync pass of one collection writes, in one transaction.
public struct SyncApplication: Sendable {
    /// A resource from the server, applied over the local items of its UID.
    public struct Pulled: Sendable {
        public var href: String
        public var etag: String?
        public var text: String
        /// Keep the local item in step with this copy afterwards (false: the local item holds a
        /// merge that still has to go to the server).
        public var inStep: Bool
        /// The UID the copy's items are stored under, as the sync read it (empty: none could be read).
        public var uid = ""
        /// The copy stays on the server only: unreadable, a second name for a UID another resource
        /// shows, or of a kind this collection has no calendar for. True until the sync reads it,
        /// so an unread copy never replaces or removes a local item.
        public var isForeign = true
        public init(href: String, etag: String?, text: String, inStep: Bool = true) {
            self.href = href
            self.etag = etag
            self.text = text
            self.inStep = inStep
        }
    }

    /// A local resource the server accepted (or removed), with the signature it was sent at.
    public struct Pushed: Sendable {
        public var href: String
        public var uid: String
        public var etag: String?
        public var text: String
        public var signature: String
        public init(href: String, uid: String, etag: String?, text: String, signature: String) {
            self.href = href
            self.uid = uid
            self.etag = etag
            self.text = text
            self.signature = signature
        }
    }

    public var collection: Int64
    public var pulled: [Pulled] = []
    /// Resources deleted on the server: their local items go.
    public var removedOnServer: [String] = []
    public var pushed: [Pushed] = []
    /// Resources whose DELETE the server accepted.
    public var deletedOnServer: [String] = []
    public var conflicts: [(href: String, uid: String, what: String, lostCopy: String)] = []
    /// The pulled copies' items to store, one batch read by the CalDAV module's merge policy
    /// (`ServerCopies` in ChimeCalDAV), which also sets each ``Pulled/uid`` and ``Pulled/isForeign``.
    public var incoming = ICSParseResult(items: [], overrides: [], skipped: [])
    /// Which resource shows each UID after this pass (one UID, one resource): a UID removed under
    /// one name while another still shows it keeps its items.
    public var shownBy: [String: String] = [:]
    /// What reading the pulled copies repaired or left on the server.
    public var notes: [String] = []
    /// The new sync token and ctag; nil keeps the stored ones.
    public var syncToken: String?
    public var ctag: String?

    public init(collection: Int64) { self.collection = collection }
}

/// What applying a sync pass did to the local items.
public struct SyncApplied: Hashable, Sendable {
    public var added = 0, updated = 0, removed = 0
    /// Faults repaired or components skipped while reading server copies.
    public var notes: [String] = []
}

/// What the CalDAV sync records beside the items: accounts, the server's collections, each
/// resource's ETag and server copy with the local signature it was in step with, and conflicts.
/// A facet of ``EventStore`` over the same database (one transaction with the items it touches).
///
/// ```swift
/// for collection in try store.sync.collections(account: "home") { … }
/// ```
public struct SyncRecords: Sendable {
    let store: EventStore
}

extension EventStore {
    /// The CalDAV accounts, collections, resources and conflicts recorded in this store's database.
    public var sync: SyncRecords { SyncRecords(store: self) }
}

extension SyncRecords {
    // MARK: Accounts

    /// Adds or replaces an account.
    ///
    /// ```swift
    /// try store.sync.saveAccount(SyncAccount(name: "home", url: "https://dav.example.org/", username: "ana",
    ///                                       passwordCommand: "pass show dav"))
    /// ```
    public func saveAccount(_ account: SyncAccount) throws(StoreError) {
        try store.write { db, _ in
            try db.execute(
                sql: """
                    INSERT INTO sync_account (name, url, username, password_command, principal, home, last_sync, last_error, addresses)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT(name) DO UPDATE SET url = excluded.url, username = excluded.username,
                        password_command = excluded.password_command, principal = excluded.principal, home = excluded.home,
                        last_sync = excluded.last_sync, last_error = excluded.last_error, addresses = excluded.addresses
                    """,
                arguments: [
                    account.name, account.url, account.username, account.passwordCommand,
                    account.principal, account.home, account.lastSync?.secondsSince1970, account.lastError,
                    account.addresses?.joined(separator: "\n")
                ])
        }
    }

    /// Every account, by name.
    public func accounts() throws(StoreError) -> [SyncAccount] {
        try store.read { db in try Self.accounts(db) }
    }

    static func accounts(_ db: Database) throws -> [SyncAccount] {
        try Row.fetchAll(
            db, sql: "SELECT name, url, username, password_command, principal, home, last_sync, last_error, addresses FROM sync_account ORDER BY name"
        )
        .map { row in
            var a = SyncAccount(name: row[0], url: row[1], username: row[2], passwordCommand: row[3], principal: row[4], home: row[5])
            a.lastSync = (row[6] as Int64?).map(Instant.init(secondsSince1970:))
            a.lastError = row[7]
            a.addresses = (row[8] as String?).map { $0.split(separator: "\n").map(String.init) }
            return a
        }
    }

    /// Every calendar address the accounts' servers name as the user's: who "I" am in
    /// invitations, beside `[identity] addresses` in the configuration.
    public func accountAddresses() throws(StoreError) -> [String] {
        try accounts().flatMap { $0.addresses ?? [] }
    }

    /// Records the outcome of a sync of the account (nil error: it succeeded).
    public func recordOutcome(account: String, at: Instant, error: String?) throws(StoreError) {
        try store.write { db, _ in
            try db.execute(
                sql: "UPDATE sync_account SET last_sync = coalesce(?, last_sync), last_error = ? WHERE name = ?",
                arguments: [error == nil ? at.secondsSince1970 : nil, error, account])
        }
    }

    /// Removes the account and, from this machine only, the calendars that mirror its collections
    /// with their items. The server is not touched.
    public func removeAccount(named name: String) throws(StoreError) {
        try store.write { db, _ in
            let calendars = try String.fetchAll(
                db,
                sql: """
                    SELECT event_calendar_id FROM sync_collection WHERE account = ? AND event_calendar_id IS NOT NULL
                    UNION SELECT reminder_calendar_id FROM sync_collection WHERE account = ? AND reminder_calendar_id IS NOT NULL
                    """, arguments: [name, name])
            for id in calendars {
                try db.execute(sql: "DELETE FROM calendar WHERE id = ?", arguments: [id])
                try Journal.record(db, .calendar, id, .deleted)
            }
            try db.execute(sql: "DELETE FROM sync_account WHERE name = ?", arguments: [name])
        }
    }

    // MARK: Collections

    /// Mirrors a server collection: creates its local calendar (events) and/or list (reminders).
    @discardableResult
    public func addCollection(
        account: String, url: String, title: String, color: String?,
        events: Bool, reminders: Bool
    ) throws(StoreError) -> SyncCollection {
        try store.write { db, _ in
            if let row = try Row.fetchOne(db, sql: "SELECT id FROM sync_collection WHERE account = ? AND url = ?", arguments: [account, url]) {
                let id: Int64 = row[0]
                return try Self.collections(db, where: "id = ?", [id])[0]
            }
            func make(_ type: EntityType) throws -> String {
                var c = ChimeCore.Calendar(title: title, entityType: type)
                if let color { c.color = color }
                try db.execute(
                    sql: "INSERT INTO calendar (id, title, color, entity_type, allows_modifications, is_default, ics_extras) VALUES (?, ?, ?, ?, 1, 0, '')",
                    arguments: [c.identifier, c.title, c.color, type.rawValue])
                try Journal.record(db, .calendar, c.identifier, .inserted)
                return c.identifier
            }
            let eventCalendar = events ? try make(.event) : nil
            let reminderList = reminders ? try make(.reminder) : nil
            try db.execute(
                sql: "INSERT INTO sync_collection (account, url, title, event_calendar_id, reminder_calendar_id) VALUES (?, ?, ?, ?, ?)",
                arguments: [account, url, title, eventCalendar, reminderList])
            return SyncCollection(
                id: db.lastInsertedRowID, account: account, url: url, title: title,
                eventCalendar: eventCalendar, reminderList: reminderList)
        }
    }

    /// The collections of an account (every account's with nil).
    public func collections(account: String? = nil) throws(StoreError) -> [SyncCollection] {
        try store.read { db in
            if let account { return try Self.collections(db, where: "account = ?", [account]) }
            return try Self.collections(db, where: "1", [])
        }
    }

    /// The account and collection a calendar mirrors, or nil for a local calendar.
    public func collection(forCalendar identifier: String) throws(StoreError) -> SyncCollection? {
        try store.read { db in try Self.collections(db, where: "event_calendar_id = ? OR reminder_calendar_id = ?", [identifier, identifier]).first }
    }

    private static func collections(_ db: Database, where filter: String, _ arguments: StatementArguments) throws -> [SyncCollection] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT id, account, url, title, event_calendar_id, reminder_calendar_id, sync_token, ctag, rscales
                FROM sync_collection WHERE \(filter) ORDER BY account, title
                """, arguments: arguments
        ).map { row in
            let rscales: String? = row[8]
            return SyncCollection(
                id: row[0], account: row[1], url: row[2], title: row[3], eventCalendar: row[4],
                reminderList: row[5], syncToken: row[6], ctag: row[7],
                rscales: rscales.map { Set($0.split(separator: ",").map(String.init)) })
        }
    }

    /// Records the calendars a collection's server expands rules in (nil: it lists none).
    public func setCollectionRScales(_ rscales: Set<String>?, account: String, url: String) throws(StoreError) {
        try store.write { db, _ in
            try db.execute(
                sql: "UPDATE sync_collection SET rscales = ? WHERE account = ? AND url = ?",
                arguments: [rscales.map { $0.sorted().joined(separator: ",") }, account, url])
        }
    }

    // MARK: Resources

    /// The resources of a collection as last seen in step, by href.
    public func resources(collection: Int64) throws(StoreError) -> [String: SyncResource] {
        try store.read { db in
            var result: [String: SyncResource] = [:]
            let rows = try Row.fetchCursor(
                db, sql: "SELECT href, uid, etag, server_copy, signature, foreign_content FROM sync_resource WHERE collection_id = ?",
                arguments: [collection])
            while let row = try rows.next() {
                result[row[0]] = SyncResource(href: row[0], uid: row[1], etag: row[2], serverCopy: row[3], signature: row[4], isForeign: row[5])
            }
            return result
        }
    }

    /// The signature of every local item of a collection, by UID: its rows' identifiers, revisions
    /// and modification times. One query, no decoding: a sync with nothing to push reads only this.
    public func localSignatures(of collection: SyncCollection) throws(StoreError) -> [String: String] {
        try store.read { db in try Self.signatures(db, calendars: collection.calendarIdentifiers, uid: nil) }
    }

    private static func signatures(_ db: Database, calendars: [String], uid: String?) throws -> [String: String] {
        guard !calendars.isEmpty else { return [:] }
        var arguments = StatementArguments(calendars)
        if let uid { arguments += [uid, uid] }
        let rows = try Row.fetchCursor(db, sql: signaturesSQL(calendarCount: calendars.count, oneUID: uid != nil), arguments: arguments)
        var result: [String: String] = [:]
        while let row = try rows.next() { result[row[0]] = row[1] }
        if let uid { return result.filter { $0.key == uid } }
        return result
    }

    /// The signatures' query: of every item in the calendars, or (`oneUID`) of one UID's series or
    /// reminder and the series' detached rows, found by the UID's index. The unary `+` keeps
    /// SQLite from reading the calendar's index instead, which walked every item of the calendar
    /// for each UID a sync pass looked at.
    static func signaturesSQL(calendarCount: Int, oneUID: Bool) -> String {
        let marks = Array(repeating: "?", count: calendarCount).joined(separator: ",")
        let filter =
            oneUID
            ? "+i.calendar_id IN (\(marks)) AND (i.external_id = ? OR i.series_id IN (SELECT id FROM item WHERE external_id = ?))"
            : "i.calendar_id IN (\(marks))"
        return """
            SELECT uid, group_concat(mark, ',') FROM (
                SELECT coalesce(m.external_id, i.external_id) AS uid, i.id || ':' || i.revision || ':' || i.modified AS mark
                FROM item i LEFT JOIN item m ON m.id = i.series_id
                WHERE \(filter) ORDER BY i.id)
            GROUP BY uid
            """
    }

    /// The rows of one UID in the calendars (its series or reminder, the series' detached rows),
    /// by the UID's index (see ``signaturesSQL(calendarCount:oneUID:)``).
    static func resourceFilter(calendarCount: Int) -> String {
        let marks = Array(repeating: "?", count: calendarCount).joined(separator: ",")
        return "+calendar_id IN (\(marks)) AND (external_id = ? OR series_id IN (SELECT id FROM item WHERE external_id = ? AND calendar_id IN (\(marks))))"
    }

    /// The local item of a UID in a collection as one iCalendar resource, with the signature it
    /// was read at (both in one read), or nil when there is none.
    public func localResource(uid: String, in collection: SyncCollection) throws(StoreError) -> LocalResource? {
        let calendars = collection.calendarIdentifiers
        guard !calendars.isEmpty else { return nil }
        return try store.read { db in
            guard let signature = try Self.signatures(db, calendars: calendars, uid: uid)[uid] else { return nil }
            let filter = Self.resourceFilter(calendarCount: calendars.count)
            let arguments = StatementArguments(calendars) + [uid, uid] + StatementArguments(calendars)
            let alarms = try AlarmRows.fetch(db, itemFilter: "SELECT id FROM item WHERE \(filter)", arguments: arguments)
            let rows = try Row.fetchAll(
                db, sql: "SELECT \(ItemColumns.list) FROM item WHERE \(filter) ORDER BY series_id IS NOT NULL, created, id",
                arguments: arguments)
            let items = try rows.map { row in try ItemRows.item(row, alarms: alarms[row[ItemColumns.id]] ?? []) }
            return LocalResource(uid: uid, signature: signature, items: items)
        }
    }

    /// Applies one sync pass of a collection in one transaction: the server copies' items (as the
    /// CalDAV module read them into ``SyncApplication/incoming``) over the local items, server
    /// deletions, what the server accepted, conflicts, and the new sync token. Writes made here are
    /// recorded as in step, so they are not pushed back. Pulled copies must have been read by
    /// `ServerCopies.read` (ChimeCalDAV) first: an unread copy counts as one kept on the server only.
    public func apply(_ pass: SyncApplication, collection: SyncCollection) throws -> SyncApplied {
        // Nothing moved and the token stands: no transaction at all (a no-change pass writes nothing).
        if pass.pulled.isEmpty && pass.removedOnServer.isEmpty && pass.pushed.isEmpty && pass.deletedOnServer.isEmpty
            && pass.conflicts.isEmpty && (pass.syncToken ?? collection.syncToken) == collection.syncToken
            && (pass.ctag ?? collection.ctag) == collection.ctag
        {
            return SyncApplied(notes: pass.notes)
        }
        var applied = SyncApplied(notes: pass.notes)
        let resources = try resources(collection: collection.id)
        if !pass.incoming.items.isEmpty {
            let report = try store.importParsed(
                pass.incoming, file: collection.title,
                into: .identified(events: collection.eventCalendar, reminders: collection.reminderList), dryRun: false,
                strict: false, authoritative: true, commit: false)
            applied.added += report.eventsAdded + report.remindersAdded
            applied.updated += report.eventsUpdated + report.remindersUpdated
            applied.notes += report.skipped.map(\.description)
        }
        let calendars = collection.calendarIdentifiers
        let removed = pass.removedOnServer.compactMap { href in resources[href].map { (href, $0.uid) } }
        let stamp = store.now()
        try store.perform(commit: false) { db, _ in
            for (href, uid) in removed {
                // Another name still shows this UID (a copy under two names): its items stay.
                if pass.shownBy[uid] == nil { try Self.deleteLocalItems(uid: uid, calendars: calendars, in: db) }
                try db.cachedStatement(sql: "DELETE FROM sync_resource WHERE collection_id = ? AND href = ?").execute(arguments: [collection.id, href])
            }
            for href in pass.deletedOnServer {
                try db.cachedStatement(sql: "DELETE FROM sync_resource WHERE collection_id = ? AND href = ?").execute(arguments: [collection.id, href])
            }
            for p in pass.pushed {
                try Self.recordResource(
                    SyncResource(href: p.href, uid: p.uid, etag: p.etag, serverCopy: p.text, signature: p.signature),
                    collection: collection.id, in: db)
            }
            // The signatures after this transaction's writes: the local items are in step with the copies.
            let after = pass.pulled.contains { !$0.isForeign } ? try Self.signatures(db, calendars: calendars, uid: nil) : [:]
            for pull in pass.pulled {
                let signature = pull.isForeign ? "" : (after[pull.uid] ?? "")
                let base = pull.inStep ? signature : (resources[pull.href]?.signature ?? "")
                try Self.recordResource(
                    SyncResource(
                        href: pull.href, uid: pull.uid, etag: pull.etag, serverCopy: pull.text,
                        signature: base, isForeign: pull.isForeign),
                    collection: collection.id, in: db)
            }
            for c in pass.conflicts {
                // One line ending whatever the copy's origin (a server's XML answer has LF only).
                let lost = c.lostCopy.replacingOccurrences(of: "\r\n", with: "\n")
                try db.execute(
                    sql: "INSERT INTO sync_conflict (collection_id, href, uid, at, what, lost_copy) VALUES (?, ?, ?, ?, ?, ?)",
                    arguments: [collection.id, c.href, c.uid, stamp.secondsSince1970, c.what, lost])
            }
            if pass.syncToken != nil || pass.ctag != nil {
                try db.execute(
                    sql: "UPDATE sync_collection SET sync_token = coalesce(?, sync_token), ctag = coalesce(?, ctag) WHERE id = ?",
                    arguments: [pass.syncToken, pass.ctag, collection.id])
            }
        }
        try store.commit()
        applied.removed = removed.count
        return applied
    }

    private static func recordResource(_ r: SyncResource, collection: Int64, in db: Database) throws {
        // Cached: a first sync records thousands, and compiling the statement each time (with
        // GRDB's authorizer called per column) cost more than running it.
        try db.cachedStatement(
            sql: """
                INSERT INTO sync_resource (collection_id, href, uid, etag, server_copy, signature, foreign_content) VALUES (?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT(collection_id, href) DO UPDATE SET uid = excluded.uid, etag = excluded.etag,
                    server_copy = excluded.server_copy, signature = excluded.signature, foreign_content = excluded.foreign_content
                """
        ).execute(arguments: [collection, r.href, r.uid, r.etag, r.serverCopy, r.signature, r.isForeign])
    }

    /// Deletes the items of a UID in these calendars (a series takes its detached occurrences).
    private static func deleteLocalItems(uid: String, calendars: [String], in db: Database) throws {
        guard !calendars.isEmpty else { return }
        let marks = calendars.map { _ in "?" }.joined(separator: ",")
        let rows = try Row.fetchAll(
            db, sql: "SELECT id, kind FROM item WHERE external_id = ? AND series_id IS NULL AND calendar_id IN (\(marks))",
            arguments: [uid] + StatementArguments(calendars))
        for row in rows {
            let id: String = row[0]
            try db.execute(sql: "DELETE FROM item WHERE id = ?", arguments: [id])
            try Journal.record(db, row[1] == "event" ? .event : .reminder, id, .deleted)
        }
    }

    /// What changed here since the last sync of a collection.
    public struct LocalChanges: Sendable {
        /// Resources in step at the last sync, by UID (what the server is known to hold).
        public var synced: [String: SyncResource]
        /// UIDs whose local items were added or changed since.
        public var changed: [String]
        /// Resources whose local items were removed since.
        public var removed: [SyncResource]
        public var isEmpty: Bool { changed.isEmpty && removed.isEmpty }
    }

    /// The local changes of a collection: its items' signatures against those recorded at the last
    /// sync (no network, no item decoded).
    public func localChanges(of collection: SyncCollection) throws(StoreError) -> LocalChanges {
        let signatures = try localSignatures(of: collection)
        var synced: [String: SyncResource] = [:]
        for r in try resources(collection: collection.id).values where !r.isForeign && !r.uid.isEmpty { synced[r.uid] = r }
        return LocalChanges(
            synced: synced,
            changed: signatures.filter {
                synced[$0.key]?.signature != $0.value
                    && synced[$0.key]?.signature != SyncResource.held($0.value)
            }.map(\.key),
            removed: synced.values.filter { signatures[$0.uid] == nil })
    }

    /// True when a calendar of the account holds a change the server has not had: an item added,
    /// edited or removed since the last sync. Local only, no network.
    public func hasUnsyncedChanges(account: String) throws(StoreError) -> Bool {
        for collection in try collections(account: account) where try !localChanges(of: collection).isEmpty { return true }
        return false
    }

    // MARK: Conflicts

    /// Conflicts kept by syncs (every account's with nil), newest first.
    public func conflicts(account: String? = nil) throws(StoreError) -> [SyncConflict] {
        try store.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT c.id, s.account, s.title, c.href, c.uid, c.at, c.what, c.lost_copy FROM sync_conflict c
                    JOIN sync_collection s ON s.id = c.collection_id WHERE ? IS NULL OR s.account = ? ORDER BY c.at DESC, c.id DESC
                    """, arguments: [account, account]
            ).map { row in
                SyncConflict(
                    id: row[0], account: row[1], collectionTitle: row[2], href: row[3], uid: row[4],
                    at: Instant(secondsSince1970: row[5]), what: row[6], lostCopy: row[7])
            }
        }
    }

    /// Forgets kept conflicts (all with nil).
    public func clearConflicts(_ ids: [Int64]? = nil) throws(StoreError) {
        try store.write { db, _ in
            if let ids {
                for id in ids { try db.execute(sql: "DELETE FROM sync_conflict WHERE id = ?", arguments: [id]) }
            } else {
                try db.execute(sql: "DELETE FROM sync_conflict")
            }
        }
    }
}
