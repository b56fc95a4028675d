import ChimeCore
import GRDB
@testable import ChimeStore
import Testing

/// Database failures reach the caller typed: SQLite's result code is kept beside its message.
struct StoreErrorTests {
    @Test func aDatabaseFailureKeepsSQLitesResultCode() {
        let failure = DatabaseError(resultCode: .SQLITE_CONSTRAINT_UNIQUE, message: "UNIQUE constraint failed: item.id")
        guard case .database(let path, let code, let message) = StoreError.from(failure, path: "/tmp/x.sqlite") else {
            Issue.record("not a database error: \(StoreError.from(failure, path: "/tmp/x.sqlite"))")
            return
        }
        #expect(path == "/tmp/x.sqlite")
        #expect(code == ResultCode.SQLITE_CONSTRAINT_UNIQUE.rawValue)
        #expect(message.contains("UNIQUE constraint failed"))
        // Read-only and the caller's own store errors are their own cases, not this one.
        #expect(StoreError.from(DatabaseError(resultCode: .SQLITE_READONLY), path: "p") == .readOnly(path: "p"))
        #expect(StoreError.from(StoreError.unknownItem("x"), path: "p") == .unknownItem("x"))
    }

    @Test func anErrorThatIsNotSQLitesHasNoCode() {
        struct Other: Error {}
        guard case .database(_, let code, _) = StoreError.from(Other(), path: "p") else { Issue.record("not .database"); return }
        #expect(code == nil)
    }
}

/// One identifier names one item: a save of the other kind under it is refused, and the stored
/// item stays as it was.
struct IdentifierKindTests {
    @Test func aReminderSavedUnderAnEventsIdentifierIsRefusedAndTheEventKept() throws {
        let t = try TestStore()
        let calendar = try t.store.defaultCalendarForNewEvents()
        let event = try t.store.save(Event(title: "Dentist", calendar: calendar.identifier, start: .utc(local(2026, 12, 1, 9)), duration: 3600))
        let list = try t.store.defaultCalendarForNewReminders()
        var reminder = Reminder(title: "Floss", calendar: list.identifier)
        reminder.identifier = event.identifier
        #expect(throws: StoreError.identifierInUse(identifier: event.identifier, title: "Dentist", storedKind: .event)) {
            try t.store.save(reminder)
        }
        #expect(try t.store.event(withIdentifier: event.identifier)?.title == "Dentist")
        #expect(try t.store.reminder(withIdentifier: event.identifier) == nil)
    }

    @Test func anEventSavedUnderARemindersIdentifierIsRefusedAndTheReminderKept() throws {
        let t = try TestStore()
        let list = try t.store.defaultCalendarForNewReminders()
        let reminder = try t.store.save(Reminder(title: "Floss", calendar: list.identifier))
        let calendar = try t.store.defaultCalendarForNewEvents()
        var event = Event(title: "Dentist", calendar: calendar.identifier, start: .utc(local(2026, 12, 1, 9)), duration: 3600)
        event.identifier = reminder.identifier
        #expect(throws: StoreError.identifierInUse(identifier: reminder.identifier, title: "Floss", storedKind: .reminder)) {
            try t.store.save(event)
        }
        #expect(try t.store.reminder(withIdentifier: reminder.identifier)?.title == "Floss")
        #expect(try t.store.event(withIdentifier: reminder.identifier) == nil)
        let said = StoreError.identifierInUse(identifier: "x", title: "Floss", storedKind: .reminder).description
        #expect(said.contains("already names the reminder \"Floss\"; nothing was saved"), "\(said)")
    }
}
