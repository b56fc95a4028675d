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
            let messages = CLIContext.messages
            if all.isEmpty {
                let titles = StoreOptions.newCalendarTitles(messages)
                print(
                    messages(
                        "No calendars yet; `chime add event` creates \"{events}\", `chime add reminder` creates \"{reminders}\".",
                        ["events": titles.events, "reminders": titles.reminders]))
                return
            }
            let width = all.map { DisplayText.columns(DisplayText.singleLine($0.title)) }.max() ?? 0
            let byCalendar = try store.sourcesByCalendar()
            // A server calendar that takes events and to-dos is one calendar on every other device:
            // its event calendar and reminder list here are one line, with both IDs.
            var entries: [(calendar: ChimeCore.Calendar, kinds: String, identifiers: String)] = []
            var shown: Set<String> = []
            for c in all where !shown.contains(c.identifier) {
                var kinds = [Self.kindWord(c.entityType, messages)], identifiers = [c.identifier]
                if let collection = try store.sync.collection(forCalendar: c.identifier), collection.calendarIdentifiers.count == 2 {
                    for other in collection.calendarIdentifiers where other != c.identifier {
                        guard let partner = all.first(where: { $0.identifier == other }) else { continue }
                        kinds.append(Self.kindWord(partner.entityType, messages))
                        identifiers.append(other)
                        shown.insert(other)
                    }
                }
                entries.append((c, kinds.joined(separator: "+"), identifiers.map(DisplayText.singleLine).joined(separator: " ")))
            }
            let sources = entries.map { entry -> String in
                let s = byCalendar[entry.calendar.identifier] ?? .local
                switch s.kind {
                case .calDAV: return DisplayText.singleLine(messages("account {name}", context: "calendar list", ["name": s.title]))
                case .subscribed: return messages("subscribed", context: "calendar list")
                default: return messages("local", context: "calendar list")
                }
            }
            let sourceWidth = sources.map(DisplayText.columns).max() ?? 0
            let kindWidth = max(9, entries.map { DisplayText.columns($0.kinds) }.max() ?? 0)
            for (entry, source) in zip(entries, sources) {
                let c = entry.calendar
                print(
                    "\(DisplayText.singleLine(c.title).padding(toLength: width))  \(entry.kinds.padding(toLength: kindWidth))  \(source.padding(toLength: sourceWidth))  \(DisplayText.singleLine(c.color))  \(entry.identifiers)"
                )
            }
        }

        /// `events` or `reminders`, in the user's language.
        static func kindWord(_ type: EntityType, _ messages: Messages) -> String {
            type == .event ? messages("events", context: "calendar list") : messages("reminders", context: "calendar list")
        }
    }
}
