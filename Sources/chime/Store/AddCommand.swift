import ArgumentParser
import ChimeCore
import ChimeStore

struct AddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add an event or a reminder.",
        subcommands: [AddEventCommand.self, AddReminderCommand.self])
}

enum EventTarget {
    static func calendar(_ name: String?, in store: EventStore) throws -> ChimeCore.Calendar {
        guard let name else { return try store.defaultCalendarForNewEvents() }
        guard let c = try store.calendar(named: name, for: .event) else {
            throw InputError("--calendar: no event calendar \"\(name)\" (create it with `chime calendar add \"\(name)\"`)")
        }
        return c
    }
}

enum ReminderTarget {
    static func list(_ name: String?, in store: EventStore) throws -> ChimeCore.Calendar {
        guard let name else { return try store.defaultCalendarForNewReminders() }
        guard let c = try store.calendar(named: name, for: .reminder) else {
            throw InputError("--list: no reminder list \"\(name)\" (create it with `chime calendar add \"\(name)\" --type reminders`)")
        }
        return c
    }
}
