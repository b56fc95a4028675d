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
        if let c = try store.calendar(matching: name, for: kind) { return c }
        if let short = try shortIDPrefix(name, in: store, option: option) { throw short }
        throw try missing(name, kind: kind, in: store, option: option, sayingOtherKind: sayingOtherKind)
    }

    /// A name shorter than a calendar ID's prefix must be (``EventStore/calendarPrefixLength``)
    /// that starts a calendar's ID: said as such, not as "no calendar", which would leave the
    /// user guessing why the ID they copied does not work.
    ///
    /// ```swift
    /// if let short = try CalendarChoice.shortIDPrefix("3a87", in: store, option: "--calendar") { throw short }
    /// ```
    public static func shortIDPrefix(_ name: String, in store: EventStore, option: String?) throws -> InputError? {
        let typed = name.trimmingCharacters(in: .whitespaces).lowercased()
        guard !typed.isEmpty, typed.count < EventStore.calendarPrefixLength else { return nil }
        let all = try store.calendars(for: .event) + store.calendars(for: .reminder)
        guard all.contains(where: { $0.identifier.lowercased().hasPrefix(typed) }) else { return nil }
        return InputError(
            translatable: "{option}\"{name}\" is the start of a calendar's ID, too short to name it: give its first {count} characters or more",
            ["option": option.map { $0 + ": " } ?? "", "name": name, "count": "\(EventStore.calendarPrefixLength)"])
    }

    /// `--calendar: no event calendar "Wrok"; calendars: "Work", "Home"; create it with …`, each
    /// clause translated in its turn.
    static func missing(_ name: String, kind: EntityType, in store: EventStore, option: String, sayingOtherKind: Bool) throws -> InputError {
        let shown = DisplayText.singleLine(name)
        var parts: [String: MessageText] = [
            "missing": kind == .event
                ? MessageText("no event calendar \"{name}\"", ["name": shown]) : MessageText("no reminder list \"{name}\"", ["name": shown]),
            "create": MessageText(
                "; create it with `{command}`", ["command": "chime calendar add \"\(name)\"" + (kind == .event ? "" : " --type reminders")])
        ]
        let other: EntityType = kind == .event ? .reminder : .event
        if sayingOtherKind, try store.calendar(matching: name, for: other) != nil {
            parts["otherKind"] =
                other == .event
                ? MessageText(" (\"{name}\" holds events only)", ["name": shown]) : MessageText(" (\"{name}\" holds reminders only)", ["name": shown])
        }
        let existing = try store.calendars(for: kind).map { "\"\(DisplayText.singleLine($0.title))\"" }.joined(separator: ", ")
        if !existing.isEmpty {
            parts["existing"] = kind == .event ? MessageText("; calendars: {list}", ["list": existing]) : MessageText("; lists: {list}", ["list": existing])
        }
        return InputError(
            translatable: "{option}: {missing}{otherKind}{existing}{create}", ["option": option, "otherKind": "", "existing": ""], parts: parts)
    }
}
