import ChimeCore
import ChimeICS
import GRDB

/// A calendar filled from a published iCalendar feed (holidays, a team's published calendar):
/// read-only here, refreshed from its URL.
public struct CalendarSubscription: Hashable, Sendable {
    public var calendarIdentifier: String
    public var title: String
    /// The feed (`webcal://` is kept as given; it is fetched over https).
    public var url: String
    public var refreshSeconds: Int64
    public var etag: String?
    public var lastModified: String?
    public var lastRefresh: Instant?
    public var lastError: String?

    public init(
        calendarIdentifier: String, title: String, url: String, refreshSeconds: Int64, etag: String? = nil,
        lastModified: String? = nil, lastRefresh: Instant? = nil, lastError: String? = nil
    ) {
        self.calendarIdentifier = calendarIdentifier
        self.title = title
        self.url = url
        self.refreshSeconds = refreshSeconds
        self.etag = etag
        self.lastModified = lastModified
        self.lastRefresh = lastRefresh
        self.lastError = lastError
    }

    /// True when the feed should be fetched again at `now`.
    public func isDue(at now: Instant) -> Bool {
        guard let last = lastRefresh else { return true }
        return now.secondsSince1970 >= last.secondsSince1970 + refreshSeconds
    }
}

/// What a refresh changed.
public struct SubscriptionRefresh: Sendable {
    public var added = 0, updated = 0, removed = 0
    /// Repairs made while reading the feed, and components left out, each named by feed and
    /// line: read in the user's language at the edge (`messages(warning)`).
    public var warnings: [MessageText] = []
    /// The same in English, as logs and JSON carry them.
    public var notes: [String] { warnings.map(\.english) }
}

extension EventStore {
    /// Creates the read-only calendar of a feed; the first refresh fills it.
    ///
    /// ```swift
    /// let holidays = try store.addSubscription(url: "webcal://example.org/holidays.ics", title: "Holidays", refreshSeconds: 86_400)
    /// ```
    @discardableResult
    public func addSubscription(url: String, title: String, refreshSeconds: Int64) throws(StoreError) -> CalendarSubscription {
        let calendar = ChimeCore.Calendar(title: title, entityType: .event, allowsModifications: false)
        try write { db, _ in
            try db.execute(
                sql: "INSERT INTO calendar (id, title, color, entity_type, allows_modifications, is_default, ics_extras) VALUES (?, ?, ?, 'event', 0, 0, '')",
                arguments: [calendar.identifier, title, calendar.color])
            try Journal.record(db, .calendar, calendar.identifier, .inserted)
            try db.execute(
                sql: "INSERT INTO subscription (calendar_id, url, refresh_seconds) VALUES (?, ?, ?)",
                arguments: [calendar.identifier, url, refreshSeconds])
        }
        return CalendarSubscription(calendarIdentifier: calendar.identifier, title: title, url: url, refreshSeconds: refreshSeconds)
    }

    /// Every subscription, by title.
    public func subscriptions() throws(StoreError) -> [CalendarSubscription] {
        try read { db in try Self.subscriptions(db) }
    }

    static func subscriptions(_ db: Database) throws -> [CalendarSubscription] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT s.calendar_id, c.title, s.url, s.refresh_seconds, s.etag, s.last_modified, s.last_refresh, s.last_error
                FROM subscription s JOIN calendar c ON c.id = s.calendar_id ORDER BY c.title
                """
        ).map { row in
            CalendarSubscription(
                calendarIdentifier: row[0], title: row[1], url: row[2], refreshSeconds: row[3], etag: row[4],
                lastModified: row[5], lastRefresh: (row[6] as Int64?).map(Instant.init(secondsSince1970:)),
                lastError: row[7])
        }
    }

    /// Replaces the calendar's items by the feed's, in one transaction: items the feed no longer
    /// has go, the others are updated in place (their alarms' history stays with them). An item
    /// whose new copy is skipped or refused stays as it was stored. Only events are kept: a feed's
    /// to-dos are noted and left out.
    public func applySubscription(
        _ subscription: CalendarSubscription, feed bytes: [UInt8], etag: String?,
        lastModified: String?, at now: Instant
    ) throws -> SubscriptionRefresh {
        // Messages name the feed by its URL (a line number in it still says where).
        try applySubscription(
            subscription, parsed: try ICalendar.parse(bytes, file: subscription.url), etag: etag,
            lastModified: lastModified, at: now)
    }

    /// The same, for a feed already read (as it downloaded: ``ICalendar/parse(file:strict:chunks:)``
    /// with the subscription's URL as the file name).
    public func applySubscription(
        _ subscription: CalendarSubscription, parsed: ICSParseResult, etag: String?,
        lastModified: String?, at now: Instant
    ) throws -> SubscriptionRefresh {
        var parsed = parsed
        var refresh = SubscriptionRefresh()
        refresh.warnings = (parsed.repairs + parsed.skipped).map(\.located)
        let todos = parsed.items.filter { if case .reminder = $0.item { return true } else { return false } }
        if !todos.isEmpty {
            refresh.warnings.append(
                MessageText(
                    "{calendar}: to-dos in the feed left out ({count}): a subscription holds events",
                    ["calendar": subscription.title, "count": "\(todos.count)"]))
            parsed.items.removeAll { if case .reminder = $0.item { return true } else { return false } }
        }
        let id = subscription.calendarIdentifier
        // An event the feed still holds but in a form that cannot be read (skipped, said in the
        // warnings) keeps its stored copy, changed occurrences and all: it is not gone from the
        // feed. Its changed occurrences in the feed are left out with it: alone, they would stand
        // in for the whole series.
        let masters = Set(parsed.items.map(\.uid))
        parsed.overrides.removeAll { parsed.unreadable.uids.contains($0.uid) && !masters.contains($0.uid) }
        // An occurrence the feed has without its series is stored as an event of its own: not gone either.
        let uids = masters.union(parsed.overrides.map(\.uid)).union(parsed.unreadable.uids)
        // The calendar is read-only to everyone else; this transaction opens it and closes it again.
        try perform(commit: false) { db, _ in
            try db.execute(sql: "UPDATE calendar SET allows_modifications = 1 WHERE id = ?", arguments: [id])
        }
        let report = try importParsed(
            parsed, file: subscription.title, into: .identified(events: id, reminders: nil),
            dryRun: false, strict: false, authoritative: true, commit: false)
        refresh.added = report.eventsAdded
        refresh.updated = report.eventsUpdated
        refresh.warnings += report.skipped.map(\.located)
        let gone = try read { db in
            try Row.fetchAll(db, sql: "SELECT id, external_id FROM item WHERE calendar_id = ? AND series_id IS NULL", arguments: [id])
                .compactMap { row -> String? in uids.contains(row[1]) ? nil : row[0] }
        }
        refresh.removed = gone.count
        try perform(commit: false) { db, _ in
            for item in gone {
                try db.execute(sql: "DELETE FROM item WHERE id = ?", arguments: [item])
                try Journal.record(db, .event, item, .deleted)
            }
            try db.execute(sql: "UPDATE calendar SET allows_modifications = 0 WHERE id = ?", arguments: [id])
            try db.execute(
                sql: "UPDATE subscription SET etag = ?, last_modified = ?, last_refresh = ?, last_error = NULL WHERE calendar_id = ?",
                arguments: [etag, lastModified, now.secondsSince1970, id])
        }
        try commit()
        return refresh
    }

    /// Records a refresh that changed nothing (the feed answered 304) or failed.
    public func recordSubscriptionRefresh(_ subscription: CalendarSubscription, at now: Instant, error: String?) throws(StoreError) {
        try write { db, _ in
            try db.execute(
                sql: "UPDATE subscription SET last_refresh = ?, last_error = ? WHERE calendar_id = ?",
                arguments: [now.secondsSince1970, error, subscription.calendarIdentifier])
        }
    }
}
