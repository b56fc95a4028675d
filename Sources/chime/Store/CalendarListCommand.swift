import ArgumentParser
import ChimeCore
import ChimeFormat
import ChimeStore
import Foundation

extension CalendarCommand {
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List calendars (events) and lists (reminders).")
        @OptionGroup var options: StoreOptions

        func run() throws {
            let store = try options.open()
            if options.json { print(try ItemFormat.calendarsDocument(store)); return }
            let all = try store.calendars(for: .event) + store.calendars(for: .reminder)
            if all.isEmpty { print("No calendars yet; `chime add event` creates \"Calendar\", `chime add reminder` creates \"Reminders\"."); return }
            let width = all.map { DisplayText.singleLine($0.title).count }.max() ?? 0
            let byCalendar = try store.sourcesByCalendar()
            let sources = all.map { c -> String in
                let s = byCalendar[c.identifier] ?? .local
                return DisplayText.singleLine(s.kind == .calDAV ? "account " + s.title : s.kind == .subscribed ? "subscribed" : "local")
            }
            let sourceWidth = sources.map(\.count).max() ?? 0
            for (c, source) in zip(all, sources) {
                print(
                    "\(DisplayText.singleLine(c.title).padding(toLength: width))  \(c.entityType.plural.padding(toLength: 9))  \(source.padding(toLength: sourceWidth))  \(DisplayText.singleLine(c.color))  \(DisplayText.singleLine(c.identifier))"
                )
            }
        }
    }
}
