import ChimeCore
import ChimeICS
import ChimeStore
import Foundation

/// What one sync of an account moved.
public struct CalDAVSyncReport: Sendable {
    /// Items that came from the server (added or changed here) and were removed here.
    public var pulled = 0, removedHere = 0
    /// Items sent to the server (created or changed there) and removed there.
    public var pushed = 0, removedThere = 0
    /// Collections mirrored for the first time in this pass.
    public var newCollections: [String] = []
    /// How many collections the account mirrors.
    public var collections = 0
    /// Changes to invitations organised by someone else, kept on this machine (not sent).
    public var keptHere = 0
    /// Conflicts kept (see `chime account conflicts`), each described.
    public var conflicts: [String] = []
    /// Repairs made while reading server copies, and other remarks.
    public var notes: [String] = []
    public var requests = 0
    /// Collections whose sync failed in this pass (the notes say why).
    public var failedCollections: [String] = []
    /// Local changes the server refused in this pass (the notes say which and why); they stay
    /// here and are sent again on the next pass.
    public var refused = 0

    public var movedNothing: Bool { pulled == 0 && removedHere == 0 && pushed == 0 && removedThere == 0 }
}

/// Two-way sync of one account's collections with the store.
///
/// One pass per collection: pull (RFC 6578 sync-collection from the stored token, a full listing
/// when the server refuses the token, calendar-multiget of what changed) and apply it with the
/// new token in one transaction; then push every local change with conditional requests only
/// (`If-None-Match: *` to create, `If-Match` to change or delete). A 412 is merged field by field
/// against the last server copy (``ItemMerge``); what loses is kept as a conflict.
///
/// ```swift
/// let sync = CalDAVSync(store: store, account: account, client: DAVClient(user: "ana", password: secret))
/// let report = try await sync.run()
/// print(report.pulled, report.pushed)
/// ```
public struct CalDAVSync: Sendable {
    public let store: EventStore
    public let account: SyncAccount
    public let server: CalDAVServer
    /// Stamps DTSTAMP on what is sent.
    let now: @Sendable () -> Instant

    public init(
        store: EventStore, account: SyncAccount, client: DAVClient,
        clock: @escaping @Sendable () -> Instant = EventStore.systemNow
    ) {
        self.store = store
        self.account = account
        self.server = CalDAVServer(client: client)
        self.now = clock
    }

    /// Discovers the account's principal and home, records them, and mirrors every calendar
    /// collection the home lists (new ones only).
    public func discoverCollections() async throws -> (account: SyncAccount, collections: [SyncCollection], new: [String]) {
        guard let given = URL(string: account.url), given.scheme == "http" || given.scheme == "https" else {
            throw CalDAVError.input("\"\(account.url)\" is not an http:// or https:// URL")
        }
        var account = self.account
        let home: URL
        if let known = account.home.flatMap(URL.init(string:)) {
            home = known
        } else {
            let found = try await server.discover(given)
            account.principal = found.principal.absoluteString
            account.home = found.home.absoluteString
            account.addresses = found.addresses
            try store.sync.saveAccount(account)
            home = found.home
        }
        // An account added before its addresses were asked for: ask once (one request).
        if account.addresses == nil, let principal = account.principal.flatMap(URL.init(string:)),
            let found = try? await server.addresses(of: principal)
        {
            account.addresses = found
            try store.sync.saveAccount(account)
        }
        let remote = try await server.collections(home: home)
        let known = Set(try store.sync.collections(account: account.name).map(\.url))
        var new: [String] = []
        for c in remote where !known.contains(c.url) && (c.takesEvents || c.takesReminders) {
            try store.sync.addCollection(
                account: account.name, url: c.url, title: c.displayName, color: c.color,
                events: c.takesEvents, reminders: c.takesReminders)
            new.append(c.displayName)
        }
        for c in remote where c.takesEvents || c.takesReminders {
            try store.sync.setCollectionRScales(c.rscales, account: account.name, url: c.url)
        }
        return (account, try store.sync.collections(account: account.name), new)
    }

    /// One pass of `account` with its password from ``PasswordSource`` (or `password`), the outcome
    /// (or the error, the password's included) recorded on the account: what `chime account sync`
    /// and the daemon run.
    ///
    /// ```swift
    /// let report = try await CalDAVSync.sync(account, store: store, interactive: false)
    /// ```
    public static func sync(
        _ account: SyncAccount, store: EventStore, password known: String? = nil, interactive: Bool,
        discover: Bool = true,
        clock: @escaping @Sendable () -> Instant = EventStore.systemNow
    ) async throws -> CalDAVSyncReport {
        do {
            let password = try known ?? PasswordSource.password(for: account, interactive: interactive)
            let sync = CalDAVSync(store: store, account: account, client: DAVClient(user: account.username, password: password), clock: clock)
            let report = try await sync.run(discover: discover)
            try store.sync.recordOutcome(account: account.name, at: clock(), error: nil)
            return report
        } catch {
            try? store.sync.recordOutcome(account: account.name, at: clock(), error: "\(error)")
            throw error
        }
    }

    /// One sync pass of every collection of the account. Throws only when nothing could be done
    /// (no answer, refused password); one collection's failure is noted and the others go on.
    ///
    /// - Parameter discover: list the calendar home first, for collections made on the server
    ///   since (one request). Without it a pass of an account already discovered costs one
    ///   request per collection when nothing changed; the daemon lists the home now and then.
    public func run(discover: Bool = true) async throws -> CalDAVSyncReport {
        var report = CalDAVSyncReport()
        let known = discover || account.home == nil ? [] : try store.sync.collections(account: account.name)
        let (collections, new): ([SyncCollection], [String])
        if known.isEmpty {
            (_, collections, new) = try await discoverCollections()
        } else {
            (collections, new) = (known, [])
        }
        report.newCollections = new
        report.collections = collections.count
        let moves = try Moves(collections, store: store)
        var firstError: Error?
        for collection in collections {
            do {
                try await sync(collection, moves: moves, into: &report)
            } catch let error as CalDAVError where !error.isTransient {
                if case .authentication = error { throw error }
                report.notes.append("\(collection.title): \(error)")
                report.failedCollections.append(collection.title)
            } catch {
                firstError = firstError ?? error
                report.notes.append("\(collection.title): \(error)")
                report.failedCollections.append(collection.title)
            }
        }
        // Old copies of moved items held back until their new calendar had them: removed now.
        for collection in collections where moves.waiting.contains(collection.id) {
            guard let url = URL(string: collection.url) else { continue }
            do { try await push(collection, url: url, moves: moves, into: &report) } catch {
                report.notes.append("\(collection.title): \(error)")
            }
        }
        report.requests = server.client.requestCount
        if let firstError, report.movedNothing { throw firstError }
        // Every calendar failed: that is a failed sync, never "in step".
        if !collections.isEmpty, report.failedCollections.count == collections.count {
            throw CalDAVError.malformed(url: account.url, reason: "no calendar could be synced: " + report.notes.joined(separator: "; "))
        }
        return report
    }

    // MARK: One collection

    private func sync(_ collection: SyncCollection, moves: Moves, into report: inout CalDAVSyncReport) async throws {
        guard let url = URL(string: collection.url) else { throw CalDAVError.input("bad collection URL \(collection.url)") }
        // Its local calendars are gone (removed behind the store's back): nothing here speaks for it,
        // and pushing would remove everything on the server.
        guard !collection.calendarIdentifiers.isEmpty else {
            report.notes.append("\(collection.title): no local calendar mirrors it any more; left alone")
            return
        }
        try await pull(collection, url: url, into: &report)
        try await push(collection, url: url, moves: moves, into: &report)
    }

    /// Items moved here between two calendars of the account since the last sync: a UID removed
    /// from one collection and new in another. The old server copy is removed only once the new
    /// calendar has accepted the item, so a refusal never leaves the server without it.
    final class Moves: @unchecked Sendable {
        /// UID → the collection it left and its row there.
        var from: [String: (collection: SyncCollection, row: SyncResource)] = [:]
        /// UIDs the new calendar accepted (by PUT or MOVE).
        var accepted: Set<String> = []
        /// Collections that held back the removal of a moved item's old copy.
        var waiting: Set<Int64> = []

        init(_ collections: [SyncCollection], store: EventStore) throws {
            guard collections.count > 1 else { return }
            var left: [String: (SyncCollection, SyncResource)] = [:], arrived: [String: Int64] = [:]
            for collection in collections where !collection.calendarIdentifiers.isEmpty {
                let changes = try store.sync.localChanges(of: collection)
                for row in changes.removed where !row.uid.isEmpty { left[row.uid] = (collection, row) }
                for uid in changes.changed where changes.synced[uid] == nil { arrived[uid] = collection.id }
            }
            for (uid, source) in left where arrived[uid].map({ $0 != source.0.id }) == true { from[uid] = source }
        }
    }

    private func pull(_ collection: SyncCollection, url: URL, into report: inout CalDAVSyncReport) async throws {
        let (listing, full, note) = try await changes(in: collection, url: url)
        if let note { report.notes.append(note) }
        let resources = try store.sync.resources(collection: collection.id)
        var changed: [String] = [], gone: [String] = []
        var listed = Set<String>()
        for r in listing.responses where r.href.hasSuffix("/") == false {
            listed.insert(r.href)
            if r.status == 404 {
                if resources[r.href] != nil { gone.append(r.href) }
            } else if resources[r.href]?.etag == nil || resources[r.href]?.etag != r.properties["{DAV:}getetag"] {
                changed.append(r.href)
            }
        }
        if full { gone += resources.keys.filter { !listed.contains($0) } }
        // A copy left aside because another name showed its UID: fetched again when that name
        // goes, so it shows the item in the same pass (never a gap the push would fill).
        let goneUIDs = Set(gone.compactMap { resources[$0]?.uid }.filter { !$0.isEmpty })
        if !goneUIDs.isEmpty {
            let pending = Set(changed + gone)
            changed += resources.values.filter { $0.isForeign && goneUIDs.contains($0.uid) && !pending.contains($0.href) }.map(\.href).sorted()
        }
        let fetched = changed.isEmpty ? [:] : try await server.fetch(changed, in: url)
        gone += changed.filter { fetched[$0] == nil && resources[$0] != nil }

        var pass = SyncApplication(collection: collection.id)
        pass.syncToken = listing.syncToken
        let signatures = try store.sync.localSignatures(of: collection)
        // Local items no server name is recorded for (an interrupted sync sent them): a new
        // server copy is parsed for its UID only when there are such items, not on every first sync.
        let unrecordedLocalUIDs = Set(signatures.keys).subtracting(resources.values.map(\.uid))
        for href in changed {
            guard let copy = fetched[href] else { continue }
            let row = resources[href]
            if row == nil, !unrecordedLocalUIDs.isEmpty, let uid = Self.uid(of: copy.text, href: href), unrecordedLocalUIDs.contains(uid) {
                pass.pulled.append(try adoptUnrecorded(href: href, uid: uid, serverCopy: copy, collection: collection, into: &pass))
                continue
            }
            let localSignature = row.flatMap { signatures[$0.uid] }
            if let row, row.isHeld, localSignature != nil {
                // The organiser changed their invitation, which holds a change of the user's kept
                // off the server: the organiser's version is taken (it is theirs), the user's kept.
                let mine = try store.sync.localResource(uid: row.uid, in: collection).map(serialize) ?? ""
                pass.conflicts.append(
                    (
                        href, row.uid,
                        "the organiser changed this invitation, which you had changed here: their version taken; "
                            + "yours is kept (--full shows it)", mine
                    ))
                pass.pulled.append(.init(href: href, etag: copy.etag, text: copy.text))
                continue
            }
            guard let row, !row.isForeign, let localSignature, localSignature != row.signature else {
                if let row, !row.isForeign, signatures[row.uid] == nil, row.signature != "" {
                    // Removed here, changed there: the change wins, the item comes back.
                    pass.conflicts.append((href, row.uid, "removed here and changed on the server: the server's version is back", row.serverCopy ?? ""))
                }
                pass.pulled.append(.init(href: href, etag: copy.etag, text: copy.text))
                continue
            }
            // Changed on both sides: merge field by field against the last server copy.
            pass.pulled.append(try merge(href: href, row: row, serverCopy: copy, collection: collection, into: &pass))
        }
        for href in gone {
            guard let row = resources[href] else { continue }
            if let local = signatures[row.uid], local != row.signature, !row.isForeign {
                let lost = try store.sync.localResource(uid: row.uid, in: collection).map(serialize) ?? ""
                pass.conflicts.append(
                    (href, row.uid, "changed here and removed on the server: removed here too; the local version is kept (--full shows it)", lost))
            }
            pass.removedOnServer.append(href)
        }
        let applied = try storePass(pass, collection: collection)
        report.pulled += applied.added + applied.updated
        report.removedHere += applied.removed
        report.notes += applied.notes
        report.conflicts += pass.conflicts.map { "\(collection.title): \($0.uid): \($0.what)" }
    }

    /// What changed since the stored token; when the server refuses the token (403 Radicale, 412
    /// Xandikos, 500 others: any HTTP refusal), every member, and `full` says so.
    private func changes(in collection: SyncCollection, url: URL) async throws -> (MultiStatus, full: Bool, note: String?) {
        guard let token = collection.syncToken else { return try await everyMember(of: collection, url: url, note: nil) }
        var answer: MultiStatus? = nil
        var refusal: CalDAVError? = nil
        do { answer = try await server.changes(in: url, since: token) } catch { refusal = error }
        if let answer { return (answer, false, nil) }
        guard let refusal, case .http = refusal else { throw refusal ?? CalDAVError.input("no answer") }
        return try await everyMember(
            of: collection, url: url,
            note: "\(collection.title): the server refused the sync token (\(refusal)); listed everything")
    }

    /// Every member with its ETag: a sync-collection without a token, or, where the server does
    /// not do RFC 6578 at all (any HTTP refusal), a PROPFIND listing, compared with the stored
    /// ETags by the pull as a full listing is. Without a token the next pass lists again.
    private func everyMember(of collection: SyncCollection, url: URL, note: String?) async throws -> (MultiStatus, full: Bool, note: String?) {
        var refusal: CalDAVError? = nil
        do { return (try await server.changes(in: url, since: nil), true, note) } catch { refusal = error }
        guard let refusal, case .http = refusal else { throw refusal ?? CalDAVError.input("no answer") }
        return (
            try await server.members(in: url), true,
            [note, "\(collection.title): the server does not list changes (RFC 6578 sync-collection: \(refusal)); compared every member's ETag"]
                .compactMap { $0 }.joined(separator: "; ")
        )
    }

    /// The merged copy of a resource changed on both sides, and a conflict when a local field lost.
    private func merge(
        href: String, row: SyncResource, serverCopy: (etag: String?, text: String), collection: SyncCollection,
        into pass: inout SyncApplication
    ) throws -> SyncApplication.Pulled {
        let server = try? ICalendar.parse(Array(serverCopy.text.utf8), file: href)
        let base = row.serverCopy.flatMap { try? ICalendar.parse(Array($0.utf8), file: href) }
        guard let local = try store.sync.localResource(uid: row.uid, in: collection),
            let theirs = server?.items.first, let mine = local.items.first
        else {
            return .init(href: href, etag: serverCopy.etag, text: serverCopy.text)
        }
        // Detached occurrences on either side: the server's whole copy, the local one kept.
        let hasOverrides = local.items.count > 1 || !(server?.overrides.isEmpty ?? true) || !(base?.overrides.isEmpty ?? true)
        let m = ItemMerge(base: hasOverrides ? nil : base?.items.first?.item, local: Self.comparable(mine, like: theirs.item), server: theirs.item)
        if !m.lostFields.isEmpty {
            pass.conflicts.append(
                (
                    href, row.uid,
                    "changed on both sides: the server's \(m.lostFields.joined(separator: ", ")) kept; the local version is kept (--full shows it)",
                    serialize(local)
                ))
        }
        guard m.hasLocalChanges else { return .init(href: href, etag: serverCopy.etag, text: serverCopy.text) }
        let text = String(decoding: ICalendar.serialize([m.merged], now: now(), floatingZone: store.floatingZone), as: UTF8.self)
        return .init(href: href, etag: serverCopy.etag, text: text, inStep: false)
    }

    /// A server resource this store has no record of, though a local item has its UID: our own
    /// upload whose record was lost (a sync stopped between the PUT and recording it), perhaps
    /// changed here since, or there. Without the copy that was sent there is no base to merge
    /// against, so which side changed cannot be told. Where the two differ the local version is
    /// kept and sent (If-Match the server's ETag) and the server's copy is kept as a conflict;
    /// with detached occurrences the server's copy is taken and the local one kept as the
    /// conflict. Either way nothing is lost, and nothing is overwritten unsaid.
    private func adoptUnrecorded(
        href: String, uid: String, serverCopy: (etag: String?, text: String), collection: SyncCollection,
        into pass: inout SyncApplication
    ) throws -> SyncApplication.Pulled {
        let asIs = SyncApplication.Pulled(href: href, etag: serverCopy.etag, text: serverCopy.text)
        let server = try? ICalendar.parse(Array(serverCopy.text.utf8), file: href)
        guard let local = try store.sync.localResource(uid: uid, in: collection),
            let theirs = server?.items.first, let mine = local.items.first
        else { return asIs }
        let hasOverrides = local.items.count > 1 || !(server?.overrides.isEmpty ?? true)
        if hasOverrides {
            let m = ItemMerge(base: nil, local: Self.comparable(mine, like: theirs.item), server: theirs.item)
            if !m.lostFields.isEmpty {
                pass.conflicts.append(
                    (
                        href, uid,
                        "on the server with no record here of sending it (an interrupted sync), and different from the local version: the server's version taken; the local version is kept (--full shows it)",
                        serialize(local)
                    ))
            }
            return asIs
        }
        // The server's copy as base: every local difference is laid over it, nothing "lost".
        let m = ItemMerge(base: theirs.item, local: Self.comparable(mine, like: theirs.item), server: theirs.item)
        guard m.hasLocalChanges else { return asIs }
        pass.conflicts.append(
            (
                href, uid,
                "on the server with no record here of sending it (an interrupted sync), and different from the local version: the local version kept and sent; the server's version is kept (--full shows it)",
                serverCopy.text
            ))
        let text = String(decoding: ICalendar.serialize([m.merged], now: now(), floatingZone: store.floatingZone), as: UTF8.self)
        return .init(href: href, etag: serverCopy.etag, text: text, inStep: false)
    }

    /// The UID a server copy holds (its first item's, or its first override's).
    static func uid(of text: String, href: String) -> String? {
        guard let parsed = try? ICalendar.parse(Array(text.utf8), file: href) else { return nil }
        return parsed.items.first?.uid ?? parsed.overrides.first?.uid
    }

    /// The local item with the identifiers a parsed copy has, so the merge compares content only.
    private static func comparable(_ item: AnyCalendarItem, like other: AnyCalendarItem) -> AnyCalendarItem {
        switch (item, other) {
        case (.event(var e), .event(let o)):
            e.identifier = o.identifier; e.calendarIdentifier = o.calendarIdentifier
            e.creationDate = o.creationDate; e.lastModifiedDate = o.lastModifiedDate
            return .event(e)
        case (.reminder(var r), .reminder(let o)):
            r.identifier = o.identifier; r.calendarIdentifier = o.calendarIdentifier
            r.creationDate = o.creationDate; r.lastModifiedDate = o.lastModifiedDate
            return .reminder(r)
        default: return item
        }
    }

    /// What to tell the user when an item repeats in a calendar (RFC 7529 RSCALE) that the
    /// collection's server does not list as one it expands: the server stores the rule as written,
    /// but its other clients may show only the first date. Nil when there is nothing to say.
    ///
    /// ```swift
    /// CalDAVSync.calendarSystemNote(event.recurrenceRules, collection: work, title: event.title)
    /// // "Work: 妈妈生日 repeats on the Chinese calendar (RSCALE=CHINESE), which this server does not list …"
    /// ```
    public static func calendarSystemNote(_ rules: [RecurrenceRule], collection: SyncCollection, title: String) -> String? {
        guard let calendar = rules.first(where: \.countsInCalendar)?.calendar,
            collection.rscales?.contains(calendar.rfc7529) != true
        else { return nil }
        return "\(collection.title): \(DisplayText.singleLine(title)) repeats on the \(calendar.name) calendar (RSCALE=\(calendar.rfc7529)), "
            + "which this server does not list in its supported-rscale-set: the rule is stored as written, "
            + "but other clients of the server may show only the first date"
    }

    /// Who organises the item when it is an invitation to the user from someone else (the user is
    /// among its attendees, not its organizer); nil otherwise. An unknown user is nobody's guest,
    /// so their own meetings are never held back for want of an address.
    static func othersInvitation(_ items: [AnyCalendarItem], identity: Identity) -> String? {
        guard let base = items.first?.base, let organizer = base.organizer, !organizer.isCurrentUser(identity),
            base.attendees.contains(where: { $0.isCurrentUser(identity) })
        else { return nil }
        return DisplayText.singleLine(organizer.name ?? organizer.shownAddress)
    }

    private func push(
        _ collection: SyncCollection, url: URL, moves: Moves, into report: inout CalDAVSyncReport,
        mergeRefusals: Bool = true
    ) async throws {
        let changes = try store.sync.localChanges(of: collection)
        let byUID = changes.synced
        var pass = SyncApplication(collection: collection.id)
        var retry: [(href: String, row: SyncResource)] = []
        // Changes first (a recurring reminder's advanced master is the lock for its completed copy), then creations.
        let changedFirst = changes.changed.map { (uid: $0, isNew: byUID[$0] == nil) }.sorted { ($0.isNew ? 1 : 0, $0.uid) < ($1.isNew ? 1 : 0, $1.uid) }
        let identity = try store.alarmDefaults(AlarmDefaults()).identity
        for (uid, _) in changedFirst {
            let row = byUID[uid]
            guard let local = try store.sync.localResource(uid: uid, in: collection) else { continue }
            if let row, let organizer = Self.othersInvitation(local.items, identity: identity) {
                // The user's change to someone else's invitation stays here: servers refuse an
                // attendee's edit or pass it on to the organiser as if it were a reply. Recorded as
                // held against the server's copy as it was: not sent again, and the organiser's
                // next update is taken with this version kept as a conflict (see pull).
                pass.pushed.append(
                    .init(
                        href: row.href, uid: uid, etag: row.etag, text: row.serverCopy ?? "",
                        signature: SyncResource.held(local.signature)))
                report.notes.append(
                    "\(collection.title): \(DisplayText.singleLine(local.items.first?.title ?? uid)) is \(organizer)'s invitation: "
                        + "your change stays on this machine (Chime sends no replies)")
                report.keptHere += 1
                continue
            }
            var text = serialize(local)
            let href = row?.href ?? Self.collectionPath(collection.url) + Self.resourceName(uid)
            var (status, etag) = try await server.put(text, at: href, in: url, ifMatch: row?.etag)
            var portable = false
            if [400, 403, 415, 422].contains(status), let items = PortableRecurrence.portable(local.items) {
                // A server that refuses RFC 7529 rules (Radicale): the dates instead, the rule kept beside them.
                let second = String(decoding: ICalendar.serialize(items, now: now(), floatingZone: store.floatingZone), as: UTF8.self)
                let answer = try await server.put(second, at: href, in: url, ifMatch: row?.etag)
                if (200..<300).contains(answer.0) { (status, etag, text, portable) = (answer.0, answer.1, second, true) }
            }
            switch status {
            case 200..<300:
                pass.pushed.append(.init(href: href, uid: uid, etag: etag, text: text, signature: local.signature))
                report.pushed += 1
                let title = local.items.first?.title ?? uid
                let rules = local.items.flatMap(\.recurrenceRules)
                if portable, let calendar = rules.compactMap(\.calendar).first {
                    report.notes.append(
                        "\(collection.title): the server refuses rules on the \(calendar.name) calendar (RFC 7529): "
                            + "\(DisplayText.singleLine(title)) was sent as its dates for the next \(PortableRecurrence.years) years, "
                            + "which every client shows; Chime keeps the rule itself")
                } else if let note = Self.calendarSystemNote(rules, collection: collection, title: title) {
                    report.notes.append(note)
                }
                if moves.from[uid] != nil { moves.accepted.insert(uid) }
            case 403 where row == nil && moves.from[uid] != nil, 409 where row == nil && moves.from[uid] != nil:
                // A server that keeps each UID once per calendar home refuses the new copy while
                // the old one exists: the old copy is moved over instead.
                try await move(
                    uid, text: text, signature: local.signature, to: href, in: collection, url: url, moves: moves,
                    pass: &pass, into: &report, refusal: status)
            case 412 where row != nil:
                retry.append((href, row!))
            case 412:
                // The href exists already: a PUT of ours whose answer was lost. The next pull adopts it.
                report.notes.append("\(collection.title): \(uid) is on the server already; taken from there on the next sync")
            case 404, 410:
                pass.conflicts.append(
                    (href, uid, "changed here and removed on the server: removed here too; the local version is kept (--full shows it)", text))
                pass.removedOnServer.append(href)
            default:
                report.notes.append("\(collection.title): could not send \(DisplayText.singleLine(local.items.first?.title ?? uid)): HTTP \(status)")
                report.refused += 1
            }
        }
        for row in changes.removed {
            if moves.from[row.uid]?.collection.id == collection.id && !moves.accepted.contains(row.uid) {
                // Moved to another calendar that has not accepted it yet: the old copy stays until it has.
                moves.waiting.insert(collection.id)
                continue
            }
            let status: Int
            switch try await server.delete(row.href, in: url, ifMatch: row.etag, knownCopy: row.serverCopy) {
            case .status(let s): status = s
            case .notSent(let why):
                // Left for the next pull, which fetches what has no ETag.
                report.notes.append("\(collection.title): \(row.uid) was not removed on the server: \(why)")
                continue
            }
            switch status {
            case 200..<300, 404, 410:
                pass.deletedOnServer.append(row.href)
                if status < 300 { report.removedThere += 1 }
            case 412:
                // Changed there since: the server's version comes back on the next pull.
                pass.deletedOnServer.append(row.href)
                report.notes.append("\(collection.title): \(row.uid) was changed on the server after it was removed here: it comes back")
            default:
                report.notes.append("\(collection.title): could not remove \(row.href) on the server: HTTP \(status)")
                report.refused += 1
            }
        }
        let applied = try storePass(pass, collection: collection)
        report.removedHere += applied.removed
        report.conflicts += pass.conflicts.map { "\(collection.title): \($0.uid): \($0.what)" }
        // A 412: someone changed it since our copy. Pull it now, merge, and send the merge once.
        if !retry.isEmpty && !mergeRefusals {
            report.notes.append("\(collection.title): \(retry.count) item(s) changed on the server again while merging: sent on the next sync")
        } else if !retry.isEmpty {
            var again = SyncApplication(collection: collection.id)
            let fetched = try await server.fetch(retry.map(\.href), in: url)
            for (href, row) in retry {
                guard let copy = fetched[href] else { continue }
                again.pulled.append(try merge(href: href, row: row, serverCopy: copy, collection: collection, into: &again))
            }
            _ = try storePass(again, collection: collection)
            report.conflicts += again.conflicts.map { "\(collection.title): \($0.uid): \($0.what)" }
            try await push(collection, url: url, moves: moves, into: &report, mergeRefusals: false)
        }
    }

    /// Reads the pass's pulled copies by the sync's policy (``ServerCopies``), then stores the pass
    /// in one transaction.
    private func storePass(_ pass: SyncApplication, collection: SyncCollection) throws -> SyncApplied {
        var pass = pass
        try ServerCopies.read(&pass, collection: collection, store: store)
        return try store.sync.apply(pass, collection: collection)
    }

    /// A WebDAV MOVE of a moved item's old copy into its new calendar, then the local version
    /// over it (conditional on the moved copy's ETag). What cannot be done is said; nothing is
    /// removed, so the server keeps the item in its old calendar until a later pass succeeds.
    private func move(
        _ uid: String, text: String, signature: String, to href: String, in collection: SyncCollection, url: URL,
        moves: Moves, pass: inout SyncApplication, into report: inout CalDAVSyncReport, refusal: Int
    ) async throws {
        guard let source = moves.from[uid], let sourceURL = URL(string: source.collection.url) else { return }
        let title = DisplayText.singleLine(uid)
        switch try await server.move(source.row.href, in: sourceURL, to: href, in: url, ifMatch: source.row.etag) {
        case .status(let status) where status == 201 || status == 204:
            // (A 207 is a multi-status of failures for parts of the move: not a move.)
            var left = SyncApplication(collection: source.collection.id)
            left.deletedOnServer = [source.row.href]
            _ = try storePass(left, collection: source.collection)
            moves.accepted.insert(uid)
            let moved = try await server.fetch([href], in: url)[href]
            let (put, etag) = try await server.put(text, at: href, in: url, ifMatch: moved?.etag ?? source.row.etag)
            if (200..<300).contains(put) {
                pass.pushed.append(.init(href: href, uid: uid, etag: etag, text: text, signature: signature))
            } else {
                // Moved, but this machine's version is not there yet: recorded as not in step, so the next pass sends it.
                pass.pushed.append(.init(href: href, uid: uid, etag: moved?.etag, text: moved?.text ?? source.row.serverCopy ?? text, signature: ""))
            }
            report.pushed += 1
            report.notes.append("\(collection.title): \(title) moved here from \(source.collection.title) on the server")
        case .status(let status):
            report.refused += 1
            report.notes.append(
                "\(collection.title): could not move \(title) here from \(source.collection.title): the server refused a copy "
                    + "(HTTP \(refusal)) and the move (HTTP \(status)); it stays in \(source.collection.title) on the server")
        case .notSent(let why):
            report.refused += 1
            report.notes.append(
                "\(collection.title): could not move \(title) here from \(source.collection.title) (HTTP \(refusal)): \(why); "
                    + "it stays in \(source.collection.title) on the server")
        }
    }

    private func serialize(_ local: LocalResource) -> String {
        String(decoding: ICalendar.serialize(local.items, now: now(), floatingZone: store.floatingZone), as: UTF8.self)
    }

    /// The collection's path, percent-decoded, ending in `/` (hrefs are kept decoded).
    static func collectionPath(_ url: String) -> String {
        let path = URL(string: url).map { $0.path(percentEncoded: false) } ?? url
        return path.hasSuffix("/") ? path : path + "/"
    }

    /// Our own resource names: the UID when it is made of safe characters (Chime's are UUIDs),
    /// else a hash of it; never anything a server re-encodes differently.
    static func resourceName(_ uid: String) -> String {
        let safe = uid.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) && $0.isASCII || "-_.".unicodeScalars.contains($0) }
        if safe && !uid.isEmpty && uid.count <= 100 { return uid + ".ics" }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in uid.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return String(hash, radix: 16) + ".ics"
    }
}
