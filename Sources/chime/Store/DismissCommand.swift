import ArgumentParser
import ChimeCore
import ChimeFormat
import ChimeStore

struct DismissCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dismiss",
        abstract: "Answer alarms that rang: they stop here and, after the next sync, on your other devices.",
        discussion: """
            KEY is an alarm firing as `chime alarms --json` prints it ("key"), or as the D-Bus \
            AlarmFired signal gives it. REF is an item (ID, ID@OCCURRENCE, or a title only one \
            item has): every alarm of it that rang in the last 24 hours is answered. The answer \
            is written into the item as other clients read it (ACKNOWLEDGED on the alarm, \
            X-MOZ-LASTACK on the item) and synced like any edit, so the daemon on another machine \
            takes its notification off the screen and Thunderbird, Evolution and Apple's clients \
            do not ring it either. An invitation someone else organises, and a read-only or \
            subscribed calendar, keep the answer on this machine only.

            Examples:
              chime dismiss 6F1C2A90                 # the alarms of this item that rang today
              chime dismiss "6F1C2A90-…@20261207T090000Z#-900"
            """)

    @OptionGroup var options: StoreOptions
    @Argument(help: "Alarm firing keys or item references.", completion: .custom(ShellCompletion.items)) var targets: [String]

    func run() throws {
        let store = try options.open()
        let now = CLIContext.now
        let defaults = AlarmEcho.defaults(for: store)
        let answered = try AnsweredAlarms(targets, in: store, now: now, zone: CLIContext.zone, defaults: defaults)
        let keys = answered.keys
        try store.ledger.withdraw(keys, now: now)
        let open = try store.ledger.itemsWithOpenFirings(at: now, excluding: keys)
        let messages = CLIContext.messages
        for (item, answered) in Dictionary(grouping: keys, by: \.item).sorted(by: { $0.key < $1.key }) {
            let title = try store.calendarItem(withIdentifier: item).map { DisplayText.itemTitle($0.title) } ?? ItemReference.short(item)
            let n = answered.count
            if open.contains(item) {
                print(
                    messages.plural(
                        "Dismissed {count} alarm of \"{title}\" here (another of its alarms is on screen or snoozed: other devices still ring it)",
                        "Dismissed {count} alarms of \"{title}\" here (another of its alarms is on screen or snoozed: other devices still ring it)",
                        count: n, ["title": title]))
                continue
            }
            let record = try store.recordAlarmAnswer(
                item: item, alarms: Set(answered.map(\.alarm)), occurrences: Set(answered.map(\.occurrence)),
                at: now, identity: defaults.identity)
            switch record {
            case .written:
                print(
                    messages.plural(
                        "Dismissed {count} alarm of \"{title}\"; your other devices stop ringing it after their next sync",
                        "Dismissed {count} alarms of \"{title}\"; your other devices stop ringing it after their next sync",
                        count: n, ["title": title]))
            case .readOnlyCalendar:
                print(
                    messages.plural(
                        "Dismissed {count} alarm of \"{title}\" here (its calendar is read-only: other devices still ring it)",
                        "Dismissed {count} alarms of \"{title}\" here (its calendar is read-only: other devices still ring it)",
                        count: n, ["title": title]))
            case .notOrganizer:
                print(
                    messages.plural(
                        "Dismissed {count} alarm of \"{title}\" here (an invitation from someone else: other devices still ring it)",
                        "Dismissed {count} alarms of \"{title}\" here (an invitation from someone else: other devices still ring it)",
                        count: n, ["title": title]))
            case .unknownItem:
                print(messages("\"{title}\" is gone: nothing rings again", ["title": title]))
            }
        }
    }
}
