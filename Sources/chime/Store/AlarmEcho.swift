import ChimeCore
import ChimeDaemon
import ChimeFormat
import ChimeStore

/// What `add` and `edit` say back about alarms: each alarm's next firing on the wall clock, so a
/// person sees at once that "15m" means a quarter of an hour before, and when an item will not
/// notify at all.
enum AlarmEcho {
    /// The alarm settings the daemon uses (the `[alarms]` section of the configuration file), so
    /// that what the CLI says will fire is what fires; defaults when there is no readable file.
    /// Read once per process: `show` asks for it per item line.
    static let defaults: AlarmDefaults = configuration?.scheduler.alarmDefaults ?? AlarmDefaults()

    /// The configuration file at its default path, if readable: the CLI follows the daemon's
    /// settings where both show the same thing (which alarms ring, what the agenda hides).
    static let configuration = try? DaemonConfiguration.load(path: DaemonConfiguration.defaultPath(), explicit: false)

    /// ``defaults`` with the user's addresses on the store's CalDAV servers added to who "I" am.
    static func defaults(for store: EventStore) -> AlarmDefaults {
        (try? store.alarmDefaults(defaults)) ?? defaults
    }

    /// `Alarm: Wed 2026-11-25 09:45 (15 min before)`, one line per alarm, or why nothing fires,
    /// in the user's language (`Alarm` is `Hinweis`, `Сигнал`, `提醒`).
    static func lines(for item: AnyCalendarItem, now: Instant, zone: ZoneRules, messages: Messages = CLIContext.messages) -> [String] {
        descriptions(for: item, now: now, zone: zone, messages: messages).map { messages("Alarm: {alarm}", ["alarm": $0]) }
    }

    /// What ``lines(for:now:zone:messages:)`` says after `Alarm: `: `Wed 2026-11-25 09:45 (15 min
    /// before)`, `at the due time, already past`, `none (add one with --alarm 15m)`.
    static func descriptions(for item: AnyCalendarItem, now: Instant, zone: ZoneRules, messages: Messages) -> [String] {
        let defaults = self.defaults
        var alarms = item.alarms
        if case .reminder(let r) = item, let implicit = defaults.implicitAlarm(for: r) { alarms.append(implicit) }
        // Alarms a file brought that Chime keeps but does not ring (an e-mail one) are alarms too:
        // listed after the others, and an item that has only those does not say "none".
        let kept = Alarm.keptActions(inItemExtras: item.base.icsExtras).map { keptAlarm($0, messages: messages) }
        if alarms.isEmpty && !kept.isEmpty { return kept }
        if alarms.isEmpty {
            if case .reminder(let r) = item, r.dueDate ?? r.startDate == nil {
                return [messages("none (no due date: add --due \"tomorrow 9am\" or --alarm DATE to be reminded)")]
            }
            return [messages("none (add one with --alarm 15m)")]
        }
        let firings = AlarmAgenda.firings(of: [(item, [])], zone: zone, from: now, to: now.adding(400 * 86_400), defaults: defaults)
        return alarms.map { alarm in
            let what = words(alarm, item: item, defaults: defaults, messages: messages)
            if alarm.structuredLocation != nil { return what }
            guard let next = firings.first(where: { $0.alarm == alarm }) else { return messages("{alarm}, already past", ["alarm": what]) }
            let local = zone.localTime(at: next.fireAt)
            return messages("{when} ({alarm})", ["when": "\(messages.dayHeading(local.date)) \(DisplayText.hhmm(local))", "alarm": what])
        } + kept
    }

    /// An alarm kept as it came, by its ACTION: `email alarm (not sent by Chime)`.
    static func keptAlarm(_ action: String, messages: Messages) -> String {
        switch action {
        case "EMAIL": messages("email alarm (not sent by Chime)")
        case "PROCEDURE": messages("command alarm from a file (never run or shown by Chime)")
        default: messages("{action} alarm (not shown by Chime)", ["action": action])
        }
    }

    /// `15 min before`, `1 h after`, `at the due time`.
    static func words(_ alarm: Alarm, item: AnyCalendarItem, defaults: AlarmDefaults, messages: Messages = .english) -> String {
        if case .absolute = alarm.trigger { return messages("at a set time", context: "alarm") }
        guard case .relative(let offset, let relation) = alarm.trigger else { return DisplayText.alarm(alarm, messages: messages) }
        let length = DisplayText.length(abs(offset), messages: messages)
        switch (item, relation, offset) {
        case (.reminder, _, 0): return messages("at the due time", context: "alarm")
        case (_, .end, 0): return messages("at the end", context: "alarm")
        case (_, _, 0): return messages("at the start", context: "alarm")
        case (_, .end, ..<0): return messages("{length} before the end", context: "alarm", ["length": length])
        case (_, .end, _): return messages("{length} after the end", context: "alarm", ["length": length])
        case (_, _, ..<0): return messages("{length} before", context: "alarm", ["length": length])
        default: return messages("{length} after", context: "alarm", ["length": length])
        }
    }
}

extension AnyCalendarItem {
    /// Whether the item's date (an event's start, a reminder's due or start date) is a whole day.
    var isAllDay: Bool {
        switch self {
        case .event(let e): return e.isAllDay
        case .reminder(let r): return (r.dueDate ?? r.startDate)?.isAllDay == true
        }
    }
}
