import ArgumentParser
import ChimeCore
import ChimeFormat
import ChimeScheduler
import ChimeStore

struct ShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show one event or reminder.",
        discussion: """
            ID is what `chime agenda`, `chime alarms` or `chime reminders` prints, or any unique \
            start of it, or a title only one item has; ID@OCCURRENCE shows one occurrence of a \
            recurring event. Each alarm is shown with the next time it fires.

            Examples:
              chime show 6f1c2a9e
              chime show 6f1c2a9e@20261203T080000Z
              chime show "Call the dentist"
            """)

    @OptionGroup var options: StoreOptions
    @OptionGroup var colorOption: ColorOption
    @OptionGroup var bus: ViaBusOption
    @Argument(help: "ID (or its start), ID@OCCURRENCE, or a title.", completion: .custom(ShellCompletion.items)) var id: String

    func run() throws {
        colorOption.apply()
        if bus.viaBus { let id = id; return try bus.run(needing: nil) { try await $0.item(id) } }
        let store = try options.open()
        let reference = try ItemReference(id)
        let item = try reference.resolve(in: store)
        let occurrenceAsked = reference.occurrence != nil
        let calendarID: String? =
            switch item {
            case .event(let e): e.calendarIdentifier;
            case .reminder(let r): r.calendarIdentifier
            }
        let calendarTitle = try calendarID.flatMap { try store.calendar(withIdentifier: $0)?.title }
        let command = try store.alarmCommandLinks(forItems: [item.identifier])[item.identifier]
        if options.json {
            print(ItemFormat.document(item, calendarTitle: calendarTitle, zone: CLIContext.zone, identity: AlarmEcho.defaults(for: store).identity)); return
        }
        let zone = CLIContext.zone
        let messages = CLIContext.messages
        var lines: [(String, String)] = []
        switch item {
        case .event(let e):
            lines.append((messages("Event", context: "show label"), e.title))
            lines.append((messages("Starts", context: "show label"), ItemFormat.human(e.start, zone: zone, messages: messages)))
            // An all-day end is stored as the day after; people read the last day.
            lines.append(
                (
                    messages("Ends", context: "show label"),
                    e.isAllDay
                        ? ItemFormat.human(.allDay(e.end.local.date.adding(days: -1)), zone: zone, messages: messages)
                        : ItemFormat.human(e.end, zone: zone, messages: messages)
                ))
            if e.isDetached { lines.append((messages("Detached", context: "show label"), messages("this occurrence was changed on its own"))) }
            if e.status != .none {
                lines.append(
                    (
                        messages("Status", context: "show label"),
                        e.status == .cancelled
                            ? messages("cancelled: it does not ring")
                            : e.status == .tentative ? messages("tentative", context: "event status") : messages("confirmed", context: "event status")
                    ))
            }
            lines += Self.invitation(.event(e), defaults: AlarmEcho.defaults(for: store), messages: messages)
            if !e.exceptionDates.isEmpty {
                lines.append(
                    (
                        messages("Except", context: "show label"),
                        e.exceptionDates.map { Self.human($0, of: e, zone: zone, messages: messages) }.joined(separator: ", ")
                    ))
            }
            lines += details(.event(e), calendarTitle, command: command, messages: messages)
            // ID alone names the series; ID@OCCURRENCE the occurrence asked for.
            lines.append(("ID", occurrenceAsked ? ItemReference.text(e, zone: zone) : e.identifier))
        case .reminder(let r):
            lines.append((messages("Reminder", context: "show label"), r.title))
            if let s = r.startDate { lines.append((messages("Starts", context: "show label"), ItemFormat.human(s, zone: zone, messages: messages))) }
            if let d = r.dueDate {
                let overdue = !r.isCompleted && RemindersCommand.isOverdue(d, now: CLIContext.now, zone: zone)
                let due = ItemFormat.human(d, zone: zone, messages: messages)
                lines.append((messages("Due", context: "show label"), overdue ? messages("{date} (overdue)", ["date": due]) : due))
            }
            lines.append((messages("Priority", context: "show label"), r.priority == 0 ? messages("none", context: "priority") : "\(r.priority)"))
            let completed =
                r.completionDate.map { messages("yes, {date}", ["date": "\($0)"]) }
                ?? (r.isCompleted ? messages("yes", context: "completed") : messages("no", context: "completed"))
            lines.append((messages("Completed", context: "show label"), completed))
            if let s = r.seriesIdentifier { lines.append((messages("Series", context: "show label"), s)) }
            lines += details(.reminder(r), calendarTitle, command: command, messages: messages)
            lines.append(("ID", r.identifier))
        }
        for line in Self.labelled(lines, messages: messages) { print(line) }
    }

    /// `Label:    value` lines, the colon as the language writes it (`Début :`). English labels
    /// are padded to 10 characters, as they always were; a translated one to the longest label
    /// shown, so the values line up in every language.
    static func labelled(_ lines: [(String, String)], messages: Messages) -> [String] {
        let labels = lines.map { messages("{label}:", context: "show label", ["label": $0.0]) }
        // Columns, not characters: 开始 takes four, as wide as "Ende".
        let width = messages.language != nil ? max(10, labels.map(DisplayText.columns).max() ?? 0) : 10
        return zip(labels, lines).map { label, line in
            label + String(repeating: " ", count: max(0, width - DisplayText.columns(label))) + " " + DisplayText.singleLine(line.1)
        }
    }

    /// The organizer and attendees with their answers, the user's marked: `Organizer: Bob Stone
    /// <bob@example.org>`, `Attendees: you (declined: does not ring), Room 4.1 (room, accepted)`.
    static func invitation(_ item: AnyCalendarItem, defaults: AlarmDefaults, messages: Messages = .english) -> [(String, String)] {
        let identity = defaults.identity
        func who(_ p: Participant) -> String {
            if p.isCurrentUser(identity) { return messages("you", context: "attendee") }
            return p.name.map { "\($0) <\(p.shownAddress)>" } ?? p.shownAddress
        }
        var lines: [(String, String)] = []
        if let organizer = item.base.organizer { lines.append((messages("Organizer", context: "show label"), who(organizer))) }
        let attendees = item.base.attendees
        if !attendees.isEmpty {
            lines.append(
                (
                    messages("Attendees", context: "show label"),
                    attendees.map { p in
                        var notes = [
                            kindWord(p.kind, messages), p.role == .optional ? messages("optional", context: "attendee role") : nil,
                            statusWord(p.status, messages)
                        ].compactMap { $0 }
                        if p.isCurrentUser(identity) && !defaults.rings(item) { notes.append(messages("does not ring")) }
                        return "\(who(p)) (\(notes.joined(separator: ", ")))"
                    }.joined(separator: "; ")
                ))
        }
        return lines
    }

    /// What an attendee is when not a person (`room`, `resource`, `group`), in the user's words.
    static func kindWord(_ kind: Participant.Kind, _ messages: Messages) -> String? {
        switch kind {
        case .person, .unknown: nil
        case .room: messages("room", context: "attendee kind")
        case .resource: messages("resource", context: "attendee kind")
        case .group: messages("group", context: "attendee kind")
        }
    }

    /// An attendee's answer (`PARTSTAT`), in the user's words.
    static func statusWord(_ status: Participant.Status, _ messages: Messages) -> String {
        switch status {
        case .needsAction: messages("needs-action", context: "attendee status")
        case .accepted: messages("accepted", context: "attendee status")
        case .declined: messages("declined", context: "attendee status")
        case .tentative: messages("tentative", context: "attendee status")
        case .delegated: messages("delegated", context: "attendee status")
        case .completed: messages("completed", context: "attendee status")
        case .inProcess: messages("in-process", context: "attendee status")
        }
    }

    /// An excluded occurrence as the agenda would show it: `Mon 2026-10-26 10:00`.
    static func human(_ d: RecurrenceDate, of e: Event, zone: ZoneRules, messages: Messages = .english) -> String {
        switch d {
        case .date(let day): return messages.dayHeading(day)
        case .local(let l):
            guard let own = e.start.timeZone else { return "\(messages.dayHeading(l.date)) \(DisplayText.hhmm(l))" }
            return ItemFormat.human(.zoned(l, own), zone: zone, messages: messages)
        case .instant(let i): return ItemFormat.human(.utc(i.utc), zone: zone, messages: messages)
        }
    }

    /// The label of the start's day in a rule's calendar: `Chinese date`, `农历`.
    static func dateLabel(_ calendar: RecurrenceCalendar, _ messages: Messages) -> String {
        switch calendar {
        case .chinese: messages("Chinese date", context: "show label")
        case .hebrew: messages("Hebrew date", context: "show label")
        case .islamic: messages("Islamic date", context: "show label")
        case .persian: messages("Persian date", context: "show label")
        default: messages("{calendar} date", context: "show label", ["calendar": calendar.name])
        }
    }

    private func details(_ item: AnyCalendarItem, _ calendarTitle: String?, command: AlarmCommandLink?, messages: Messages) -> [(String, String)] {
        var lines: [(String, String)] = [(messages("Calendar", context: "show label"), calendarTitle ?? "?")]
        for r in item.recurrenceRules { lines.append((messages("Repeats", context: "show label"), ItemFormat.words(r, messages: messages))) }
        // A rule in another calendar: the day as that calendar writes it (八月十五, 8 Adar I 5786).
        let day: CivilDate? =
            switch item {
            case .event(let e): e.start.local.date
            case .reminder(let r): (r.dueDate ?? r.startDate)?.local.date
            }
        let language = CLIContext.language.time ?? CLIContext.language.messages ?? "en"
        for calendar in Set(item.recurrenceRules.compactMap(\.calendar)).sorted(by: { $0.rawValue < $1.rawValue }) {
            if let day, let text = CalendarDateText.text(day, in: calendar, language: language) {
                lines.append((Self.dateLabel(calendar, messages), text))
            }
        }
        // One line per alarm, in the item's order (a reminder's implicit due-time alarm, then those
        // kept as they came, last).
        for (index, line) in AlarmEcho.descriptions(for: item, now: CLIContext.now, zone: CLIContext.zone, messages: messages).enumerated() {
            let alarm = index < item.alarms.count ? item.alarms[index] : nil
            let sound =
                alarm.map { alarm in
                    guard alarm.asksForSound else { return "" }
                    return AlarmSounds.namedSound(in: alarm).map { " " + messages("(with sound {name})", ["name": $0]) } ?? " " + messages("(with sound)")
                } ?? ""
            lines.append((messages("Alarm", context: "show label"), line + sound))
        }
        let i = item.base
        if let command {
            lines.append(
                (
                    messages("Command", context: "show label"),
                    command.isRetimed
                        ? messages(
                            "{name} (not run: the item was re-timed by an import, a sync or an app since you linked it; `{command}` runs it again)",
                            ["name": command.name, "command": "chime edit \(command.linkedItem.prefix(8)) --alarm-command \(command.name)"])
                        : messages("{name} (from [commands] in config.toml, run by the daemon when an alarm fires)", ["name": command.name])
                ))
        }
        if let l = i.location { lines.append((messages("Location", context: "show label"), l)) }
        if let n = i.notes { lines.append((messages("Notes", context: "show label"), n)) }
        if let u = i.url { lines.append(("URL", u)) }
        return lines
    }
}
