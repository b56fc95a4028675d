import ChimeCore
@testable import ChimeStore
import ChimeTestSupport
import GRDB
import Testing

/// The lookups by UID that an import makes per item, a sync pass per resource and the daemon per
/// change must go through the UID's or the identifiers' indexes. Without statistics SQLite chose
/// the range index for `kind = ?`, or the calendar's index, and read every event of the store (or
/// the calendar) per lookup: a second import of a 10,000-event file took minutes, and each change
/// cost the daemon half a second on a 100,000-event store. Checked on SQLite's own query plans.
@Suite("Lookups by identifier use their indexes")
struct UIDLookupPlanTests {
    /// SQLite's plan for `sql`, one line per step.
    private func plan(_ store: EventStore, _ sql: String, _ arguments: StatementArguments) throws -> [String] {
        try store.read { db in try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: arguments).map { $0[3] as String } }
    }

    private func expectUIDIndex(_ steps: [String], _ label: String) {
        #expect(steps.contains { $0.contains("item_external_id") }, "\(label): \(steps)")
        expectNoWideRead(steps, label)
    }

    private func expectNoWideRead(_ steps: [String], _ label: String) {
        for step in steps {
            #expect(
                !step.contains("item_event_range") && !step.contains("item_calendar") && !step.contains("item_reminder_state")
                    && !step.hasPrefix("SCAN item") && !step.hasPrefix("SCAN alarm"),
                "\(label): \(steps)")
        }
    }

    @Test func importAndSyncLookupsReadOnlyTheUIDsRows() throws {
        let t = try TestStore(zone: .utc)
        let calendar = try t.store.defaultCalendarForNewEvents()
        for n in 0..<50 {
            var e = Event(
                title: "Event \(n)", calendar: calendar.identifier,
                start: .utc(LocalDateTime(year: 2026, month: 6, day: 1 + n % 28, hour: 9)), duration: 1_800)
            e.externalIdentifier = "uid-\(n)"
            try t.store.save(e, commit: false)
        }
        try t.store.commit()
        let lists = [calendar.identifier, try t.store.defaultCalendarForNewReminders().identifier]

        for target in [ImportTarget.defaults, .identified(events: calendar.identifier, reminders: nil)] {
            let scope = EventStore.calendarScope(target)
            expectUIDIndex(
                try plan(t.store, EventStore.storedItemSQL(scope: scope.sql), ["uid-7", "event"] + scope.arguments),
                "import lookup into \(target)")
        }
        let byUID = StatementArguments(lists) + ["uid-7", "uid-7"]
        expectUIDIndex(try plan(t.store, SyncRecords.signaturesSQL(calendarCount: 2, oneUID: true), byUID), "one UID's signature")
        let filter = SyncRecords.resourceFilter(calendarCount: 2)
        let resource = StatementArguments(lists) + ["uid-7", "uid-7"] + StatementArguments(lists)
        expectUIDIndex(try plan(t.store, "SELECT id FROM item WHERE \(filter)", resource), "one UID's rows")
    }

    /// What the daemon reads for the items a change names: their rows, their alarms and their
    /// series' detached rows, found by identifier (and each item's alarms by its key).
    @Test func theDaemonsReadOfChangedItemsReadsOnlyThoseItems() throws {
        let t = try TestStore(zone: .utc)
        let arguments: [String: (any DatabaseValueConvertible)?] = ["lo": 1_780_000_000, "from": 1_780_050_000, "id0": "a", "id1": "b"]
        for location in [false, true] {
            let filter = EventStore.alarmSourceFilter(location: location, identifierCount: 2)
            let label = location ? "location" : "timed"
            for sql in [
                "SELECT id FROM item WHERE \(filter)",
                "SELECT item_id FROM alarm WHERE item_id IN (SELECT id FROM item WHERE \(filter))",
                "SELECT series_id FROM item WHERE series_id IS NOT NULL AND series_id IN (SELECT id FROM item WHERE \(filter))"
            ] {
                let steps = try plan(t.store, sql, StatementArguments(arguments))
                #expect(steps.contains { $0.contains("sqlite_autoindex_item_1") || $0.contains("PRIMARY KEY") }, "\(label): \(steps)")
                expectNoWideRead(steps, "\(label): \(sql)")
            }
        }
    }

    /// The to-do state index holds to-dos only (a partial index): the queries it serves still
    /// find it, since each says `kind = 'reminder'`.
    @Test func toDoStateQueriesUseTheToDoOnlyIndex() throws {
        let t = try TestStore(zone: .utc)
        let list = try t.store.defaultCalendarForNewReminders()
        for n in 0..<20 {
            var r = Reminder(title: "To-do \(n)", calendar: list.identifier)
            r.isCompleted = n % 2 == 0
            try t.store.save(r, commit: false)
        }
        try t.store.commit()
        let completedWindow =
            "SELECT id FROM item WHERE kind = 'reminder' AND completed = 1 AND completion_date >= ? AND completion_date < ?"
            + " ORDER BY completion_date DESC, id"
        let completed = try plan(t.store, completedWindow, [0, 2_000_000_000])
        #expect(completed.contains { $0.contains("USING INDEX item_reminder_state") }, "\(completed)")
        let stillFiring = try plan(t.store, EventStore.stillFiringCandidates(columns: "id"), ["lo": 0, "from": 0])
        #expect(stillFiring.contains { $0.contains("USING INDEX item_reminder_state") }, "\(stillFiring)")
    }
}
