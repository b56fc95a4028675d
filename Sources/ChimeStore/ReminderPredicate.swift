import ChimeCore

/// A reminder query (what EventKit's reminder predicates return).
public struct ReminderPredicate: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        /// Every reminder.
        case all
        /// Incomplete reminders due in `[start, end)`; nil bounds are open. With both bounds nil,
        /// reminders without a due date are included too (as in EventKit).
        case incomplete(dueStart: Instant?, dueEnd: Instant?)
        /// Completed reminders completed in `[start, end)`; nil bounds are open.
        case completed(completionStart: Instant?, completionEnd: Instant?)
    }

    public var kind: Kind
    /// Reminder list identifiers; nil means every list.
    public var calendars: [String]?
}

extension EventStore {
    /// Every reminder in the given lists (nil = all).
    public func predicateForReminders(in calendars: [ChimeCore.Calendar]?) -> ReminderPredicate {
        ReminderPredicate(kind: .all, calendars: calendars?.map(\.identifier))
    }

    /// Incomplete reminders due in `[dueStart, dueEnd)`.
    ///
    /// ```swift
    /// let overdue = store.predicateForIncompleteReminders(dueStart: nil, dueEnd: now, calendars: nil)
    /// let reminders = try await store.fetchReminders(matching: overdue)
    /// ```
    public func predicateForIncompleteReminders(
        dueStart: Instant?, dueEnd: Instant?,
        calendars: [ChimeCore.Calendar]?
    ) -> ReminderPredicate {
        ReminderPredicate(kind: .incomplete(dueStart: dueStart, dueEnd: dueEnd), calendars: calendars?.map(\.identifier))
    }

    /// Completed reminders completed in `[completionStart, completionEnd)`.
    public func predicateForCompletedReminders(
        completionStart: Instant?, completionEnd: Instant?,
        calendars: [ChimeCore.Calendar]?
    ) -> ReminderPredicate {
        ReminderPredicate(
            kind: .completed(completionStart: completionStart, completionEnd: completionEnd),
            calendars: calendars?.map(\.identifier))
    }
}
