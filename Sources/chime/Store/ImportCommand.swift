import ArgumentParser
import ChimeCore
import ChimeFormat
import ChimeICS
import ChimeStore
import Foundation

struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import events, to-dos and their alarms from an iCalendar (.ics) file.",
        discussion: """
            One transaction: everything is stored, or nothing. An item whose UID is already in \
            the store is updated when the file has a higher SEQUENCE (or the same SEQUENCE and a \
            newer LAST-MODIFIED), and left alone otherwise; it is never duplicated. An update \
            imported without --calendar stays in the calendar that holds it. A file cannot say \
            that an item was deleted: between two machines, deletions travel by CalDAV sync \
            (`chime account add`), not by export and import. RECURRENCE-ID components become detached occurrences (RANGE=THISANDFUTURE splits the \
            series), STATUS:CANCELLED ones exception dates. Apple's location alarms \
            (X-APPLE-STRUCTURED-LOCATION) and RFC 9074 PROXIMITY become geofence alarms. \
            Properties Chime does not model are kept and written back by `chime export`.

            Files are read the way the best clients read real files: what a producer got wrong \
            is repaired and said, one line each on stderr, naming file, line and property, e.g. \
            `warning: work.ics:1043: RRULE: "FREQ=WEEKLY; BYDAY=MO, TU": removed spaces`. A fault \
            in a property never drops its event; an event that cannot be read at all (no \
            DTSTART) is skipped alone; only a file with no calendar in it is refused. With \
            --strict any fault refuses the whole file and nothing is stored (for validating).

            Examples:
              chime import work.ics --new-calendar Work
              chime import holidays.ics --new-calendar     # named by X-WR-CALNAME
              chime import family.ics --calendar Family --dry-run
              chime import exported.ics --strict --dry-run      # is this file clean?
            """)

    @OptionGroup var options: StoreOptions

    // Optional to the parser only: `--new-calendar work.ics` takes the file as the name (see
    // `file`), and a missing file gets a message that shows how to give one.
    @Argument(help: ArgumentHelp("The .ics file (- for standard input).", valueName: "file"))
    var fileArgument: String?

    @Option(
        help: ArgumentHelp("Import into this existing calendar (events; to-dos go to the list of the same name, else the default list).", valueName: "name"))
    var calendar: String?

    // `--new-calendar` alone (nothing after it, or another option next) is the empty name: the
    // file's X-WR-CALNAME, else the file's name. `.next`, so a following file name is not read ahead.
    @Option(
        name: .customLong("new-calendar"), defaultAsFlag: "", parsing: .next,
        help: ArgumentHelp(
            "Create a calendar (and reminder list) with this name and import into it; without a name, the file's own (X-WR-CALNAME), else the file's name.",
            valueName: "name"))
    var newCalendar: String? = nil

    @Flag(name: .customLong("dry-run"), help: "Report what would be imported; store nothing.")
    var dryRun = false

    @Flag(help: "Refuse the file at its first fault instead of repairing it.")
    var strict = false

    // Repairing is the default now; the old flag is accepted so scripts keep working.
    @Flag(help: .hidden)
    var lenient = false

    /// The file to read: the argument, or what `--new-calendar` took when it was followed by
    /// the file alone (`chime import --new-calendar work.ics`).
    var file: String { fileArgument ?? newCalendar ?? "-" }

    /// The new calendar's name ("" = named by the file), unless it was the file.
    /// A word as typed in a suggested command: quoted when a shell would split or read it.
    static func typed(_ word: String) -> String {
        let plain = !word.isEmpty && word.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || "0123456789./_-".unicodeScalars.contains($0) }
        return plain
            ? word
            : "\""
                + word.reduce(into: "") { out, c in
                    if "\\\"$`".contains(c) { out.append("\\") }
                    out.append(c)
                } + "\""
    }

    /// The name `--new-calendar` gives, trimmed (`" Work"` is "Work"); "" for the file's own.
    var newCalendarName: String? { fileTakenAsName ? "" : newCalendar?.trimmingCharacters(in: .whitespacesAndNewlines) }

    private var fileTakenAsName: Bool {
        guard fileArgument == nil, let taken = newCalendar else { return false }
        var isFolder: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: taken, isDirectory: &isFolder) && !isFolder.boolValue
        return exists || [".ics", ".ical", ".ifb"].contains { taken.lowercased().hasSuffix($0) }
    }

    func validate() throws {
        if fileArgument == nil && !fileTakenAsName {
            throw ArgumentParser.ValidationError(
                CLIContext.messages("which file? Give the .ics file to import (- for standard input), e.g. `{example}`", ["example": "chime import work.ics"]))
        }
        if let name = newCalendar, !name.isEmpty, name.allSatisfy(\.isWhitespace) {
            throw ArgumentParser.ValidationError(
                CLIContext.messages("--new-calendar: the name is blank; give one, or none for the file's own"))
        }
        if calendar != nil && newCalendar != nil {
            throw ArgumentParser.ValidationError(
                CLIContext.messages("use either {first} or {second}, not both", ["first": "--calendar", "second": "--new-calendar"]))
        }
        if strict && lenient {
            throw ArgumentParser.ValidationError(
                CLIContext.messages("use either {first} or {second}, not both ({second} is the default)", ["first": "--strict", "second": "--lenient"]))
        }
    }

    func run() throws {
        let name = file == "-" ? "<stdin>" : file
        var isFolder: ObjCBool = false
        guard let handle = file == "-" ? FileHandle.standardInput : FileHandle(forReadingAtPath: file),
            file == "-" || !(FileManager.default.fileExists(atPath: file, isDirectory: &isFolder) && isFolder.boolValue)
        else {
            // Why, as the system says it (no such file, permission denied, is a directory).
            let probe = Glibc.open(file, O_RDONLY)
            let reason = String(cString: strerror(probe < 0 ? errno : EISDIR))
            if probe >= 0 { close(probe) }
            throw InputError(translatable: "{file}: cannot read the file ({reason}); nothing was imported", ["file": file, "reason": reason])
        }
        let target: ImportTarget =
            newCalendarName.map { $0.isEmpty ? .newNamedByFile(fallback: Self.fallbackName(file)) : .new($0) }
            ?? calendar.map { .existing($0) } ?? .defaults
        let report: ImportReport
        // Read a chunk at a time: the file's bytes are never held whole beside what is made of them.
        var size = 0
        var readFailure: String?
        do {
            var reading: FileHandle? = handle
            func chunks() throws -> () throws(ICSError) -> [UInt8]? {
                // A second read (the file needs the whole-file read) starts it again.
                if reading == nil {
                    reading = FileHandle(forReadingAtPath: file)
                    if reading == nil {
                        readFailure = String(cString: strerror(errno))
                        throw ICSError(file: file, line: 0, "cannot read the file")
                    }
                }
                let current = reading
                reading = nil
                size = 0
                return { () throws(ICSError) -> [UInt8]? in
                    do {
                        guard let data = try current?.read(upToCount: 1 << 16), !data.isEmpty else { return nil }
                        size += data.count
                        return Array(data)
                    } catch {
                        // Stops the import, which stores nothing (said below, as a read failure).
                        readFailure = "\(error)"
                        throw ICSError(file: file, line: 0, "cannot read the file")
                    }
                }
            }
            let shownName = (name as NSString).lastPathComponent
            // Progress only where someone watches, and only when it takes a moment.
            let progress: (ImportProgress) -> Void = { phase in
                guard isatty(STDERR_FILENO) == 1 && size > 1_000_000 else { return }
                FileHandle.standardError.write(Data((Self.progressLine(phase, file: shownName) + "…\n").utf8))
            }
            // Stored as it is read, unless: standard input (it cannot be read twice), --strict (it
            // refuses at the file's first fault, which only the whole file says), or a new store
            // for a file whose start holds no item (it may hold none: a refused file makes no store).
            let existing = FileManager.default.fileExists(atPath: StoreOptions.resolvedPath(options.store).path) ? try options.open() : nil
            if let calendar,
                try existing.map({ try $0.calendar(matching: calendar, for: .event) == nil && $0.calendar(matching: calendar, for: .reminder) == nil }) ?? true
            {
                if let existing, let short = try CalendarChoice.shortIDPrefix(calendar, in: existing, option: "--calendar") { throw short }
                throw InputError(translatable: "--calendar: no calendar or list \"{name}\" (see `chime calendar list`)", ["name": calendar])
            }
            // A dry run makes no store: where there is none yet, it imports into one of its own,
            // removed afterwards.
            var scratch: String?
            defer { if let scratch { try? FileManager.default.removeItem(atPath: scratch) } }
            func store() throws -> EventStore {
                if let existing { return existing }
                guard dryRun else { return try options.open(creating: true) }
                let folder = NSTemporaryDirectory() + "chime-dry-run-" + UUID().uuidString
                scratch = folder
                return try StoreOptions.open(folder + "/chime.sqlite", creating: true, keep: false)
            }
            if file == "-" || strict || (existing == nil && !Self.startHoldsAnItem(name)) {
                let parsed = try ICalendar.parse(file: shownName, strict: strict, chunks: try chunks())
                try Self.checkRead(readFailure, file: file)
                // Every component was unreadable: say so and fail before a store is made for nothing.
                if parsed.items.isEmpty && parsed.overrides.isEmpty && !parsed.skipped.isEmpty {
                    Self.warn(parsed.repairs + parsed.skipped)
                    throw Self.nothingImported(file: name)
                }
                if existing == nil && parsed.items.isEmpty && parsed.overrides.isEmpty {
                    // A calendar with nothing in it: nothing to store, so no store is made for it.
                    var empty = ImportReport()
                    empty.repairs = parsed.repairs
                    report = empty
                } else {
                    report = try store().importICS(
                        parsed: consume parsed, file: shownName, into: target, dryRun: dryRun, strict: strict, progress: progress)
                }
            } else {
                // Each item is stored as it is read, in the one transaction.
                report = try store().importICS(file: shownName, into: target, dryRun: dryRun, strict: strict, progress: progress, open: chunks)
                try Self.checkRead(readFailure, file: file)
            }
        } catch let error as ICSError {
            try Self.checkRead(readFailure, file: file)
            // The message quotes the file: one line without the terminal controls it may hold.
            let messages = CLIContext.messages
            // Read strictly, a file that is no calendar at all stops at its first odd line: say what
            // a lenient read says of it (its first 64 KB tell).
            if strict, let notCalendar = Self.notICalendar(name, file: (name as NSString).lastPathComponent) {
                throw InputError(translatable: "{error} (nothing was imported)", ["error": DisplayText.singleLine(notCalendar.text(in: messages))])
            }
            // A repair's text says it as done; under --strict it was not.
            if error.isRefusedRepair {
                throw InputError(
                    translatable: "{place}needs a repair that --strict does not make (without --strict: {repair}); nothing was imported",
                    ["place": DisplayText.singleLine(error.place), "repair": DisplayText.singleLine(messages(error.messageText))])
            }
            throw InputError(translatable: "{error} (nothing was imported)", ["error": DisplayText.singleLine(error.text(in: messages))])
        } catch StoreError.calendarExists(let title, let kind) {
            let exists =
                kind == .event
                ? CLIContext.messages("a calendar named \"{title}\" already exists", ["title": title])
                : CLIContext.messages("a list named \"{title}\" already exists", ["title": title])
            throw InputError(
                translatable: "{error}; to import into it: `{command}` (nothing was imported)",
                ["error": exists, "command": "chime import \(Self.typed(file)) --calendar \(Self.typed(title))"])
        } catch StoreError.unknownCalendar(let name) {
            // The name passed the check above as a list: the file's events need a calendar.
            throw InputError(
                translatable: "--calendar: \"{name}\" is a list of to-dos; the file's events need a calendar (see `chime calendar list`)", ["name": name])
        } catch let error as StoreError {
            throw CLIError.store(error, note: "nothing was imported")
        }
        Self.warn(report.repairs + report.skipped)
        // Some skipped and nothing else read (a value the store cannot hold, say): a failure, not "0 new".
        let read = report.eventsAdded + report.eventsUpdated + report.remindersAdded + report.remindersUpdated
        if read + report.unchanged + report.older + report.overrides + report.cancelledOccurrences == 0 && !report.skipped.isEmpty {
            if options.json { print(Self.json(report, dryRun: dryRun)) }
            throw Self.nothingImported(file: name)
        }
        print(options.json ? Self.json(report, dryRun: dryRun) : Self.text(report, dryRun: dryRun))
    }

    /// Refuses an import whose file could not be read to its end.
    static func checkRead(_ failure: String?, file: String) throws {
        if let failure {
            throw InputError(translatable: "{file}: cannot read the file ({reason}); nothing was imported", ["file": file, "reason": failure])
        }
    }

    /// The repairs and skips, one `warning:` line each on stderr.
    static func warn(_ problems: [ICSError]) { warn(problems.map(\.located)) }

    /// Warnings in the user's language, one line each on stderr, without the terminal controls
    /// the file's text may hold.
    static func warn(_ texts: [MessageText]) {
        var warnings = ""
        let messages = CLIContext.messages
        for text in texts { warnings += messages("warning: {problem}", ["problem": DisplayText.singleLine(messages(text))]) + "\n" }
        FileHandle.standardError.write(Data(warnings.utf8))
    }

    /// Why a lenient read refuses the file at `path` as no iCalendar file, from its first 64 KB; nil
    /// when it reads them (as a calendar, repaired or not).
    static func notICalendar(_ path: String, file: String) -> ICSError? {
        guard let bytes = head(path), case .failure(let error) = readStart(bytes, file: file) else { return nil }
        return error
    }

    /// Whether the first 64 KB of the file at `path` read as a calendar with an item in them.
    static func startHoldsAnItem(_ path: String) -> Bool {
        guard let bytes = head(path) else { return false }
        // Most files hold an item in their first kilobytes: they are read a piece at a time up to
        // the first (reading all 64 KB was 7 ms before an import could start). A start without
        // one (only changed occurrences, say, or a file read whole) is read whole as before. A
        // fault after the first item (a file refused for nesting too deep) is then the import's
        // to say, as for one beyond the first 64 KB: the new store stays, empty.
        struct Found: Error {}
        var offset = 0
        do {
            _ = try ICalendar.stream(
                file: path,
                chunks: { () throws(ICSError) -> [UInt8]? in
                    guard offset < bytes.count else { return nil }
                    defer { offset += 4_096 }
                    return Array(bytes[offset..<min(offset + 4_096, bytes.count)])
                },
                each: { _, _ in throw Found() })
        } catch is Found {
            return true
        } catch {}
        guard case .success(let read) = readStart(bytes, file: path) else { return false }
        return !read.items.isEmpty || !read.overrides.isEmpty
    }

    /// The first 64 KB of the file at `path`; nil when they cannot be read.
    private static func head(_ path: String) -> [UInt8]? {
        guard let handle = FileHandle(forReadingAtPath: path), let head = try? handle.read(upToCount: 1 << 16) else { return nil }
        return Array(head)
    }

    /// A file's start (``head(_:)``), read leniently.
    private static func readStart(_ bytes: [UInt8], file: String) -> Result<ICSParseResult, ICSError> {
        Result { () throws(ICSError) in try ICalendar.parse(bytes, file: file) }
    }

    /// Refuses an import that read nothing: each component was skipped (the warnings say why).
    static func nothingImported(file: String) -> InputError {
        InputError(translatable: "{file}: nothing could be imported (see the warnings above)", ["file": file])
    }

    /// A large import's progress line, in the user's language: `big.ics: read 12000 items and 3 overrides`.
    static func progressLine(_ phase: ImportProgress, file: String, messages: Messages = CLIContext.messages) -> String {
        switch phase {
        case .read(let items, let overrides):
            return messages(
                "{file}: read {items} and {overrides}",
                [
                    "file": file, "items": messages.plural("{count} item", "{count} items", count: items),
                    "overrides": messages.plural("{count} override", "{count} overrides", count: overrides)
                ])
        case .storing(let items):
            return messages(
                "{file}: storing {items} in one transaction", ["file": file, "items": messages.plural("{count} item", "{count} items", count: items)])
        }
    }

    /// The new calendar's name when neither the user nor the file gives one: the file's name
    /// without its extension ("Imported" for standard input).
    static func fallbackName(_ file: String) -> String {
        guard file != "-" else { return "Imported" }
        let base = ((file as NSString).lastPathComponent as NSString).deletingPathExtension
        return base.allSatisfy(\.isWhitespace) ? "Imported" : base
    }

    /// The summary in the user's language: a label column as wide as its widest label (in
    /// terminal columns), then what was found for it.
    static func text(_ r: ImportReport, dryRun: Bool, messages: Messages = CLIContext.messages) -> String {
        // An empty calendar (a feed with nothing in it yet): the note alone, not a table of zeros.
        if r.fileHeldNothing && r.repairs.isEmpty { return messages("The file holds no events or to-dos: there was nothing to import.") }
        let rows: [(label: String, value: String)] = [
            (
                messages("events", context: "import summary"),
                messages("{new} new, {updated} updated", ["new": "\(r.eventsAdded)", "updated": "\(r.eventsUpdated)"])
            ),
            (
                messages("to-dos", context: "import summary"),
                messages("{new} new, {updated} updated", ["new": "\(r.remindersAdded)", "updated": "\(r.remindersUpdated)"])
            ),
            (
                messages("overrides", context: "import summary"),
                messages(
                    "{changed}, {cancelled} cancelled",
                    [
                        "changed": messages.plural("{count} changed occurrence", "{count} changed occurrences", count: r.overrides),
                        "cancelled": "\(r.cancelledOccurrences)"
                    ])
            ),
            (
                messages("alarms", context: "import summary"),
                messages("{timed} timed, {location} location", ["timed": "\(r.alarms)", "location": "\(r.locationAlarms)"])
            ),
            (
                messages("unchanged", context: "import summary"),
                messages("{same} (same SEQUENCE), {older} older than the stored copy", ["same": "\(r.unchanged)", "older": "\(r.older)"])
            ),
            (
                messages("repaired", context: "import summary"),
                // Pointing to warnings only when there are some.
                r.repairs.isEmpty
                    ? "0" : messages.plural("{count} fault (see the warnings above)", "{count} faults (see the warnings above)", count: r.repairs.count)
            ),
            (messages("skipped", context: "import summary"), "\(r.skipped.count)")
        ]
        let width = (rows.map { DisplayText.columns($0.label) }.max() ?? 0) + 2
        // Where the items went, when any did: the calendar a user named, or the defaults they may not know.
        let calendars = r.calendars.map { messages("\"{name}\"", context: "import summary", ["name": DisplayText.singleLine($0)]) }
            .joined(separator: ", ")
        let heading =
            calendars.isEmpty
            ? (dryRun ? messages("Dry run: nothing was stored. Would import:") : messages("Imported:"))
            : dryRun
                ? messages("Dry run: nothing was stored. Would import into {calendars}:", ["calendars": calendars])
                : messages("Imported into {calendars}:", ["calendars": calendars])
        var lines = [heading]
        for row in rows { lines.append("  " + row.label.padding(toLength: width) + row.value) }
        if r.fileHeldNothing {
            lines.append(messages("The file holds no events or to-dos: there was nothing to import."))
        }
        if let name = r.newCalendarNotKept {
            let quoted = messages("\"{name}\"", context: "import summary", ["name": DisplayText.singleLine(name)])
            lines.append(
                dryRun
                    ? messages("The new calendar {name} would not be made: every item of the file is already in another calendar.", ["name": quoted])
                    : messages("The new calendar {name} was not kept: every item of the file is already in another calendar.", ["name": quoted]))
        }
        return lines.joined(separator: "\n")
    }

    static func json(_ r: ImportReport, dryRun: Bool) -> String {
        JSONText.document([
            ("dry_run", dryRun ? "true" : "false"),
            ("calendars", JSONText.stringArray(r.calendars)),
            ("new_calendar_not_kept", r.newCalendarNotKept.map(JSONText.string) ?? "null"),
            ("events_added", "\(r.eventsAdded)"), ("events_updated", "\(r.eventsUpdated)"),
            ("todos_added", "\(r.remindersAdded)"), ("todos_updated", "\(r.remindersUpdated)"),
            ("overrides", "\(r.overrides)"), ("cancelled_occurrences", "\(r.cancelledOccurrences)"),
            ("alarms", "\(r.alarms)"), ("location_alarms", "\(r.locationAlarms)"),
            ("unchanged", "\(r.unchanged)"), ("older", "\(r.older)"),
            ("repaired", "\(r.repairs.count)"),
            ("repairs", JSONText.array(r.repairs.map { JSONText.string($0.description) })),
            ("skipped", JSONText.array(r.skipped.map { JSONText.string($0.description) }))
        ])
    }
}
