import ChimeCore
import GRDB

/// Where an app stands with one entity type (EventKit's `EKAuthorizationStatus`).
public enum AuthorizationStatus: String, Hashable, Sendable, CaseIterable {
    /// Never asked: the first request asks the user.
    case notDetermined
    /// Refused by policy, not by the user; a request does not ask.
    case restricted
    /// The user said no; a request does not ask again (`chime access reset` does).
    case denied
    /// The user said yes.
    case authorized
}

/// One decision kept in the store: an app, an entity type, what was decided, by whom and when.
///
/// ```swift
/// for decision in try store.access.decisions() {
///     print(decision.appID, decision.entityType, decision.status)
/// }
/// ```
public struct AccessDecision: Hashable, Sendable {
    /// How the app is known: `flatpak:ID`, `unit:NAME` (a systemd unit or scope) or `exe:PATH`.
    public var appID: String
    public var entityType: EntityType
    /// `.denied` or `.authorized` (the two a user can decide).
    public var status: AuthorizationStatus
    /// `prompt` (the user answered a notification) or `command` (`chime access grant|revoke`).
    public var decidedBy: String
    public var decidedAt: Instant
    public var lastUsedAt: Instant?

    public init(
        appID: String, entityType: EntityType, status: AuthorizationStatus, decidedBy: String,
        decidedAt: Instant, lastUsedAt: Instant? = nil
    ) {
        self.appID = appID
        self.entityType = entityType
        self.status = status
        self.decidedBy = decidedBy
        self.decidedAt = decidedAt
        self.lastUsedAt = lastUsedAt
    }
}

/// Per-app access decisions (EventKit's authorization status), kept in the store's database.
///
/// ```swift
/// if try store.access.authorizationStatus(appID: "flatpak:org.example.Planner", for: .event) == .authorized { … }
/// ```
public struct AccessDecisions: Sendable {
    let store: EventStore
}

extension EventStore {
    /// Which apps may read and change events and reminders, in this store's database.
    public var access: AccessDecisions { AccessDecisions(store: self) }
}

extension AccessDecisions {
    /// The stored status of `appID` for `entityType`: `.notDetermined` when nothing was decided.
    ///
    /// ```swift
    /// if try store.access.authorizationStatus(appID: "flatpak:org.example.Planner", for: .event) == .authorized { … }
    /// ```
    public func authorizationStatus(appID: String, for entityType: EntityType) throws(StoreError) -> AuthorizationStatus {
        try store.read { db in
            let raw = try String.fetchOne(
                db, sql: "SELECT status FROM app_access WHERE app_id = ? AND entity_type = ?",
                arguments: [appID, entityType.rawValue])
            return raw.flatMap(AuthorizationStatus.init(rawValue:)) ?? .notDetermined
        }
    }

    /// Records the user's decision (`.authorized` or `.denied`), replacing an earlier one.
    ///
    /// ```swift
    /// try store.access.setAuthorization(.denied, appID: "exe:/usr/bin/spy", for: .reminder, decidedBy: "command")
    /// ```
    public func setAuthorization(
        _ status: AuthorizationStatus, appID: String, for entityType: EntityType,
        decidedBy: String
    ) throws(StoreError) {
        precondition(status == .authorized || status == .denied, "only a user's yes or no is stored")
        try store.write { db, now in
            try db.execute(
                sql: """
                    INSERT INTO app_access (app_id, entity_type, status, decided_by, decided_at) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT (app_id, entity_type) DO UPDATE SET status = excluded.status,
                        decided_by = excluded.decided_by, decided_at = excluded.decided_at
                    """, arguments: [appID, entityType.rawValue, status.rawValue, decidedBy, now.secondsSince1970])
        }
    }

    /// Forgets the decisions for `appID` (one entity type, or both): its next request asks again.
    /// Returns how many decisions were removed.
    @discardableResult
    public func resetAuthorization(appID: String, for entityType: EntityType? = nil) throws(StoreError) -> Int {
        try store.write { db, _ in
            if let entityType {
                try db.execute(
                    sql: "DELETE FROM app_access WHERE app_id = ? AND entity_type = ?",
                    arguments: [appID, entityType.rawValue])
            } else {
                try db.execute(sql: "DELETE FROM app_access WHERE app_id = ?", arguments: [appID])
            }
            return db.changesCount
        }
    }

    /// Notes that an authorized app used its access (shown by `chime access list`); at most one
    /// write a minute per app and entity type, so reads stay reads.
    public func noteUsed(appID: String, for entityType: EntityType) throws(StoreError) {
        try store.write { db, now in
            try db.execute(
                sql: """
                    UPDATE app_access SET last_used_at = ?
                    WHERE app_id = ? AND entity_type = ? AND (last_used_at IS NULL OR last_used_at < ?)
                    """, arguments: [now.secondsSince1970, appID, entityType.rawValue, now.secondsSince1970 - 60])
        }
    }

    /// Every stored decision, by app then entity type.
    public func decisions() throws(StoreError) -> [AccessDecision] {
        try store.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT app_id, entity_type, status, decided_by, decided_at, last_used_at
                    FROM app_access ORDER BY app_id, entity_type
                    """
            ).compactMap { row -> AccessDecision? in
                guard let type = EntityType(rawValue: row["entity_type"]),
                    let status = AuthorizationStatus(rawValue: row["status"])
                else { return nil }
                let used: Int64? = row["last_used_at"]
                return AccessDecision(
                    appID: row["app_id"], entityType: type, status: status, decidedBy: row["decided_by"],
                    decidedAt: Instant(secondsSince1970: row["decided_at"]),
                    lastUsedAt: used.map { Instant(secondsSince1970: $0) })
            }
        }
    }
}
