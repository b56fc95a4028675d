import ArgumentParser
import ChimeCore
import ChimeFormat
import ChimeStore
import Foundation

extension CalendarCommand {
    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a calendar, or a reminder list with --type reminders.")
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
            print(
                options.json
                    ? JSONText.document([("id", JSONText.string(calendar.identifier))])
                    : "Added \(type == .events ? "calendar" : "list") \"\(DisplayText.singleLine(title))\" (\(calendar.identifier))")
        }
    }
}
