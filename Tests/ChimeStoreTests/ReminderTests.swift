import ChimeCore
import ChimeStore
import Testing

@Suite("Reminders: predicates, completion, recurring advance and undo")
struct ReminderTests {
    let t: TestStore
    let list: ChimeCore.Calendar

    init() throws {
        t = try TestStore()
        list = try t.store.defaultCalendarForNewReminders()
    }

    func reminder(_ title: String, due: CalendarDate? = nil, rule: String? = nil, priority: Int = 0) throws -> Reminder {
        var r = Reminder(title: title, calendar: list.identifier)
        r.dueDate = due
        r.priority = priority
        if let rule { r.recurrenceRules = [try RecurrenceRule(parsing: rule)] }
        return try t.store.save(r)
    }

    @Test func aCalendarIsRequiredAndTheTitleMayBeEmpty() throws {
        // RFC 5545 makes SUMMARY optional, and EventKit saves untitled reminders.
        #expect(try t.store.save(Reminder(title: "", calendar: list.identifier)).title == "")
        #expect(throws: StoreError.invalid(.missingCalendar)) { try t.store.save(Reminder(title: "x")) }
        var repeating = Reminder(title: "x", calendar: list.identifier)
        repeating.recurrenceRules = [try RecurrenceRule(parsing: "FREQ=DAILY")]
        #expect(throws: StoreError.invalid(.recurrenceWithoutDate)) { try t.store.save(repeating) }
        var loud = Reminder(title: "x", calendar: list.identifier)
        loud.priority = 10
        #expect(throws: StoreError.invalid(.priorityOutOfRange(10))) { try t.store.save(loud) }
    }

    @Test func incompleteByDueDateAndCompletedByCompletionDate() async throws {
        _ = try reminder("undated")
        _ = try reminder("soon", due: .utc(local(2026, 11, 21, 9)))
        _ = try reminder("later", due: .utc(local(2026, 12, 24, 9)))
        var done = try reminder("done", due: .utc(local(2026, 11, 19, 9)))
        t.clock.set(utc(2026, 11, 20, 15))
        done.isCompleted = true
        let completed = try t.store.save(done)
        #expect(completed.completionDate == utc(2026, 11, 20, 15))

        let all = try await t.store.fetchReminders(matching: t.store.predicateForIncompleteReminders(dueStart: nil, dueEnd: nil, calendars: nil))
        #expect(all.map(\.title) == ["soon", "later", "undated"])
        let week = try await t.store.fetchReminders(
            matching: t.store.predicateForIncompleteReminders(
                dueStart: utc(2026, 11, 20), dueEnd: utc(2026, 11, 27), calendars: [list]))
        #expect(week.map(\.title) == ["soon"])
        let finished = try await t.store.fetchReminders(
            matching: t.store.predicateForCompletedReminders(
                completionStart: utc(2026, 11, 20), completionEnd: utc(2026, 11, 21), calendars: nil))
        #expect(finished.map(\.title) == ["done"])
        let none = try await t.store.fetchReminders(
            matching: t.store.predicateForCompletedReminders(
                completionStart: utc(2026, 11, 21), completionEnd: nil, calendars: nil))
        #expect(none.isEmpty)
        #expect(try await t.store.fetchReminders(matching: t.store.predicateForReminders(in: nil)).count == 4)
    }

    @Test func aCancelledFetchThrowsCancellationError() async throws {
        for i in 0..<50 { _ = try reminder("r\(i)") }
        let predicate = t.store.predicateForReminders(in: nil)
        let store = t.store
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await store.fetchReminders(matching: predicate)
        }
        await #expect(throws: CancellationError.self) { try await task.value }
    }

    @Test func completingARecurringReminderRecordsACopyAndAdvancesTheSeries() throws {
        let series = try reminder("Water plants", due: .utc(local(2026, 11, 20, 18)), rule: "FREQ=WEEKLY;COUNT=3")
        var current = series
        current.isCompleted = true
        let copy = try t.store.save(current)
        #expect(copy.identifier != series.identifier)
        #expect(copy.seriesIdentifier == series.identifier)
        #expect(copy.isCompleted && copy.completionDate == TestStore.defaultNow)
        #expect(copy.recurrenceRules.isEmpty)
        #expect(copy.dueDate == .utc(local(2026, 11, 20, 18)))

        let advanced = try #require(try t.store.reminder(withIdentifier: series.identifier))
        #expect(!advanced.isCompleted)
        #expect(advanced.dueDate == .utc(local(2026, 11, 27, 18)))
        #expect(advanced.recurrenceRules.map(\.rfc5545) == ["FREQ=WEEKLY;COUNT=2"])
        let visible = try t.store.reminders(matching: t.store.predicateForIncompleteReminders(dueStart: nil, dueEnd: nil, calendars: nil))
        #expect(visible.map(\.identifier) == [series.identifier])

        // Second instance, then the last one completes the series itself.
        var second = advanced
        second.isCompleted = true
        _ = try t.store.save(second)
        var last = try #require(try t.store.reminder(withIdentifier: series.identifier))
        #expect(last.dueDate == .utc(local(2026, 12, 4, 18)))
        #expect(last.recurrenceRules.map(\.rfc5545) == ["FREQ=WEEKLY;COUNT=1"])
        last.isCompleted = true
        let finished = try t.store.save(last)
        #expect(finished.identifier == series.identifier && finished.isCompleted)
        #expect(try t.store.reminders(matching: t.store.predicateForIncompleteReminders(dueStart: nil, dueEnd: nil, calendars: nil)).isEmpty)
        #expect(try t.store.reminders(matching: t.store.predicateForCompletedReminders(completionStart: nil, completionEnd: nil, calendars: nil)).count == 3)
    }

    @Test func undoingTheLatestCompletionMovesTheSeriesBack() throws {
        let series = try reminder("Pay rent", due: .allDay(CivilDate(year: 2026, month: 12, day: 1)), rule: "FREQ=MONTHLY;COUNT=12")
        var current = series
        current.isCompleted = true
        var copy = try t.store.save(current)
        copy.isCompleted = false
        let restored = try t.store.save(copy)
        #expect(restored.identifier == series.identifier)
        #expect(restored.dueDate == .allDay(CivilDate(year: 2026, month: 12, day: 1)))
        #expect(restored.recurrenceRules.map(\.rfc5545) == ["FREQ=MONTHLY;COUNT=12"])
        #expect(try t.store.reminder(withIdentifier: copy.identifier) == nil)
        #expect(try t.store.reminders(matching: t.store.predicateForReminders(in: nil)).count == 1)
    }

    @Test func undoingAnOlderCompletionLeavesAOneOffReminder() throws {
        let series = try reminder("Stretch", due: .utc(local(2026, 11, 21, 7)), rule: "FREQ=DAILY")
        var current = series
        current.isCompleted = true
        var firstCopy = try t.store.save(current)
        var next = try #require(try t.store.reminder(withIdentifier: series.identifier))
        next.isCompleted = true
        _ = try t.store.save(next)
        firstCopy.isCompleted = false
        let oneOff = try t.store.save(firstCopy)
        #expect(oneOff.identifier == firstCopy.identifier)
        #expect(!oneOff.isCompleted && oneOff.completionDate == nil && oneOff.seriesIdentifier == nil)
        #expect(try t.store.reminder(withIdentifier: series.identifier)?.dueDate == .utc(local(2026, 11, 23, 7)))
    }

    @Test func removingAReminder() throws {
        let r = try reminder("gone")
        try t.store.remove(r)
        #expect(try t.store.reminder(withIdentifier: r.identifier) == nil)
        #expect(throws: StoreError.unknownItem(r.identifier)) { try t.store.remove(r) }
    }
}
