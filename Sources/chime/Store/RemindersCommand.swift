import ArgumentParser
import ChimeCore
import ChimeStore

struct Reminders: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List reminders: incomplete ones by due date, or completed ones.",
        discussion: """
            A repeating reminder shows only its current instance. \(CLIContext.dateHelp)

            Examples:
              chime reminders
              chime reminders --due-before "tomorrow 0:00" --list Work
              chime reminders --completed --json
            """)

    @OptionGroup var options: StoreOptions
    @Flag(help: "Completed reminders, most recent first.") var completed = false
    @Option(help: ArgumentHelp("Only incomplete reminders due before this.", valueName: "date")) var dueBefore: String?
    @Option(name: .customLong("list"), help: ArgumentHelp("Only this list (name or ID); repeatable.", valueName: "name"))
    var lists: [String] = []

    func validate() throws {
        if completed && dueBefore != nil { throw ArgumentParser.ValidationError("--due-before applies to incomplete reminders, not with --completed") }
    }

    func run() throws {
        let store = try options.open()
        let selected: [ChimeCore.Calendar]? = lists.isEmpty ? nil : try lists.map { try ReminderTarget.list($0, in: store) }
        let predicate = completed
            ? store.predicateForCompletedReminders(completionStart: nil, completionEnd: nil, calendars: selected)
            : store.predicateForIncompleteReminders(dueStart: nil, dueEnd: try dueBefore.map { try CLIContext.instant($0, option: "--due-before") },
                                                    calendars: selected)
        let found = try store.reminders(matching: predicate)
        var titles: [String: String] = [:]
        for c in try store.calendars(for: .reminder) { titles[c.identifier] = c.title }
        if options.json {
            print(JSONText.array(found.map { ItemFormat.json(.reminder($0), calendarTitle: $0.calendarIdentifier.flatMap { titles[$0] }, zone: CLIContext.zone) }))
            return
        }
        if found.isEmpty { print(completed ? "No completed reminders." : "Nothing to do."); return }
        for r in found {
            var line = r.isCompleted ? "[x] " : "[ ] "
            line += DisplayText.itemTitle(r.title)
            if r.priority > 0 { line += "  !\(r.priority)" }
            if let due = r.dueDate { line += "  due \(ItemFormat.human(due, zone: CLIContext.zone))" }
            if let done = r.completionDate { line += "  done \(ItemFormat.human(.utc(CLIContext.zone.localTime(at: done)), zone: .utc))" }
            if !r.recurrenceRules.isEmpty { line += "  repeats" }
            if r.alarms.contains(where: { $0.structuredLocation != nil }) { line += "  📍" }
            line += "  [\(DisplayText.singleLine(r.calendarIdentifier.flatMap { titles[$0] } ?? ""))]  \(DisplayText.singleLine(r.identifier))"
            print(line)
        }
    }
}

struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show one event or reminder.",
        discussion: "ID is what `chime agenda` or `chime reminders` prints; ID@OCCURRENCE shows one occurrence of a recurring event.")

    @OptionGroup var options: StoreOptions
    @Argument(help: "ID or ID@YYYYMMDDTHHMMSSZ.") var id: String

    func run() throws {
        let store = try options.open()
        let item = try ItemReference(id).resolve(in: store)
        let calendarID: String? = switch item { case .event(let e): e.calendarIdentifier; case .reminder(let r): r.calendarIdentifier }
        let calendarTitle = try calendarID.flatMap { try store.calendar(withIdentifier: $0)?.title }
        if options.json { print(ItemFormat.json(item, calendarTitle: calendarTitle, zone: CLIContext.zone)); return }
        let zone = CLIContext.zone
        var lines: [(String, String)] = []
        switch item {
        case .event(let e):
            lines.append(("Event", e.title))
            lines.append(("Starts", ItemFormat.human(e.start, zone: zone)))
            lines.append(("Ends", ItemFormat.human(e.end, zone: zone)))
            if e.isDetached { lines.append(("Detached", "this occurrence was changed on its own")) }
            if !e.exceptionDates.isEmpty { lines.append(("Except", e.exceptionDates.map { "\($0)" }.joined(separator: ", "))) }
            lines += details(e, calendarTitle)
            lines.append(("ID", ItemReference.text(e)))
        case .reminder(let r):
            lines.append(("Reminder", r.title))
            if let s = r.startDate { lines.append(("Starts", ItemFormat.human(s, zone: zone))) }
            if let d = r.dueDate { lines.append(("Due", ItemFormat.human(d, zone: zone))) }
            lines.append(("Priority", r.priority == 0 ? "none" : "\(r.priority)"))
            lines.append(("Completed", r.completionDate.map { "yes, \($0)" } ?? (r.isCompleted ? "yes" : "no")))
            if let s = r.seriesIdentifier { lines.append(("Series", s)) }
            lines += details(r, calendarTitle)
            lines.append(("ID", r.identifier))
        }
        for (label, value) in lines { print("\((label + ":").padding(toLength: 10)) \(DisplayText.singleLine(value))") }
    }

    private func details(_ i: some CalendarItem, _ calendarTitle: String?) -> [(String, String)] {
        var lines: [(String, String)] = [("Calendar", calendarTitle ?? "?")]
        for r in i.recurrenceRules { lines.append(("Repeats", r.rfc5545)) }
        for a in i.alarms { lines.append(("Alarm", DisplayText.alarm(a) + (a.asksForSound ? " (with sound)" : ""))) }
        for _ in 0..<Alarm.emailAlarmCount(inItemExtras: i.icsExtras) { lines.append(("Alarm", "email alarm (not sent by Chime)")) }
        if let l = i.location { lines.append(("Location", l)) }
        if let n = i.notes { lines.append(("Notes", n)) }
        if let u = i.url { lines.append(("URL", u)) }
        return lines
    }
}
