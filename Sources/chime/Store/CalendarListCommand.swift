import ArgumentParser
import ChimeCore
import ChimeStore
import Foundation

extension CalendarCommand {
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List calendars (events) and lists (reminders).")
        @OptionGroup var options: StoreOptions

        func run() throws {
            let store = try options.open()
            let all = try store.calendars(for: .event) + store.calendars(for: .reminder)
            if options.json {
                print(JSONText.document([("calendars", JSONText.array(all.map(ItemFormat.json)))]))
                return
            }
            if all.isEmpty { print("No calendars yet; `chime add event` creates \"Calendar\", `chime add reminder` creates \"Reminders\"."); return }
            let width = all.map { DisplayText.singleLine($0.title).count }.max() ?? 0
            for c in all {
                print("\(DisplayText.singleLine(c.title).padding(toLength: width))  \(c.entityType.plural.padding(toLength: 9))  \(DisplayText.singleLine(c.color))  \(DisplayText.singleLine(c.identifier))")
            }
        }
    }
}
