import ArgumentParser
import ChimeCalDAV
import ChimeCore
import ChimeDaemon
import ChimeFormat
import ChimeScheduler
import ChimeStore
import Foundation

/// Options `add` and `edit` share.
struct ItemOptions: ParsableArguments {
    @Option(help: "Notes (free text).") var notes: String?
    @Option(help: "Location (free text; for a geofence use --at).") var location: String?
    @Option(help: "A URL.") var url: String?

    @Option(
        name: .customLong("repeat"),
        help: ArgumentHelp(
            "daily, weekdays, weekly, monthly, yearly, 'every 2 weeks on mon,thu', 'every 3 days', 'weekly 10 times', or an RRULE ('FREQ=MONTHLY;BYDAY=-1FR'); repeatable.",
            valueName: "rule"))
    var rules: [String] = []

    @Option(
        name: .customLong("calendar-system"),
        help: ArgumentHelp(
            "Count --repeat in this calendar, for lunar birthdays and holidays: \(RecurrenceCalendar.namesForHelp) (RFC 7529 RSCALE). 'yearly' then means the same lunar (Hebrew, Islamic…) date each year.",
            valueName: "name"))
    var calendarSystem: String?

    @Option(
        name: .customLong("skip"),
        help: ArgumentHelp(
            "With --calendar-system: in a year without the date (a 30th in a 29-day month, a leap month), use the day before (backward, the default), after (forward), or none (omit).",
            valueName: "backward|forward|omit"))
    var skip: String?

    @Option(
        name: .customLong("alarm"), parsing: .unconditionalSingleValue,
        help: ArgumentHelp(
            "How long before the start (events) or due time (reminders): 15m, 1h, 1d; '+15m' or 'after 15m' for after; or a date. Repeatable.",
            valueName: "when"))
    var alarms: [String] = []

    @Flag(help: "No alarm at all (a reminder otherwise fires at its due time).") var noAlarm = false

    @Option(
        name: .customLong("remove-alarm"), parsing: .unconditionalSingleValue,
        help: ArgumentHelp(
            "Remove the alarm given this way, as --alarm takes it (15m, +1h, a date; one counted from the end too), or 'email' for the e-mail alarms a file brought; repeatable.",
            valueName: "when"))
    var removedAlarms: [String] = []

    @Option(help: ArgumentHelp("A geofence alarm: \"Title@LAT,LON[,RADIUS_M]\" (radius 0 or absent = default).", valueName: "place"))
    var at: String?

    @Option(help: "Fire the --at alarm on arriving or on leaving.") var on: ProximityArgument = .arrive

    @Option(
        help: ArgumentHelp(
            "Play this sound-theme sound with the alarms (alarm-clock-elapsed, bell, complete, …): by the notification server, or by Chime where the server plays none.",
            valueName: "name"))
    var sound: String?

    @Option(
        name: .customLong("alarm-command"),
        help: ArgumentHelp(
            "When an alarm fires, the daemon also runs this command from [commands] in config.toml (the allow-list; a name not listed there is refused).",
            valueName: "name"))
    var alarmCommand: String?

    @Flag(help: "The alarms run no command any more.") var noAlarmCommand = false

    enum ProximityArgument: String, ExpressibleByArgument, CaseIterable {
        case arrive, leave
        var proximity: Proximity { self == .arrive ? .enter : .leave }
    }

    func validate() throws {
        if let at {
            do { _ = try Self.place(at) } catch { throw ValidationError("\(error)") }
        }
        for text in alarms {
            if let seconds = try? Durations.alarmOffset(text, phrases: CLIContext.durationPhrases) {
                try OptionBounds.check("--alarm", text: text, seconds: seconds, ValueBounds.offsetSeconds)
            }
        }
        if noAlarm && (!alarms.isEmpty || at != nil) {
            throw ValidationError(
                CLIContext.messages("{first} cannot go with {second} or {third}", ["first": "--no-alarm", "second": "--alarm", "third": "--at"]))
        }
        if let sound, !AlarmSounds.isValidName(sound) {
            throw ValidationError(
                CLIContext.messages(
                    "{option}: \"{value}\" is not a sound-theme name (lower-case letters, digits, - _ ., e.g. alarm-clock-elapsed)",
                    ["option": "--sound", "value": sound]))
        }
        if let alarmCommand, !AlarmCommands.isValidName(alarmCommand) {
            throw ValidationError(
                "--alarm-command: \"\(alarmCommand)\" is not a command name: give the name of an entry in [commands] of config.toml (letters, digits, - and _)")
        }
        if alarmCommand != nil && noAlarmCommand {
            throw ValidationError(CLIContext.messages("{first} cannot go with {second}", ["first": "--alarm-command", "second": "--no-alarm-command"]))
        }
        if sound != nil && noAlarm {
            throw ValidationError(CLIContext.messages("{first} cannot go with {second}", ["first": "--sound", "second": "--no-alarm"]))
        }
        if let calendarSystem, RecurrenceCalendar(rfc7529: calendarSystem) == nil {
            throw ValidationError("--calendar-system: " + RecurrenceCalendar.unknownNameHint(calendarSystem))
        }
        if let skip, RecurrenceSkip(rawValue: skip.uppercased()) == nil {
            throw ValidationError(CLIContext.messages("{option}: \"{value}\" must be backward, forward or omit", ["option": "--skip", "value": skip]))
        }
        if (calendarSystem != nil || skip != nil) && rules.isEmpty {
            throw ValidationError(
                CLIContext.messages(
                    "{option} says how --repeat counts: add --repeat (e.g. --repeat yearly)",
                    ["option": calendarSystem != nil ? "--calendar-system" : "--skip"]))
        }
        if skip != nil && calendarSystem == nil {
            throw ValidationError(CLIContext.messages("--skip goes with --calendar-system (e.g. --calendar-system chinese --skip forward)"))
        }
    }

    /// What follows a save of the item: its alarm command (see ``applyCommand(toItem:in:)``), and a
    /// note on stderr when it repeats in a calendar its CalDAV server does not say it expands.
    func finishSave(ofItem identifier: String, in store: EventStore) throws {
        try applyCommand(toItem: identifier, in: store)
        guard calendarSystem != nil, let item = try store.calendarItem(withIdentifier: identifier) else { return }
        let calendarID: String? =
            switch item {
            case .event(let e): e.calendarIdentifier;
            case .reminder(let r): r.calendarIdentifier
            }
        guard let calendarID, let collection = try store.sync.collection(forCalendar: calendarID),
            let note = CalDAVSync.calendarSystemNote(item.recurrenceRules, collection: collection, title: item.title)
        else { return }
        FileHandle.standardError.write(Data("chime: note: \(note)\n".utf8))
    }

    /// Whether --alarm-command or --no-alarm-command was given.
    var changesCommand: Bool { alarmCommand != nil || noAlarmCommand }

    /// Records --alarm-command (or --no-alarm-command) beside the saved item, and says on stderr when
    /// the user's config does not list the name yet (the daemon would refuse it).
    ///
    /// Without either option, the item's present timing is confirmed for the command it already
    /// runs: the user's own edit re-timed it (an import, a sync or a D-Bus app would not be).
    func applyCommand(toItem identifier: String, in store: EventStore) throws {
        guard changesCommand else { return try store.confirmAlarmCommandTiming(forItem: identifier) }
        try store.setAlarmCommand(alarmCommand, forItem: identifier)
        guard let alarmCommand else { return }
        let path = DaemonConfiguration.defaultPath()
        guard let config = try? DaemonConfiguration.load(path: path, explicit: false) else { return }
        if case .refused(let reason) = config.scheduler.commands.decision(for: alarmCommand) {
            let note = CLIContext.messages(
                "note: the daemon will refuse --alarm-command {name} until {file} lists it: {reason}", ["name": alarmCommand, "file": path, "reason": reason])
            FileHandle.standardError.write(Data("chime: \(note)\n".utf8))
        }
    }

    /// A repeat that does not read: the forms read in every language as written, examples in the
    /// user's words, the word meant for a slip (`wöchentlch` → „wöchentlich“), how often for a count
    /// alone; an RRULE's own fault as the parser says it.
    static func repeatError(_ error: any Error, option: String) -> InputError {
        guard case .notARepeat(let text)? = error as? RecurrenceRuleError else { return InputError("\(option): \(error)") }
        let phrases = CLIContext.repeatPhrases
        var parts = ["reason": MessageText("not a repeat")]
        let words = DatePhrases.fold(text).split(whereSeparator: \.isWhitespace).map(String.init)
        if words.count == 2, let count = Int(words[0]), ["times", "time", "x"].contains(words[1]) || phrases.rewrite(text) == "\(count) times" {
            parts["reason"] = MessageText("not a repeat: say how often before the count, as in \"weekly {count} times\"", ["count": "\(count)"])
        } else {
            // The table alone decides whether a word fits (not `rule`, whose error would look again).
            let near = phrases.wordMeant(in: text, alsoKnown: RecurrenceRule.phraseWords) { fixed in
                (try? RecurrenceRule(phrase: phrases.english(fixed) { (try? RecurrenceRule(phrase: $0)) != nil })) != nil
            }
            if let near { parts["reason"] = MessageText("not a repeat; did you mean \"{word}\"?", ["word": near]) }
        }
        parts["examples"] = phrases.examples.map { MessageText("; in your language: {examples}", ["examples": $0]) }
        // The phrases and the RRULE read as written in every language; the words joining them are the language's.
        parts["forms"] = MessageText(
            "{forms}, or an RRULE such as {rule}", ["forms": RecurrenceRule.phraseExamples, "rule": RecurrenceRule.ruleExample])
        return InputError(
            translatable: "{option}: \"{text}\": {reason}; use {forms}{examples}",
            ["option": option, "text": text, "forms": RecurrenceRule.phraseForms, "examples": ""], parts: parts)
    }

    /// A repeat as typed: in the user's language (`每周`, `jeden Montag`) when English does not
    /// read it; an error names the text as typed. For `--repeat` and the form's `repeat:` line.
    static func rule(_ text: String, option: String) throws -> RecurrenceRule {
        let english = CLIContext.repeatPhrases.english(text) { (try? RecurrenceRule(phrase: $0)) != nil }
        if english != text, let rule = try? RecurrenceRule(phrase: english) { return rule }
        do { return try RecurrenceRule(phrase: text) } catch {
            if let rule = try ruleEndingOnADay(text, option: option) { return rule }
            // A last day the table says whole (`bis Jahresende` → `until december 31`).
            if english != text, let rule = try? ruleEndingOnADay(english, option: option) { return rule }
            throw repeatError(error, option: option)
        }
    }

    /// A repeat that ends on a day written as a date option takes it: `weekly until next friday`,
    /// `wöchentlich bis 1. März 2027`, `каждый понедельник до 1 марта`, and where the language
    /// says `until` after the date, `毎週2027年3月1日まで`. Nil when the text is not such a repeat;
    /// a repeat whose day does not read is refused with the date's own error.
    static func ruleEndingOnADay(_ text: String, option: String) throws -> RecurrenceRule? {
        guard var (before, after) = CLIContext.repeatPhrases.split(text, atLast: "until") ?? englishUntil(text) else { return nil }
        // A language that puts `until` round the day (`到2027年3月1日为止`): the day is between the two.
        // Only when what is between reads as a day: in `毎週月〜金 2027年3月1日まで` it is `金 2027年3月1日`,
        // and the range before the day is read below instead.
        if after.allSatisfy(\.isWhitespace), let inner = CLIContext.repeatPhrases.split(before, atLast: "until"),
            !inner.after.allSatisfy(\.isWhitespace), (try? CLIContext.date(inner.after.trimmingCharacters(in: .whitespaces), option: option)) != nil,
            (try? Self.rule(inner.before, option: option)) != nil
        {
            (before, after) = inner
        }
        func repeats(_ words: String) -> RecurrenceRule? {
            let words = words.trimmingCharacters(in: .whitespaces)
            guard !words.isEmpty, let rule = try? Self.rule(words, option: option), rule.end == .never else { return nil }
            return rule
        }
        // Read once: the range, the day after "until" and the missing day all ask for it.
        let repeatBefore = repeats(before)
        if let range = weekdayRange(repeatBefore, through: after) { return range }
        let dayText = after.trimmingCharacters(in: .whitespaces)
        if !dayText.isEmpty {
            guard let rule = repeatBefore else { return nil }
            return try ending(rule, on: try CLIContext.date(dayText, option: option), typed: dayText)
        }
        // Where the language says `until` last, the day ends the words before it.
        for cut in 1..<max(1, before.count) {
            let dayText = String(before.dropFirst(cut)).trimmingCharacters(in: .whitespaces)
            guard !dayText.isEmpty, let rule = repeats(String(before.prefix(cut))), let value = try? CLIContext.date(dayText, option: option)
            else { continue }
            return try ending(rule, on: value, typed: dayText)
        }
        guard repeatBefore != nil else { return nil }
        throw InputError(
            translatable: "{option}: \"{text}\": the day it ends is missing after \"until\" (such as 2027-03-01)", ["option": option, "text": text])
    }

    /// A weekday alone after "until" ends a range of days, not the series: `jeden Montag bis
    /// Freitag`, `每周一到周五`, `毎週月〜金`, `every monday until friday` are Monday to Friday
    /// (wrapping past Sunday: `Freitag bis Montag`). Nil unless `rule` is weekly on one weekday.
    static func weekdayRange(_ rule: RecurrenceRule?, through text: String) -> RecurrenceRule? {
        let last = CLIContext.repeatPhrases.rewrite(text)
        guard let lastIndex = DatePhrases.weekdays.firstIndex(where: { $0 == last || (last.count == 3 && $0.hasPrefix(last)) }),
            let rule, rule.frequency == .weekly, rule.daysOfTheWeek.count == 1, rule.daysOfTheWeek[0].weekNumber == 0
        else { return nil }
        var days: [String] = []
        var index = rule.daysOfTheWeek[0].dayOfTheWeek.isoIndex
        while days.count < 7 {
            days.append(Weekday(isoIndex: index).rfc5545)
            if index == lastIndex { break }
            index = (index + 1) % 7
        }
        let first = "BYDAY=" + rule.daysOfTheWeek[0].description
        return try? RecurrenceRule(parsing: rule.rfc5545.replacingOccurrences(of: first, with: "BYDAY=" + days.joined(separator: ",")))
    }

    /// The rule ending on the day `value` names, that day included; a day typed without its year
    /// is the next one (`until June 15` said in December is next June's).
    private static func ending(_ rule: RecurrenceRule, on value: DateValue, typed: String) throws -> RecurrenceRule {
        var day = value.day(in: CLIContext.zone)
        let today = CLIContext.zone.localTime(at: CLIContext.now).date
        if day < today && !writesAYear(typed) {
            for years in 1...8 {
                let later = CivilDate(year: day.year + years, month: day.month, day: day.day)
                if later.isValid { day = later; break }
            }
        }
        return try RecurrenceRule(parsing: rule.rfc5545 + ";UNTIL=" + day.basicFormat)
    }

    /// Whether a typed date gives its year (four digits in a row).
    private static func writesAYear(_ text: String) -> Bool {
        var run = 0
        for c in text {
            run = c.isASCII && c.isNumber ? run + 1 : 0
            if run == 4 { return true }
        }
        return false
    }

    /// Refuses a repeat that ends before the item begins: it would have one occurrence or none,
    /// which no one means (a year-less last day read in the past, a typo).
    static func checkEnds(_ rules: [RecurrenceRule], after begin: CalendarDate?) throws {
        guard let begin else { return }
        let first = begin.local.date
        for rule in rules {
            guard case .until(let until) = rule.end else { continue }
            let last: CivilDate
            switch until {
            case .date(let d): last = d
            case .local(let l): last = l.date
            case .utc(let i): last = CLIContext.zone.localTime(at: i).date
            }
            guard last < first else { continue }
            throw InputError(
                translatable: "--repeat: it ends on {last}, before the first day, {first}; give a later last day (with its year)",
                ["last": last.description, "first": first.description])
        }
    }

    /// The words before and after the last `until` as typed in English; "the end of the year"
    /// is December 31 (the tables of other languages say it so).
    private static func englishUntil(_ text: String) -> (before: String, after: String)? {
        let words = text.split(whereSeparator: \.isWhitespace)
        guard let at = words.lastIndex(where: { $0.lowercased() == "until" }) else { return nil }
        let after = words[(at + 1)...].joined(separator: " ")
        let endOfYear = ["the end of the year", "end of the year", "the end of this year", "end of year"].contains(after.lowercased())
        return (words[..<at].joined(separator: " "), endOfYear ? "december 31" : after)
    }

    func parsedRules() throws -> [RecurrenceRule] {
        let rules = try rules.map { try Self.rule($0, option: "--repeat") }
        guard let name = calendarSystem, let calendar = RecurrenceCalendar(rfc7529: name) else { return rules }
        let skip = skip.flatMap { RecurrenceSkip(rawValue: $0.uppercased()) } ?? .backward
        return try rules.map { rule in
            if let other = rule.calendar, other != calendar {
                throw InputError(
                    translatable: "--calendar-system {name}: the rule {rule} already counts in {other}",
                    ["name": name, "rule": rule.rfc5545, "other": other.rfc7529])
            }
            do { return try rule.counted(in: calendar, skip: skip) } catch { throw InputError("--calendar-system: \(error)") }
        }
    }

    static func alarm(_ text: String, option: String) throws -> Alarm {
        // A length before a date: `1 час` is an hour before, not one o'clock.
        if let seconds = try? Durations.alarmOffset(text, phrases: CLIContext.durationPhrases) { return .relative(seconds) }
        guard let date = try? CLIContext.instant(text, option: option) else {
            throw InputError(
                translatable: "{option}: \"{text}\" is neither an offset ({accepted}) nor a date",
                ["option": option, "text": text, "accepted": Durations.alarmAccepted])
        }
        return .absolute(date)
    }

    func parsedAlarms() throws -> [Alarm] {
        if let kind = alarms.first(where: { Self.keptAlarmKinds.contains(Self.keptAlarmKind($0)) }) {
            throw Self.notMadeHere(kind, option: "--alarm")
        }
        var result: [Alarm] = try alarms.map { try Self.alarm($0, option: "--alarm") }
        if let at { result.append(.location(try Self.place(at), on.proximity)) }
        return result
    }

    /// `Title@LAT,LON[,RADIUS]`.
    static func place(_ text: String) throws -> StructuredLocation {
        let usage = "--at: \"\(text)\" is not Title@LAT,LON[,RADIUS] (e.g. \"Office@52.52,13.405,100\")"
        guard let at = text.lastIndex(of: "@") else { throw InputError(usage) }
        let numbers = text[text.index(after: at)...].split(separator: ",").map { Double($0.filter { !$0.isWhitespace }) }
        guard numbers.count == 2 || numbers.count == 3, let lat = numbers[0], let lon = numbers[1] else { throw InputError(usage) }
        let radius = numbers.count == 3 ? numbers[2] : 0
        guard let radius else { throw InputError(usage) }
        let place = StructuredLocation(title: String(text[..<at]), latitude: lat, longitude: lon, radius: radius)
        do { try place.validate() } catch { throw InputError("--at: \(error)") }
        return place
    }

    /// The kinds of alarm `--remove-alarm` names by a word: those Chime keeps as a file brought
    /// them but does not ring.
    static let keptAlarmKinds: Set<String> = ["EMAIL", "PROCEDURE"]

    /// An e-mail (or command) alarm asked for where Chime only keeps those a file brought.
    static func notMadeHere(_ text: String, option: String) -> InputError {
        InputError(
            translatable: "{option}: \"{text}\": Chime sends no e-mail and runs no command from an alarm; it keeps those a file brought, as they came",
            ["option": option, "text": text])
    }

    /// An alarm as `--remove-alarm` takes it, then what it means in the user's language:
    /// `2h (2 Std. vorher)`, `+15m (15 min after)`, `5m before the end (5 Min. vor dem Ende)` (one
    /// counted from the end as ``DisplayText/alarm(_:)`` names it, alone where the words would be
    /// its English again); one at a date by its date alone; a place's alarm as
    /// ``DisplayText/alarm(_:messages:)`` says it, which the option takes too, as the English.
    static func removable(_ alarm: Alarm, of item: some CalendarItem, messages: Messages) -> String {
        if case .location = alarm.trigger { return DisplayText.alarm(alarm, messages: messages) }
        let typed = EditForm.alarmText(alarm) ?? DisplayText.alarm(alarm)
        let whole: AnyCalendarItem? = (item as? Event).map { .event($0) } ?? (item as? Reminder).map { .reminder($0) }
        guard let whole, case .relative(_, let relation) = alarm.trigger else { return typed }
        let words = AlarmEcho.words(alarm, item: whole, defaults: AlarmEcho.defaults, messages: messages)
        // Counted from the end, the typed form is the English words already.
        if relation == .end, words == AlarmEcho.words(alarm, item: whole, defaults: AlarmEcho.defaults) { return typed }
        return "\(typed) (\(words))"
    }

    /// The kind a word names, as an ACTION (`EMAIL`): "email", "e-mail", "E-Mail" alike.
    static func keptAlarmKind(_ word: String) -> String {
        word.trimmingCharacters(in: .whitespaces).uppercased().filter { $0 != "-" }
    }

    /// Applies the options that were given: new alarms replace the old ones (all of them, or
    /// with `keepingAlarms` only those of the same kind — timed or location); `--remove-alarm`
    /// drops the ones it names; `--no-alarm` drops all and marks a reminder as not to fire.
    func apply(to item: inout some CalendarItem, replacingAlarms: Bool) throws {
        // An empty value clears the field (`--location ""`), as the form's empty line does.
        if let notes { item.notes = notes.isEmpty ? nil : notes }
        if let location { item.location = location.isEmpty ? nil : location }
        if let url { item.url = url.isEmpty ? nil : url }
        if !rules.isEmpty {
            item.recurrenceRules = try parsedRules()
            let begin = (item as? Event)?.start ?? (item as? Reminder).flatMap { $0.dueDate ?? $0.startDate }
            try Self.checkEnds(item.recurrenceRules, after: begin)
        }
        let newAlarms = try parsedAlarms()
        if !newAlarms.isEmpty || replacingAlarms { item.alarms = replacingAlarms ? newAlarms : item.alarms + newAlarms }
        if replacingAlarms {
            // All of them: the e-mail ones kept as they came too, which `show` lists beside the others.
            item.icsExtras = ICalendarText.removingComponents(named: "VALARM", from: item.icsExtras)
        }
        for text in removedAlarms {
            // An alarm kept from a file that Chime does not ring ("email alarm" in `show`) is
            // named by its kind.
            let keptActions = Alarm.keptActions(inItemExtras: item.icsExtras)
            let named = Self.keptAlarmKind(text)
            if keptActions.contains(named) {
                item.icsExtras = Alarm.removingKept(action: named, fromItemExtras: item.icsExtras)
                continue
            }
            // A kind of alarm the item does not hold (any more): said as any other absent alarm.
            let isKind = Self.keptAlarmKinds.contains(named)
            if isKind && replacingAlarms { continue }  // --alarm replaced them already
            let before = item.alarms.count
            // An alarm as the list below names it ("5m before the end"): that one alone.
            let listed = text.trimmingCharacters(in: .whitespaces).lowercased()
            if !isKind,
                let index = item.alarms.firstIndex(where: {
                    DisplayText.alarm($0).lowercased() == listed || DisplayText.alarm($0, messages: CLIContext.messages).lowercased() == listed
                })
            {
                item.alarms.remove(at: index)
                continue
            }
            if !isKind {
                let gone = try Self.alarm(text, option: "--remove-alarm")
                item.alarms.removeAll { $0.trigger == gone.trigger }
                // An alarm counted from the end (Thunderbird's "5 minutes before the end"), when
                // none of that length counts from the start: typed the same way.
                if item.alarms.count == before, case .relative(let offset, .start) = gone.trigger {
                    item.alarms.removeAll { $0.trigger == .relative(offset: offset, relatedTo: .end) }
                }
            }
            guard item.alarms.count < before else {
                let messages = CLIContext.messages
                let listed = (item.alarms.map { Self.removable($0, of: item, messages: messages) } + keptActions.map { $0.lowercased() })
                    .joined(separator: "; ")
                throw listed.isEmpty
                    ? InputError(translatable: "--remove-alarm: \"{text}\" is not one of the alarms (there are none)", ["text": text])
                    : InputError(translatable: "--remove-alarm: \"{text}\" is not one of the alarms ({list})", ["text": text, "list": listed])
            }
        }
        if let sound {
            // A reminder that fires at its due time by default gets that alarm written out to carry the sound.
            if item.alarms.isEmpty, let reminder = item as? Reminder, reminder.dueDate != nil { item.alarms = [.relative(0)] }
            guard !item.alarms.isEmpty else {
                throw InputError(translatable: "--sound: there is no alarm to play it with; add one with --alarm (or --at)")
            }
            for index in item.alarms.indices {
                item.alarms[index].icsExtras.removeAll { line in
                    let upper = line.uppercased()
                    return upper.hasPrefix("ACTION:") || upper.hasPrefix("ACTION;") || upper.hasPrefix(AlarmSounds.property)
                }
                item.alarms[index].icsExtras += AlarmSounds.lines(asking: sound)
            }
        }
        if noAlarm {
            item.alarms = []
            // Every alarm: the e-mail ones kept as they came too (Chime sends none, but an
            // export would hand them back to the client that does).
            item.icsExtras = ICalendarText.removingComponents(named: "VALARM", from: item.icsExtras)
            if item is Reminder, !item.icsExtras.contains(AlarmDefaults.noAlarmMarker) { item.icsExtras.append(AlarmDefaults.noAlarmMarker) }
        } else if !item.alarms.isEmpty {
            item.icsExtras.removeAll { $0 == AlarmDefaults.noAlarmMarker }
        }
    }
}
