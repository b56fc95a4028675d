import ChimeCore
import ChimeStore
import Dispatch
import Synchronization
import Testing

/// Lost updates: changes that read a reminder and write a new state from it, made at once from
/// several threads and from two `EventStore`s on one file (as two processes would).
@Suite("Concurrent read-modify-write: no lost updates, no doubled completions")
struct ConcurrentChangeTests {
    let t: TestStore
    let other: EventStore
    let list: ChimeCore.Calendar

    init() throws {
        t = try TestStore()
        other = try EventStore(path: t.path, floatingZone: .utc, clock: t.clock.function)
        list = try t.store.defaultCalendarForNewReminders()
    }

    /// A daily reminder due 2026-12-01 09:00 UTC.
    func daily() throws -> Reminder {
        var r = Reminder(title: "Pills", calendar: list.identifier)
        r.dueDate = .utc(local(2026, 12, 1, 9))
        r.recurrenceRules = [try RecurrenceRule(parsing: "FREQ=DAILY")]
        return try t.store.save(r)
    }

    func copies(of series: String) throws -> [Reminder] {
        try t.store.reminders(matching: t.store.predicateForCompletedReminders(completionStart: nil, completionEnd: nil, calendars: nil))
            .filter { $0.seriesIdentifier == series }
    }

    /// 8 threads on two stores complete the same series 5 times each: 40 completions, 40 distinct
    /// completed instances, and the series 40 days further on.
    @Test func concurrentCompletionsEachCompleteOneInstance() throws {
        let series = try daily()
        let stores = [t.store, other]
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { i in
            for _ in 0..<5 {
                do {
                    guard case .completed = try stores[i % 2].complete(reminderWithIdentifier: series.identifier) else {
                        failures.withLock { $0.append("thread \(i): already completed") }
                        continue
                    }
                } catch { failures.withLock { $0.append("thread \(i): \(error)") } }
            }
        }
        #expect(failures.withLock { $0 } == [])
        let done = try copies(of: series.identifier)
        #expect(done.count == 40)
        #expect(Set(done.compactMap(\.dueDate)).count == 40, "two completed copies of one instance")
        let now = try #require(try t.store.reminder(withIdentifier: series.identifier))
        #expect(now.dueDate == .utc(local(2027, 1, 10, 9)))
    }

    /// 8 threads complete the instance due 2026-12-01 09:00: one completes it, seven are told it
    /// was already completed, and the series moves on by one day.
    @Test func completingOneInstanceAtOnceCompletesItOnce() throws {
        let series = try daily()
        let stores = [t.store, other]
        let outcomes = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { i in
            let text: String
            do {
                switch try stores[i % 2].complete(reminderWithIdentifier: series.identifier, dueAt: utc(2026, 12, 1, 9)) {
                case .completed: text = "completed"
                case .alreadyCompleted: text = "already"
                }
            } catch { text = "\(error)" }
            outcomes.withLock { $0.append(text) }
        }
        #expect(outcomes.withLock { $0 }.sorted() == ["already", "already", "already", "already", "already", "already", "already", "completed"])
        #expect(try copies(of: series.identifier).count == 1)
        #expect(try t.store.reminder(withIdentifier: series.identifier)?.dueDate == .utc(local(2026, 12, 2, 9)))
        #expect(throws: StoreError.self) { try t.store.complete(reminderWithIdentifier: series.identifier, dueAt: utc(2026, 12, 9, 9)) }
    }

    /// A counter kept in the notes, incremented 40 times from 8 threads on two stores: 40.
    /// Meanwhile other threads complete the series: every completion and every increment stays.
    @Test func modifyLosesNoChangeMadeAtTheSameTime() throws {
        let series = try daily()
        let stores = [t.store, other]
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 10) { i in
            for _ in 0..<5 {
                do {
                    if i < 8 {
                        try stores[i % 2].modifyReminder(identifier: series.identifier) { r in
                            r.notes = String((r.notes.flatMap { Int($0) } ?? 0) + 1)
                        }
                    } else {
                        try stores[i % 2].complete(reminderWithIdentifier: series.identifier)
                    }
                } catch { failures.withLock { $0.append("thread \(i): \(error)") } }
            }
        }
        #expect(failures.withLock { $0 } == [])
        let now = try #require(try t.store.reminder(withIdentifier: series.identifier))
        #expect(now.notes == "40")
        #expect(now.dueDate == .utc(local(2026, 12, 11, 9)))
        #expect(try copies(of: series.identifier).count == 10)
    }

    /// An error thrown by the transform comes out as it was, and nothing is written.
    @Test func aFailingTransformWritesNothing() throws {
        struct Refused: Error, Equatable {}
        let series = try daily()
        #expect(throws: Refused()) {
            try t.store.modifyReminder(identifier: series.identifier) { r in
                r.title = "changed"
                throw Refused()
            }
        }
        #expect(try t.store.reminder(withIdentifier: series.identifier)?.title == "Pills")
        #expect(throws: StoreError.unknownItem("nope")) { try t.store.modifyReminder(identifier: "nope") { _ in } }
    }

    /// The plain `save` with a copy read before another store completed the instance: refused,
    /// whether it would complete the instance again or move the due date back; nothing changes.
    /// A copy read afterwards saves normally.
    @Test func saveRefusesACopyReadBeforeACompletion() throws {
        let series = try daily()
        var stale = try #require(try t.store.reminder(withIdentifier: series.identifier))
        try other.complete(reminderWithIdentifier: series.identifier)
        stale.isCompleted = true
        #expect(throws: StoreError.changedSinceRead(identifier: series.identifier, title: "Pills")) { try t.store.save(stale) }
        stale.isCompleted = false
        stale.title = "Pills (renamed)"
        #expect(throws: StoreError.changedSinceRead(identifier: series.identifier, title: "Pills")) { try t.store.save(stale) }
        #expect(try copies(of: series.identifier).count == 1)
        var fresh = try #require(try t.store.reminder(withIdentifier: series.identifier))
        #expect(fresh.dueDate == .utc(local(2026, 12, 2, 9)))
        fresh.isCompleted = true
        try t.store.save(fresh)
        #expect(try copies(of: series.identifier).count == 2)
        #expect(try t.store.reminder(withIdentifier: series.identifier)?.dueDate == .utc(local(2026, 12, 3, 9)))
    }

    /// A one-off reminder: completing a stale copy again is refused; `complete` says "already".
    @Test func aOneOffReminderIsCompletedOnce() throws {
        var r = Reminder(title: "Call", calendar: list.identifier)
        r.dueDate = .utc(local(2026, 12, 1, 9))
        r = try t.store.save(r)
        guard case .completed(let done, nil) = try other.complete(reminderWithIdentifier: r.identifier) else {
            Issue.record("not completed")
            return
        }
        #expect(done.isCompleted)
        guard case .alreadyCompleted = try t.store.complete(reminderWithIdentifier: r.identifier) else {
            Issue.record("completed twice")
            return
        }
        r.isCompleted = true
        #expect(throws: StoreError.changedSinceRead(identifier: r.identifier, title: "Call")) { try t.store.save(r) }
        guard case .reopened(let open) = try t.store.uncomplete(reminderWithIdentifier: r.identifier) else {
            Issue.record("not reopened")
            return
        }
        #expect(!open.isCompleted)
        guard case .alreadyIncomplete = try other.uncomplete(reminderWithIdentifier: r.identifier) else {
            Issue.record("reopened twice")
            return
        }
    }

    /// Two stores change different fields of one event at once: both changes stay.
    @Test func concurrentEventChangesKeepEveryField() throws {
        let calendar = try t.store.defaultCalendarForNewEvents()
        let event = try t.store.save(
            Event(
                title: "Review", calendar: calendar.identifier,
                start: .utc(local(2026, 12, 1, 9)), duration: 3600))
        DispatchQueue.concurrentPerform(iterations: 2) { i in
            for round in 0..<10 {
                _ = try? (i == 0 ? t.store : other).modifyEvent(identifier: event.identifier) { e in
                    if i == 0 { e.location = "Room \(round)" } else { e.notes = "Agenda \(round)" }
                }
            }
        }
        let now = try #require(try t.store.event(withIdentifier: event.identifier))
        #expect(now.location == "Room 9")
        #expect(now.notes == "Agenda 9")
    }
}
