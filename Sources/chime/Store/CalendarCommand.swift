import ArgumentParser
import ChimeCore
import ChimeFormat
import ChimeStore
import Foundation

struct CalendarCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calendar",
        abstract: "List, add, rename and remove calendars and reminder lists; choose where new items go.",
        subcommands: [List.self, Add.self, Rename.self, Remove.self, Default.self, Subscribe.self, Refresh.self],
        defaultSubcommand: List.self)

    enum Kind: String, ExpressibleByArgument, CaseIterable {
        case events, reminders
        var entityType: EntityType { self == .events ? .event : .reminder }
    }

    static func find(_ name: String, kind: Kind?, in store: EventStore) throws -> ChimeCore.Calendar {
        let types = kind.map { [$0.entityType] } ?? [.event, .reminder]
        let found = try types.compactMap { try store.calendar(matching: name, for: $0) }
        if found.count > 1 {
            throw InputError(translatable: "\"{name}\" names both a calendar and a reminder list; add --type events or --type reminders", ["name": name])
        }
        guard let calendar = found.first else {
            if let short = try CalendarChoice.shortIDPrefix(name, in: store, option: nil) { throw short }
            throw InputError(translatable: "no calendar or list \"{name}\" (see `chime calendar list`)", ["name": name])
        }
        return calendar
    }

}

extension String {
    /// Padded with spaces to `n` terminal columns (a CJK character takes two: ``DisplayText/columns(_:)``).
    func padding(toLength n: Int) -> String {
        let width = DisplayText.columns(self)
        return width >= n ? self : self + String(repeating: " ", count: n - width)
    }
}
