import ArgumentParser
import ChimeCore
import ChimeFormat
import ChimeStore

extension CalendarCommand {
    struct Default: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "default",
            abstract: "Show or choose where new events and reminders go.",
            discussion: """
                Without NAME, says where `chime add event` and `chime add reminder` put what is \
                added without --calendar or --list. With NAME, that calendar (or list) becomes \
                the place for its kind. With a CalDAV account, choose one of its calendars so \
                that what you add here reaches your other devices: the first account added does \
                so itself. Read-only and subscribed calendars cannot be the default.

                Examples:
                  chime calendar default                       # where new items go now
                  chime calendar default Work                  # new events go to Work
                  chime calendar default Errands --type reminders
                """)

        @OptionGroup var options: StoreOptions
        @Argument(help: "The calendar or list (title or ID).", completion: .custom(ShellCompletion.calendars)) var name: String?
        @Option(help: "Which kind, when a calendar and a list share the name.") var type: Kind?

        func run() throws {
            let store = try options.open(creating: true)
            if let name {
                let calendar = try CalendarCommand.find(name, kind: type, in: store)
                do { try store.setDefaultCalendar(identifier: calendar.identifier) } catch .invalid(.readOnlyCalendar) {
                    throw InputError(
                        translatable: "\"{name}\" is read-only (a subscription, or a server calendar that takes no changes): it cannot hold new items",
                        ["name": DisplayText.singleLine(calendar.title)])
                }
            }
            let messages = CLIContext.messages
            for calendar in [try store.defaultCalendarForNewEvents(), try store.defaultCalendarForNewReminders()] {
                let title = DisplayText.singleLine(calendar.title)
                switch (calendar.entityType, try Self.account(of: calendar, in: store)) {
                case (.event, let account?):
                    print(messages("New events go to \"{title}\" (account {account})", ["title": title, "account": account]))
                case (.event, nil): print(messages("New events go to \"{title}\" (on this machine only)", ["title": title]))
                case (.reminder, let account?):
                    print(messages("New reminders go to \"{title}\" (account {account})", ["title": title, "account": account]))
                case (.reminder, nil): print(messages("New reminders go to \"{title}\" (on this machine only)", ["title": title]))
                }
            }
        }

        /// The name of the CalDAV account `calendar` belongs to; nil for a calendar of this machine only.
        static func account(of calendar: ChimeCore.Calendar, in store: EventStore) throws -> String? {
            for account in try store.sync.accounts() {
                if try store.sync.collections(account: account.name).contains(where: { $0.calendarIdentifiers.contains(calendar.identifier) }) {
                    return DisplayText.singleLine(account.name)
                }
            }
            return nil
        }
    }
}
