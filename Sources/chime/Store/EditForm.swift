import ChimeCore
import ChimeFormat
import ChimeStore
import Foundation
import Glibc

/// `chime edit ID` with no options: the item as a short form in `$VISUAL`/`$EDITOR`, read back
/// when the editor exits. A form that does not read is reopened with the error on top; a form
/// saved unchanged (or emptied) changes nothing.
struct EditForm {
    /// The form's fields in order: `title`, `start`/`end` or `due`, `repeat`, `alarms`, …, `notes` last.
    var fields: [(key: String, value: String)]

    /// The comment on top of the form, in the user's language (with examples that read in it).
    /// One literal, so the catalog check finds it; too long for a line, so the formatter leaves it.
    // swift-format-ignore
    static func header(_ messages: Messages = CLIContext.messages) -> String {
        messages("# Change the lines below, save and quit. Dates as `chime add` takes them (2026-12-01 09:30,\n# tomorrow 9am, fri 5pm); repeat as daily, weekdays, \"every 2 weeks on mon,thu\" or an RRULE;\n# alarms separated by commas: 15m (before), +10m (after), 0, or a date. Empty = none.\n# Notes may run over several lines. Quit without saving to change nothing.", context: "edit form")
    }

    init(fields: [(key: String, value: String)]) { self.fields = fields }

    /// The form for a new event or reminder (`chime add --edit`): every field empty.
    static func blank(event: Bool) -> EditForm {
        let keys =
            event
            ? ["title", "start", "end", "zone", "repeat", "alarms", "location", "url", "notes"]
            : ["title", "due", "zone", "priority", "repeat", "alarms", "location", "url", "notes"]
        return EditForm(fields: keys.map { ($0, "") })
    }

    /// The form with `value` for `key`.
    func with(_ key: String, _ value: String?) -> EditForm {
        guard let value else { return self }
        var copy = self
        if let i = copy.fields.firstIndex(where: { $0.key == key }) { copy.fields[i].value = value }
        return copy
    }

    /// Opens `original` in the editor until what is saved reads and `save` takes it; a form that
    /// does not is reopened with the error on top. Returns false, having called nothing, when
    /// the form comes back unchanged (or, with `emptyIsUnchanged`, with every value empty).
    static func session(_ original: EditForm, emptyIsUnchanged: Bool = false, save: (EditForm) throws -> Void) throws -> Bool {
        var text = original.text
        var lastError: String?
        while true {
            let saved = try edit(text)
            // Quit without a change after an error: give up rather than ask again.
            if saved == text && text.hasPrefix("# error: ") {
                throw InputError(
                    translatable: "{error}; nothing was saved", ["error": String(text.prefix { $0 != "\n" }.dropFirst("# error: ".count))])
            }
            defer { lastError = text.hasPrefix("# error: ") ? String(text.prefix { $0 != "\n" }) : nil }
            do {
                let form = try EditForm(parsing: saved)
                if form.fields.map(\.value) == original.fields.map(\.value) && form.fields.map(\.key) == original.fields.map(\.key) {
                    return false
                }
                if emptyIsUnchanged && form.fields.allSatisfy({ $0.value.isEmpty }) { return false }
                try save(form)
                return true
            } catch let error where error is InputError || error is CLIError || error is StoreError {
                // An editor run by a script (no terminal) that brings the same error back twice
                // would be reopened for ever.
                let reason = CLIContext.text(of: error)
                if isatty(STDIN_FILENO) == 0, lastError == "# error: \(reason)" {
                    throw InputError(translatable: "{error}; nothing was saved", ["error": reason])
                }
                // Back to the editor with what was typed and the reason on top (in the user's language).
                text =
                    "# error: \(reason)\n"
                    + saved.split(separator: "\n", omittingEmptySubsequences: false)
                    .filter { !$0.hasPrefix("# error: ") }.joined(separator: "\n")
            }
        }
    }

    /// The form for an item, on the display zone's clock.
    init(_ item: AnyCalendarItem, zone: ZoneRules) {
        func date(_ d: CalendarDate) -> String {
            switch d {
            case .allDay(let day): return "\(day)"
            case .floating(let l): return "\(l.date) \(DisplayText.hhmm(l))"
            case .utc, .zoned:
                let own = d.timeZone ?? .utc
                let l = own.localTime(at: d.instant(floatingZone: zone))
                return "\(l.date) \(DisplayText.hhmm(l))"
            }
        }
        let base = item.base
        fields = [("title", base.title)]
        switch item {
        case .event(let e):
            fields.append(("start", date(e.start)))
            fields.append(("end", date(e.end)))
            fields.append(("zone", e.start.timeZone?.identifier ?? (e.isAllDay ? "" : e.start.isFloating ? "floating" : "UTC")))
        case .reminder(let r):
            fields.append(("due", r.dueDate.map(date) ?? ""))
            fields.append(("zone", r.dueDate?.timeZone?.identifier ?? ""))
            fields.append(("priority", "\(r.priority)"))
        }
        fields.append(("repeat", base.recurrenceRules.map(Self.repeatText).joined(separator: " | ")))
        // Alarms kept as a file brought them (an e-mail one) are named by their kind: taking the
        // word out drops them, as `--remove-alarm email` does.
        let keptKinds = Alarm.keptActions(inItemExtras: base.icsExtras).reduce(into: [String]()) { kinds, action in
            if !kinds.contains(action.lowercased()) { kinds.append(action.lowercased()) }
        }
        fields.append(("alarms", (base.alarms.compactMap(Self.alarmText) + keptKinds).joined(separator: ", ")))
        fields.append(("location", base.location ?? ""))
        fields.append(("url", base.url ?? ""))
        fields.append(("notes", base.notes ?? ""))
    }

    /// A rule in the words `chime show` says it ("every 2 weeks on Monday and Thursday") when
    /// those words read back as the same rule, else its RRULE.
    static func repeatText(_ rule: RecurrenceRule) -> String {
        (try? RecurrenceRule(phrase: rule.summary)) == rule ? rule.summary : rule.rfc5545
    }

    /// An alarm as the form and `--remove-alarm` take it (`15m`, `+10m`, `0`, a date); nil for one
    /// the form does not show.
    static func alarmText(_ a: Alarm) -> String? {
        switch a.trigger {
        case .relative(let offset, .start): return offset == 0 ? "0" : (offset > 0 ? "+" : "") + String(DisplayText.offset(offset).dropFirst())
        case .absolute(let i): return i.description
        case .relative, .location: return nil  // kept as they are; the form does not show them
        }
    }

    var text: String {
        var lines = [Self.header()]
        let oneLine = fields.filter { $0.key != "notes" }
        if oneLine.contains(where: { $0.value.contains(where: { $0.isNewline || $0 == "\\" }) }) {
            lines.append(CLIContext.messages("# A line break inside a one-line field is written \\n, a backslash \\\\.", context: "edit form"))
        }
        if let alarms = value("alarms"), Self.keptKinds(in: alarms).contains("email") {
            lines.append(
                CLIContext.messages(
                    "# \"email\" among the alarms is one a file brought (Chime does not send it): take it out to drop it.",
                    context: "edit form"))
        }
        for (key, value) in oneLine { lines.append("\(key): \(Self.escapingLineBreaks(value))") }
        lines.append("notes: \(fields.first { $0.key == "notes" }?.value ?? "")")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Reads a saved form: `key: value` lines (comments and blank lines skipped), `notes:` to the end.
    init(parsing text: String) throws {
        fields = []
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)[...]
        while let line = lines.popFirst() {
            if line.hasPrefix("#") || line.trimmingCharacters(in: .whitespaces).isEmpty { continue }
            guard let colon = line.firstIndex(of: ":") else { throw InputError(translatable: "\"{line}\" is not `name: value`", ["line": line]) }
            let key = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            var value = String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
            if key != "notes" { value = Self.readingLineBreaks(value) }
            if key == "notes" {
                let rest = lines.joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
                if !rest.isEmpty { value += (value.isEmpty ? "" : "\n") + rest }
                lines = []
            }
            fields.append((key, value))
        }
    }

    func value(_ key: String) -> String? { fields.first { $0.key == key }?.value }

    /// A one-line field's value on its line: a line break (Apple writes a place's address under
    /// its name in LOCATION) as `\n`, a backslash as `\\`, so the value reads back the same.
    static func escapingLineBreaks(_ value: String) -> String {
        guard value.contains(where: { $0 == "\\" || $0.isNewline }) else { return value }
        var out = ""
        for c in value {
            switch c {
            case "\\": out += "\\\\"
            case "\n", "\r\n", "\r": out += "\\n"
            default: out.append(c)
            }
        }
        return out
    }

    /// The value a one-line field's line says: `\n` a line break, `\\` a backslash; any other
    /// backslash stays as it was typed (`C:\Rooms`).
    static func readingLineBreaks(_ line: String) -> String {
        guard line.contains("\\") else { return line }
        var out = "", pendingBackslash = false
        for c in line {
            if pendingBackslash {
                pendingBackslash = false
                switch c {
                case "n": out.append("\n")
                case "\\": out.append("\\")
                default: out += "\\" + String(c)
                }
            } else if c == "\\" {
                pendingBackslash = true
            } else {
                out.append(c)
            }
        }
        if pendingBackslash { out.append("\\") }
        return out
    }

    /// The kinds of kept alarm (lowercased: `email`) an alarms line names.
    private static func keptKinds(in alarms: String) -> [String] {
        alarms.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter {
            ItemOptions.keptAlarmKinds.contains($0.uppercased())
        }
    }

    /// Applies the form to an event: every field is set as the form says.
    func apply(to e: inout Event, original: EditForm) throws {
        try check(known: ["title", "start", "end", "zone", "repeat", "alarms", "location", "url", "notes"])
        try applyCommon(to: &e, original: original)
        let tz = value("zone").flatMap { $0.isEmpty ? nil : $0 }
        if value("start") != original.value("start") || value("end") != original.value("end") || value("zone") != original.value("zone") {
            guard let start = value("start"), !start.isEmpty else { throw InputError(translatable: "start: an event needs a start") }
            let newStart = try CLIContext.calendarDate(start, option: "start", tz: tz)
            if let end = value("end"), !end.isEmpty, end != original.value("end") {
                e.start = newStart
                if e.start.isAllDay {
                    // The form shows an all-day end as stored: the day after the last.
                    e.end = .allDay(try CLIContext.calendarDate(end, option: "end", tz: tz).local.date)
                } else {
                    e.end = try EventEnd.read(end, start: e.start, option: "end", tz: tz, context: CLIContext.command)
                }
            } else {
                // The end line as it was: the event keeps its length, as `edit --start` does.
                EventEnd.move(&e, to: newStart, zone: CLIContext.zone)
            }
        }
    }

    /// Applies the form to a reminder.
    func apply(to r: inout Reminder, original: EditForm) throws {
        try check(known: ["title", "due", "zone", "priority", "repeat", "alarms", "location", "url", "notes"])
        try applyCommon(to: &r, original: original)
        if value("due") != original.value("due") || value("zone") != original.value("zone") {
            let due = value("due") ?? ""
            r.dueDate = due.isEmpty ? nil : try CLIContext.calendarDate(due, option: "due", tz: value("zone").flatMap { $0.isEmpty ? "floating" : $0 })
        }
        if let text = value("priority"), text != original.value("priority") {
            guard let p = Int(text), (0...9).contains(p) else { throw InputError(translatable: "priority: \"{text}\" is not 0…9", ["text": text]) }
            r.priority = p
        }
    }

    private func check(known: Set<String>) throws {
        for (key, _) in fields where !known.contains(key) {
            throw InputError(
                translatable: "{field}: not a field here (the fields are {fields})", ["field": key, "fields": known.sorted().joined(separator: ", ")])
        }
        guard let title = value("title"), !title.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw InputError(translatable: "title: an item needs a title")
        }
    }

    private func applyCommon(to item: inout some CalendarItem, original: EditForm) throws {
        item.title = value("title") ?? item.title
        item.location = value("location").flatMap { $0.isEmpty ? nil : $0 }
        item.url = value("url").flatMap { $0.isEmpty ? nil : $0 }
        item.notes = value("notes").flatMap { $0.isEmpty ? nil : $0 }
        if value("repeat") != original.value("repeat") {
            let text = value("repeat") ?? ""
            item.recurrenceRules = try text.split(separator: "|").map { part in
                try ItemOptions.rule(part.trimmingCharacters(in: .whitespaces), option: "repeat")
            }
        }
        if value("alarms") != original.value("alarms") {
            let kept = item.alarms.filter { Self.alarmText($0) == nil }
            let tokens = (value("alarms") ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            // The kinds of kept alarm the item holds: a word left in keeps them, one taken out drops them.
            let kinds = Set(Alarm.keptActions(inItemExtras: item.icsExtras))
            let absentKind = { (token: String) in
                let kind = ItemOptions.keptAlarmKind(token)
                return ItemOptions.keptAlarmKinds.contains(kind) && !kinds.contains(kind)
            }
            if let asked = tokens.first(where: absentKind) {
                throw ItemOptions.notMadeHere(asked, option: "alarms")
            }
            let typed = try tokens.filter { !kinds.contains(ItemOptions.keptAlarmKind($0)) }.map { try ItemOptions.alarm($0, option: "alarms") }
            for kind in kinds where !tokens.contains(where: { ItemOptions.keptAlarmKind($0) == kind }) {
                item.icsExtras = Alarm.removingKept(action: kind, fromItemExtras: item.icsExtras)
            }
            item.alarms = typed + kept
        }
    }

    /// Opens `text` in the user's editor and returns what was saved.
    static func edit(_ text: String) throws -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("chime-edit-\(UUID().uuidString).txt").path
        guard FileManager.default.createFile(atPath: file, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]) else {
            throw InputError(translatable: "cannot write the form to {file}", ["file": file])
        }
        defer { try? FileManager.default.removeItem(atPath: file) }
        let env = ProcessInfo.processInfo.environment
        let editor = [env["VISUAL"], env["EDITOR"]].compactMap { $0 }.first { !$0.isEmpty } ?? "vi"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        // The editor command may carry arguments (`code --wait`), as git runs $EDITOR.
        process.arguments = ["-c", "\(editor) \"$1\"", "editor", file]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw InputError(
                translatable: "the editor ({editor}) exited with status {status}; nothing was saved",
                ["editor": editor, "status": "\(process.terminationStatus)"])
        }
        guard let saved = FileManager.default.contents(atPath: file) else {
            throw InputError(translatable: "cannot read the form back from {file}", ["file": file])
        }
        return String(decoding: saved, as: UTF8.self)
    }
}
