import ChimeCore
import ChimeStore

/// The calendar a new event goes to: the one named, or the store's default for new events.
///
/// ```swift
/// let calendar = try EventTarget.calendar("Work", in: store)
/// ```
public enum EventTarget {
    /// `sayingOtherKind`: whether the error may say that a reminder list has the name (not to an
    /// app that may see events only).
    public static func calendar(
        _ name: String?, in store: EventStore, option: String = "--calendar",
        sayingOtherKind: Bool = true
    ) throws -> ChimeCore.Calendar {
        try CalendarChoice.target(name, kind: .event, in: store, option: option, sayingOtherKind: sayingOtherKind)
    }
}

/// The list a new reminder goes to: the one named, or the store's default for new reminders.
public enum ReminderTarget {
    public static func list(
        _ name: String?, in store: EventStore, option: String = "--list",
        sayingOtherKind: Bool = true
    ) throws -> ChimeCore.Calendar {
        try CalendarChoice.target(name, kind: .reminder, in: store, option: option, sayingOtherKind: sayingOtherKind)
    }
}

/// What a calendar name that names none says: which there are, whether the name is one of the
/// other kind, and how to make it.
public enum CalendarChoice {
    /// The calendar of `kind` named `name`, or the store's default for new items of that kind.
    static func target(
        _ name: String?, kind: EntityType, in store: EventStore, option: String,
        sayingOtherKind: Bool
    ) throws -> ChimeCore.Calendar {
        guard let name else {
            return kind == .event ? try store.defaultCalendarForNewEvents() : try store.defaultCalendarForNewReminders()
        }
        if let c = try store.calendar(named: name, for: kind) { return c }
        throw InputError("\(option): " + (try missing(name, kind: kind, in: store, sayingOtherKind: sayingOtherKind)))
    }

    public static func missing(_ name: String, kind: EntityType, in store: EventStore, sayingOtherKind: Bool) throws -> String {
        let what = kind == .event ? "event calendar" : "reminder list"
        let existing = try store.calendars(for: kind).map { "\"\(DisplayText.singleLine($0.title))\"" }
        var text = "no \(what) \"\(DisplayText.singleLine(name))\""
        let other: EntityType = kind == .event ? .reminder : .event
        if sayingOtherKind, try store.calendar(named: name, for: other) != nil {
            text += " (\"\(DisplayText.singleLine(name))\" holds \(other == .event ? "events" : "reminders") only)"
        }
        text += existing.isEmpty ? "" : "; \(kind == .event ? "calendars" : "lists"): " + existing.joined(separator: ", ")
        return text + "; create it with `chime calendar add \"\(name)\"\(kind == .event ? "" : " --type reminders")`"
    }
}
