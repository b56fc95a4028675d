import ArgumentParser
import ChimeCore
import ChimeFormat
import ChimeScheduler
import ChimeStore

struct SnoozeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "snooze",
        abstract: "Ring alarms that rang again later, here and on your other devices.",
        discussion: """
            KEY is an alarm firing as `chime alarms --json` prints it ("key"); REF is an item (ID, \
            ID@OCCURRENCE, or a title only one item has): every alarm of it that rang in the last \
            24 hours is snoozed. LENGTH is how long (10m, 1h30m, at most a week), a time of day \
            (tomorrow 9:00) or a date and time still ahead; without it, the first snooze choice of the configuration ([alarms] \
            snooze), else 10 minutes. The snooze is written into the item as other clients read \
            it (an RFC 9074 snooze alarm, X-MOZ-SNOOZE-TIME) and synced like any edit: the other \
            machine's daemon takes the notification off its screen and rings it at the same time; \
            Thunderbird, Evolution and Apple's clients ring it then too. The daemon here rings it \
            once. A read-only or subscribed calendar, or an invitation someone else organises, \
            keeps the snooze on this machine only.

            Examples:
              chime snooze Dentist                   # the first snooze choice (10 min)
              chime snooze 6F1C2A90 1h
              chime snooze Standup "tomorrow 9:00"
            """)

    @OptionGroup var options: StoreOptions
    @Argument(help: "Alarm firing keys or item references, then optionally a LENGTH.", completion: .custom(ShellCompletion.items))
    var targets: [String]

    func run() throws {
        let store = try options.open()
        let now = CLIContext.now, zone = CLIContext.zone
        var references = targets
        var until = (AlarmEcho.configuration?.scheduler.snoozeChoices.first ?? .minutes(10)).until(now: now, zone: zone)
        if references.count > 1, let last = references.last {
            // A length (10m) or a time of day (tomorrow 9:00), else a date and time still ahead.
            if let choice = try? SnoozeChoice(parsing: last) {
                until = choice.until(now: now, zone: zone)
                references.removeLast()
            } else if let instant = try? CLIContext.instant(last, option: "LENGTH"), instant > now {
                until = instant
                references.removeLast()
            }
        }
        let defaults = AlarmEcho.defaults(for: store)
        let answered = try AnsweredAlarms(references, in: store, now: now, zone: zone, defaults: defaults)
        try store.ledger.recordMissed(answered.unrecorded, checkedUntil: nil, now: now)
        let records = try store.snoozeAlarms(
            answered.keys, until: until, at: now, identity: defaults.identity, zone: zone, defaults: defaults, includingMissed: true)
        let messages = CLIContext.messages
        let when = ItemFormat.human(.utc(until.utc), zone: zone, messages: messages)
        for record in records {
            let title = try store.calendarItem(withIdentifier: record.item).map { DisplayText.itemTitle($0.title) } ?? ItemReference.short(record.item)
            let values: KeyValuePairs<String, String> = ["title": title, "when": when]
            switch record.record {
            case .written?:
                print(messages("Snoozed \"{title}\" until {when}; your other devices ring it then too", values))
            case .readOnlyCalendar?:
                print(messages("Snoozed \"{title}\" until {when} here (its calendar is read-only: other devices do not know)", values))
            case .notOrganizer?:
                print(messages("Snoozed \"{title}\" until {when} here (an invitation from someone else: other devices do not know)", values))
            case .unknownItem?:
                print(messages("\"{title}\" is gone: nothing rings again", values))
            case nil:
                print(messages("Snoozed \"{title}\" until {when} here (another of its alarms is on screen or snoozed: other devices do not know)", values))
            }
        }
    }
}
