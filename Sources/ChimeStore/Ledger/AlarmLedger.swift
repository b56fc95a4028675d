import ChimeCore
import GRDB

/// Where one alarm firing stands. A firing with no ledger row is `.scheduled`.
public enum FiringState: String, Hashable, Sendable, CaseIterable {
    case scheduled, delivered, snoozed, dismissed, missed
}

/// One ledger row: what happened to one firing.
public struct LedgerEntry: Hashable, Sendable {
    public var key: FiringKey
    public var fireAt: Instant
    public var state: FiringState
    public var title: String
    /// When it was last shown (milliseconds since 1970), if ever.
    public var deliveredAtMilliseconds: Int64?
    public var snoozedUntil: Instant?
    /// How many times it was shown (1 + snoozes that came due).
    public var deliveries: Int
    /// When the row last changed (for a snoozed firing: when it was snoozed).
    public var updated: Instant? = nil
}

/// The alarm ledger: one row per firing, so that delivery is at most once per key across
/// crashes and restarts, and catch-up after downtime knows exactly what was already shown.
///
/// Delivery is claimed *before* the notification is shown, in one transaction with the
/// scheduler's checkpoint, so no other run shows it too; the claim is *confirmed* (its
/// `delivered_at` set) only once the notification server accepted it. A claim left unconfirmed
/// (the server refused, or the daemon died in between) is shown again, never lost.
///
/// ```swift
/// let claimed = try store.ledger.claimDeliveries([firing], checkedUntil: now, deliveredAtMilliseconds: ms)
/// for firing in claimed { try sink.deliver(…) }
/// try store.ledger.confirmDeliveries(claimed.map(\.key), deliveredAtMilliseconds: ms)
/// ```
public struct AlarmLedger: Sendable {
    let store: EventStore
}

extension EventStore {
    /// The alarm ledger and the scheduler's checkpoint, in this store's database.
    public var ledger: AlarmLedger { AlarmLedger(store: self) }
}

extension AlarmLedger {
    /// Claims firings for delivery unless the ledger already has them delivered, snoozed,
    /// dismissed or missed, and records `checkedUntil`; returns the firings that were claimed, in
    /// order. A claim is unconfirmed (``LedgerEntry/deliveredAtMilliseconds`` nil) until
    /// ``confirmDeliveries(_:deliveredAtMilliseconds:)``.
    public func claimDeliveries(
        _ firings: [AlarmFiring], checkedUntil: Instant?,
        deliveredAtMilliseconds: Int64
    ) throws(StoreError) -> [AlarmFiring] {
        try store.write { db, _ in
            var claimed: [AlarmFiring] = []
            for firing in firings where try Self.claim(firing, state: .delivered, at: deliveredAtMilliseconds, in: db) {
                claimed.append(firing)
            }
            if let checkedUntil { try Self.advanceCheckpoint(to: checkedUntil, in: db) }
            return claimed
        }
    }

    /// The server accepted these claimed firings: they are delivered.
    public func confirmDeliveries(_ keys: [FiringKey], deliveredAtMilliseconds: Int64) throws(StoreError) {
        guard !keys.isEmpty else { return }
        try store.write { db, _ in
            let statement = try db.cachedStatement(
                sql: """
                    UPDATE alarm_ledger SET delivered_at = ?, updated = ?
                    WHERE item_id = ? AND occurrence = ? AND alarm = ? AND state = 'delivered' AND delivered_at IS NULL
                    """)
            for key in keys {
                try statement.execute(arguments: [
                    deliveredAtMilliseconds, deliveredAtMilliseconds / 1000,
                    key.item, key.occurrence.secondsSince1970, key.alarm
                ])
            }
        }
    }

    /// Claimed firings never confirmed: the server refused them, or the process died before it answered.
    public func unconfirmedDeliveries() throws(StoreError) -> [LedgerEntry] {
        try store.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT \(Self.ledgerColumns) FROM alarm_ledger WHERE state = 'delivered' AND delivered_at IS NULL
                    ORDER BY fire_at, item_id
                    """
            ).map(Self.entry)
        }
    }

    /// Claimed firings that could not be shown within the grace window: recorded as missed.
    public func markUnconfirmedMissed(_ keys: [FiringKey], now: Instant) throws(StoreError) {
        guard !keys.isEmpty else { return }
        try store.write { db, _ in
            for key in keys {
                try db.execute(
                    sql: """
                        UPDATE alarm_ledger SET state = 'missed', updated = ?
                        WHERE item_id = ? AND occurrence = ? AND alarm = ? AND state = 'delivered' AND delivered_at IS NULL
                        """, arguments: [now.secondsSince1970, key.item, key.occurrence.secondsSince1970, key.alarm])
            }
        }
    }

    /// Records firings that came due too long ago to be shown (outside the grace window).
    public func recordMissed(_ firings: [AlarmFiring], checkedUntil: Instant?, now: Instant) throws(StoreError) {
        try store.write { db, _ in
            for firing in firings { _ = try Self.claim(firing, state: .missed, at: now.secondsSince1970 * 1000, in: db) }
            if let checkedUntil { try Self.advanceCheckpoint(to: checkedUntil, in: db) }
        }
    }

    /// A delivered firing (with `includingMissed`, a missed one too) is to be shown again at `until`.
    @discardableResult
    public func snooze(_ key: FiringKey, until: Instant, now: Instant, includingMissed: Bool = false) throws(StoreError) -> Bool {
        let states = includingMissed ? "'delivered', 'snoozed', 'missed'" : "'delivered', 'snoozed'"
        return try store.write { db, _ in
            try db.execute(
                sql: """
                    UPDATE alarm_ledger SET state = 'snoozed', snoozed_until = ?, updated = ?
                    WHERE item_id = ? AND occurrence = ? AND alarm = ? AND state IN (\(states))
                    """, arguments: [until.secondsSince1970, now.secondsSince1970, key.item, key.occurrence.secondsSince1970, key.alarm])
            return db.changesCount > 0
        }
    }

    /// Snoozed firings whose snooze was written into their item as a snooze alarm: they are
    /// answered, and the snooze alarm's firing `successor` is what rings at its time here (the
    /// scheduler's claim of it from the item then finds it taken, so it rings once). It keeps the
    /// shown count and title of the first of `keys`. One transaction.
    public func passSnooze(from keys: [FiringKey], to successor: FiringKey, until: Instant, now: Instant) throws(StoreError) {
        guard let first = keys.first else { return }
        try store.write { db, _ in
            let row = try Row.fetchOne(
                db, sql: "SELECT title, deliveries, delivered_at FROM alarm_ledger WHERE item_id = ? AND occurrence = ? AND alarm = ?",
                arguments: [first.item, first.occurrence.secondsSince1970, first.alarm])
            for key in keys {
                try db.execute(
                    sql: """
                        UPDATE alarm_ledger SET state = 'dismissed', snoozed_until = NULL, updated = ?
                        WHERE item_id = ? AND occurrence = ? AND alarm = ? AND state = 'snoozed'
                        """, arguments: [now.secondsSince1970, key.item, key.occurrence.secondsSince1970, key.alarm])
            }
            try db.execute(
                sql: """
                    INSERT INTO alarm_ledger (item_id, occurrence, alarm, fire_at, state, title, delivered_at, deliveries, snoozed_until, updated)
                    VALUES (?, ?, ?, ?, 'snoozed', ?, ?, ?, ?, ?)
                    ON CONFLICT (item_id, occurrence, alarm) DO UPDATE SET
                        state = 'snoozed', snoozed_until = excluded.snoozed_until, updated = excluded.updated
                    """,
                arguments: [
                    successor.item, successor.occurrence.secondsSince1970, successor.alarm, until.secondsSince1970,
                    (row?["title"] as String?) ?? "", row?["delivered_at"] as Int64?, (row?["deliveries"] as Int64?) ?? 1,
                    until.secondsSince1970, now.secondsSince1970
                ])
        }
    }

    /// A snoozed firing came due: marks it delivered again. False when it is no longer snoozed
    /// (dismissed meanwhile, or already re-shown by an earlier run).
    public func claimSnoozed(_ key: FiringKey, deliveredAtMilliseconds: Int64) throws(StoreError) -> Bool {
        try store.write { db, _ in
            try db.execute(
                sql: """
                    UPDATE alarm_ledger SET state = 'delivered', snoozed_until = NULL, deliveries = deliveries + 1,
                           delivered_at = ?, updated = ?
                    WHERE item_id = ? AND occurrence = ? AND alarm = ? AND state = 'snoozed' AND snoozed_until <= ?
                    """,
                arguments: [
                    deliveredAtMilliseconds, deliveredAtMilliseconds / 1000,
                    key.item, key.occurrence.secondsSince1970, key.alarm, deliveredAtMilliseconds / 1000
                ])
            return db.changesCount > 0
        }
    }

    /// The user closed the notification.
    public func dismiss(_ keys: [FiringKey], now: Instant) throws(StoreError) {
        try settle(keys, from: "'delivered'", now: now)
    }

    /// The alarms' items were completed, removed, cancelled or moved since they rang: shown or
    /// snoozed, they are over (recorded as dismissed), so neither a snooze nor a restart shows them again.
    public func withdraw(_ keys: [FiringKey], now: Instant) throws(StoreError) {
        try settle(keys, from: "'delivered', 'snoozed'", now: now)
    }

    private func settle(_ keys: [FiringKey], from states: String, now: Instant) throws(StoreError) {
        try store.write { db, _ in
            for key in keys {
                try db.execute(
                    sql: """
                        UPDATE alarm_ledger SET state = 'dismissed', snoozed_until = NULL, updated = ?
                        WHERE item_id = ? AND occurrence = ? AND alarm = ? AND state IN (\(states))
                        """, arguments: [now.secondsSince1970, key.item, key.occurrence.secondsSince1970, key.alarm])
            }
        }
    }

    /// Ledger rows for these keys (keys without a row are scheduled).
    public func entries(for keys: [FiringKey]) throws(StoreError) -> [FiringKey: LedgerEntry] {
        try store.read { db in
            var result: [FiringKey: LedgerEntry] = [:]
            let statement = try db.cachedStatement(sql: "SELECT \(Self.ledgerColumns) FROM alarm_ledger WHERE item_id = ? AND occurrence = ? AND alarm = ?")
            for key in keys {
                if let row = try Row.fetchOne(statement, arguments: [key.item, key.occurrence.secondsSince1970, key.alarm]) {
                    result[key] = Self.entry(row)
                }
            }
            return result
        }
    }

    /// The items with a firing shown or snoozed here in the day before `now` other than `keys`:
    /// an answer written into such an item (its `X-MOZ-LASTACK` covers every earlier firing)
    /// would end that firing on the other devices too, so answers to it stay on this machine.
    /// `chime dismiss`, `chime snooze` and the daemon's snooze ask this.
    public func itemsWithOpenFirings(at now: Instant, excluding keys: [FiringKey]) throws(StoreError) -> Set<String> {
        let answered = Set(keys)
        return try store.read { db in
            let rows = try Row.fetchAll(
                db, sql: "SELECT item_id, occurrence, alarm FROM alarm_ledger WHERE state IN ('delivered', 'snoozed') AND fire_at >= ?",
                arguments: [now.adding(-86_400).secondsSince1970])
            var items: Set<String> = []
            for row in rows {
                let key = FiringKey(item: row[0], occurrence: Instant(secondsSince1970: row[1]), alarm: row[2])
                if !answered.contains(key) { items.insert(key.item) }
            }
            return items
        }
    }

    /// Every ledger row, newest firing first (for `chime alarms --history` and tests).
    public func entries(state: FiringState? = nil) throws(StoreError) -> [LedgerEntry] {
        try store.read { db in
            let filter = state.map { "WHERE state = '\($0.rawValue)'" } ?? ""
            return try Row.fetchAll(db, sql: "SELECT \(Self.ledgerColumns) FROM alarm_ledger \(filter) ORDER BY fire_at DESC, item_id")
                .map(Self.entry)
        }
    }

    /// The instant up to which every firing has been decided (delivered, missed …); nil before the
    /// scheduler's first run on this store.
    public func checkpoint() throws(StoreError) -> Instant? {
        try store.read { db in
            try Int64.fetchOne(db, sql: "SELECT value FROM scheduler_state WHERE name = 'checked_until'")
                .map(Instant.init(secondsSince1970:))
        }
    }

    /// Moves the checkpoint forward (never back: that is ``rewindCheckpoint(to:)``).
    public func advanceCheckpoint(to instant: Instant) throws(StoreError) {
        try store.write { db, _ in try Self.advanceCheckpoint(to: instant, in: db) }
    }

    /// Moves the checkpoint back to `instant` if it lies later: after the wall clock was set
    /// back, the time between the new now and the old checkpoint is decided again (items added
    /// for it fire); the ledger keeps what was already shown from showing twice.
    public func rewindCheckpoint(to instant: Instant) throws(StoreError) {
        try store.write { db, _ in
            try db.execute(
                sql: "UPDATE scheduler_state SET value = min(value, ?) WHERE name = 'checked_until'",
                arguments: [instant.secondsSince1970])
        }
    }

    /// Deletes ledger rows last touched before `instant`, except snoozed ones.
    public func prune(before instant: Instant) throws(StoreError) {
        try store.write { db, _ in
            try db.execute(
                sql: "DELETE FROM alarm_ledger WHERE updated < ? AND state <> 'snoozed'",
                arguments: [instant.secondsSince1970])
        }
    }

    // MARK: Rows

    private static let ledgerColumns = "item_id, occurrence, alarm, fire_at, state, title, delivered_at, snoozed_until, deliveries, updated"

    private static func entry(_ row: Row) -> LedgerEntry {
        LedgerEntry(
            key: FiringKey(item: row[0], occurrence: Instant(secondsSince1970: row[1]), alarm: row[2]),
            fireAt: Instant(secondsSince1970: row[3]), state: FiringState(rawValue: row[4]) ?? .scheduled,
            title: row[5], deliveredAtMilliseconds: row[6],
            snoozedUntil: (row[7] as Int64?).map(Instant.init(secondsSince1970:)), deliveries: row[8],
            updated: (row[9] as Int64?).map(Instant.init(secondsSince1970:)))
    }

    /// Inserts the firing's row in `state`; a delivery claim has no `delivered_at` until confirmed.
    private static func claim(_ firing: AlarmFiring, state: FiringState, at milliseconds: Int64, in db: Database) throws -> Bool {
        let delivered = state == .delivered
        try db.cachedStatement(
            sql: """
                INSERT INTO alarm_ledger (item_id, occurrence, alarm, fire_at, state, title, delivered_at, deliveries, updated)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (item_id, occurrence, alarm) DO UPDATE SET
                    state = excluded.state, fire_at = excluded.fire_at, title = excluded.title,
                    delivered_at = excluded.delivered_at, deliveries = excluded.deliveries, updated = excluded.updated
                WHERE alarm_ledger.state = 'scheduled'
                """
        ).execute(arguments: [
            firing.key.item, firing.key.occurrence.secondsSince1970, firing.key.alarm,
            firing.fireAt.secondsSince1970, state.rawValue, firing.item.title,
            nil, delivered ? 1 : 0, milliseconds / 1000
        ])
        return db.changesCount > 0
    }

    private static func advanceCheckpoint(to instant: Instant, in db: Database) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO scheduler_state (name, value) VALUES ('checked_until', ?)
                ON CONFLICT (name) DO UPDATE SET value = max(value, excluded.value)
                """
        ).execute(arguments: [instant.secondsSince1970])
    }
}
