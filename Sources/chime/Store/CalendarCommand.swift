import ArgumentParser
import ChimeCore
import ChimeStore
import Foundation

struct CalendarCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calendar",
        abstract: "List, add, rename and remove calendars and reminder lists.",
        subcommands: [List.self, Add.self, Rename.self, Remove.self, Subscribe.self, Refresh.self],
        defaultSubcommand: List.self)

    enum Kind: String, ExpressibleByArgument, CaseIterable {
        case events, reminders
        var entityType: EntityType { self == .events ? .event : .reminder }
    }

    static func find(_ name: String, kind: Kind?, in store: EventStore) throws -> ChimeCore.Calendar {
        let types = kind.map { [$0.entityType] } ?? [.event, .reminder]
        let found = try types.compactMap { try store.calendar(named: name, for: $0) }
        if found.count > 1 { throw InputError("\"\(name)\" names both a calendar and a reminder list; add --type events or --type reminders") }
        guard let calendar = found.first else { throw InputError("no calendar or list \"\(name)\" (see `chime calendar list`)") }
        return calendar
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List calendars (events) and lists (reminders).")
        @OptionGroup var options: StoreOptions

        func run() throws {
            let store = try options.open()
            let all = try store.calendars(for: .event) + store.calendars(for: .reminder)
            if options.json {
                print(JSONText.array(all.map { c in
                    JSONText.object([("id", JSONText.string(c.identifier)), ("title", JSONText.string(c.title)),
                                     ("type", JSONText.string(c.entityType.plural)), ("color", JSONText.string(c.color)),
                                     ("allows_modifications", c.allowsModifications ? "true" : "false")])
                }))
                return
            }
            if all.isEmpty { print("No calendars yet; `chime add event` creates \"Calendar\", `chime add reminder` creates \"Reminders\"."); return }
            let width = all.map { DisplayText.singleLine($0.title).count }.max() ?? 0
            for c in all {
                print("\(DisplayText.singleLine(c.title).padding(toLength: width))  \(c.entityType.plural.padding(toLength: 9))  \(DisplayText.singleLine(c.color))  \(DisplayText.singleLine(c.identifier))")
            }
        }
    }

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add a calendar, or a reminder list with --type reminders.")
        @OptionGroup var options: StoreOptions
        @Argument(help: "The title.") var title: String
        @Option(help: "What it holds.") var type: Kind = .events
        @Option(help: ArgumentHelp("Colour, #RRGGBB.", valueName: "#rrggbb")) var color: String = "#3A87AD"

        func validate() throws {
            let hex = color.dropFirst()
            guard color.hasPrefix("#"), hex.count == 6, hex.allSatisfy(\.isHexDigit) else {
                throw ArgumentParser.ValidationError("--color: \"\(color)\" is not #RRGGBB")
            }
        }

        func run() throws {
            let store = try options.open(creating: true)
            if try store.calendar(named: title, for: type.entityType) != nil {
                throw InputError("a \(type == .events ? "calendar" : "list") named \"\(title)\" already exists")
            }
            let calendar = ChimeCore.Calendar(title: title, entityType: type.entityType, color: color)
            try store.saveCalendar(calendar)
            print(options.json ? JSONText.object([("id", JSONText.string(calendar.identifier))]) : "Added \(type == .events ? "calendar" : "list") \"\(DisplayText.singleLine(title))\" (\(calendar.identifier))")
        }
    }

    struct Rename: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Rename a calendar or list.")
        @OptionGroup var options: StoreOptions
        @Argument(help: "Current title or ID.") var name: String
        @Argument(help: "New title.") var newTitle: String
        @Option(help: "Which kind, when a calendar and a list share the name.") var type: Kind?

        func run() throws {
            let store = try options.open()
            var calendar = try CalendarCommand.find(name, kind: type, in: store)
            calendar.title = newTitle
            try store.saveCalendar(calendar)
            if !options.json { print("Renamed \"\(DisplayText.singleLine(name))\" to \"\(DisplayText.singleLine(newTitle))\"") }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove a calendar or list and everything in it.",
            discussion: """
                Says how many items go and asks first; without a terminal to ask on, --yes is needed.

                Examples:
                  chime calendar remove Work
                  chime calendar remove "Old list" --type reminders --yes
                """)
        @OptionGroup var options: StoreOptions
        @Argument(help: "Title or ID.") var name: String
        @Option(help: "Which kind, when a calendar and a list share the name.") var type: Kind?
        @Flag(help: "Do not ask: remove it and everything in it.") var yes = false

        func run() throws {
            let store = try options.open()
            let calendar = try CalendarCommand.find(name, kind: type, in: store)
            let count = try store.itemCount(calendar: calendar.identifier)
            let noun = calendar.entityType == .event ? (count == 1 ? "event" : "events") : (count == 1 ? "reminder" : "reminders")
            let what = "\"\(DisplayText.singleLine(calendar.title))\" and its \(count) \(noun)"
            if count > 0 && !yes {
                guard isatty(STDIN_FILENO) == 1 else {
                    throw InputError("this removes \(what); run it again with --yes to confirm")
                }
                FileHandle.standardError.write(Data("Remove \(what)? [y/N] ".utf8))
                guard let answer = readLine(), ["y", "yes"].contains(answer.lowercased().trimmingCharacters(in: .whitespaces)) else {
                    print("Kept \"\(DisplayText.singleLine(calendar.title))\".")
                    return
                }
            }
            try store.removeCalendar(calendar)
            if !options.json { print("Removed \(what)") }
        }
    }
}

extension String {
    func padding(toLength n: Int) -> String { count >= n ? self : self + String(repeating: " ", count: n - count) }
}
