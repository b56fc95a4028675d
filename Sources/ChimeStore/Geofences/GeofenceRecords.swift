import ChimeCore
import GRDB

/// The daemon's position fix as stored: where, how precise, when, and from which provider.
public struct StoredFix: Hashable, Sendable {
    public var fix: LocationFix
    /// `geoclue`, `replay:commute.gpx`, `fixed:…`.
    public var provider: String

    public init(fix: LocationFix, provider: String) {
        self.fix = fix
        self.provider = provider
    }
}

/// Persisted geofence states (one row per armed fence, keyed like the ledger) and the last fix.
///
/// ```swift
/// let states = try store.geofences.statuses()
/// for fence in armed { engine.arm(fence, status: states[fence.key] ?? .unknown) }
/// try store.geofences.saveStatuses(step.changed, fix: StoredFix(fix: fix, provider: "geoclue"))
/// ```
public struct GeofenceRecords: Sendable {
    let store: EventStore
}

extension EventStore {
    /// Each armed geofence's last state and the last position, in this store's database.
    public var geofences: GeofenceRecords { GeofenceRecords(store: self) }
}

extension GeofenceRecords {
    /// The saved states: all of them, or those of these items only (re-arming a few changed items).
    public func statuses(items: Set<String>? = nil) throws(StoreError) -> [FiringKey: FenceStatus] {
        try store.read { db in
            var result: [FiringKey: FenceStatus] = [:]
            var sql = "SELECT item_id, occurrence, alarm, state, since, pending, pending_since FROM geofence_state"
            var arguments = StatementArguments()
            if let items {
                if items.isEmpty { return [:] }
                sql += " WHERE item_id IN (\(items.map { _ in "?" }.joined(separator: ",")))"
                arguments = StatementArguments(Array(items))
            }
            let rows = try Row.fetchCursor(db, sql: sql, arguments: arguments)
            while let row = try rows.next() {
                let key = FiringKey(item: row[0], occurrence: Instant(secondsSince1970: row[1]), alarm: row[2])
                result[key] = FenceStatus(
                    state: FenceState(rawValue: row[3]) ?? .unknown,
                    since: (row[4] as Int64?).map(Instant.init(secondsSince1970:)),
                    pending: (row[5] as String?).flatMap(FenceState.init(rawValue:)),
                    pendingSince: (row[6] as Int64?).map(Instant.init(secondsSince1970:)))
            }
            return result
        }
    }

    /// Saves changed states and (optionally) the fix that caused them, in one transaction.
    public func saveStatuses(_ changes: [(key: FiringKey, status: FenceStatus)], fix: StoredFix?) throws(StoreError) {
        if changes.isEmpty && fix == nil { return }
        try store.write { db, _ in
            for (key, status) in changes {
                try db.cachedStatement(
                    sql: """
                        INSERT INTO geofence_state (item_id, occurrence, alarm, state, since, pending, pending_since)
                        VALUES (?, ?, ?, ?, ?, ?, ?)
                        ON CONFLICT (item_id, occurrence, alarm) DO UPDATE SET
                            state = excluded.state, since = excluded.since, pending = excluded.pending,
                            pending_since = excluded.pending_since
                        """
                ).execute(arguments: [
                    key.item, key.occurrence.secondsSince1970, key.alarm, status.state.rawValue,
                    status.since?.secondsSince1970, status.pending?.rawValue,
                    status.pendingSince?.secondsSince1970
                ])
            }
            if let fix {
                try db.cachedStatement(
                    sql: """
                        INSERT INTO location_fix (id, latitude, longitude, accuracy, time_ms, provider) VALUES (1, ?, ?, ?, ?, ?)
                        ON CONFLICT (id) DO UPDATE SET latitude = excluded.latitude, longitude = excluded.longitude,
                            accuracy = excluded.accuracy, time_ms = excluded.time_ms, provider = excluded.provider
                        """
                ).execute(arguments: [
                    fix.fix.latitude, fix.fix.longitude, fix.fix.horizontalAccuracy,
                    fix.fix.timestampMilliseconds, fix.provider
                ])
            }
        }
    }

    /// Deletes the states of fences that are no longer armed.
    public func prune(keeping armed: Set<FiringKey>) throws(StoreError) {
        try store.write { db, _ in
            let rows = try Row.fetchAll(db, sql: "SELECT item_id, occurrence, alarm FROM geofence_state")
            for row in rows {
                let key = FiringKey(item: row[0], occurrence: Instant(secondsSince1970: row[1]), alarm: row[2])
                if !armed.contains(key) {
                    try db.execute(
                        sql: "DELETE FROM geofence_state WHERE item_id = ? AND occurrence = ? AND alarm = ?",
                        arguments: [key.item, key.occurrence.secondsSince1970, key.alarm])
                }
            }
        }
    }

    public func lastFix() throws(StoreError) -> StoredFix? {
        try store.read { db in
            try Row.fetchOne(db, sql: "SELECT latitude, longitude, accuracy, time_ms, provider FROM location_fix WHERE id = 1").map {
                StoredFix(
                    fix: LocationFix(
                        coordinate: Coordinate(latitude: $0[0], longitude: $0[1]), horizontalAccuracy: $0[2],
                        timestampMilliseconds: $0[3]), provider: $0[4])
            }
        }
    }
}
