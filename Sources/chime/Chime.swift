import ArgumentParser
import ChimeCore
import CLinuxShim
import ChimeFormat
import ChimeStore
import Foundation

/// The process entry point: Chime's own executors first (see ``ChimeExecutors``), then the
/// command on the main actor, while the main thread runs the main executor.
@main
enum ChimeEntry {
    static func main() {
        // Before any store is opened: SQLite takes it only before its first use.
        _ = chime_sqlite_without_memory_statistics()
        ChimeExecutors.install()
        Task { @MainActor in
            await Chime.main()
            Foundation.exit(0)
        }
        ChimeExecutors.runMainThread()
    }
}

struct Chime: AsyncParsableCommand {
    /// Runs the command, folds what it wrote into the store file, then warns about stored items its
    /// queries had to skip (after the output, on stderr, so pipes and `--json` stay clean).
    static func main() async {
        var command: ParsableCommand
        if let unknown = CommandSuggestion.unknownSubcommand(
            in: Array(CommandLine.arguments.dropFirst()), root: Chime.self, messages: CLIContext.messages)
        {
            FileHandle.standardError.write(Data((CLIContext.messages("Error: {message}", ["message": unknown]) + "\n").utf8))
            Foundation.exit(64)
        }
        do { command = try parseAsRoot() } catch { exitSaying(error) }
        // A command lives for milliseconds: its heap (on the worker thread, in a malloc arena
        // of its own) grows by 16 MB at a time, not the default 128 KB, whose thousands of
        // `mprotect` calls and faults were a tenth of a week's agenda on a 100,000-event store.
        // Untouched room costs no memory. The daemon keeps the default: it lives for days and
        // gives its start-up heap back.
        if !(command is DaemonCommand) { mallopt(M_TOP_PAD, 16 << 20) }
        do {
            if var asyncCommand = command as? AsyncParsableCommand { try await asyncCommand.run() } else { try command.run() }
        } catch let error as InputError where error.message != nil {
            // In the user's language; otherwise as ArgumentParser prints an error (status 1).
            StoreOptions.finish()
            FileHandle.standardError.write(Data((CLIContext.messages("Error: {message}", ["message": error.text(in: CLIContext.messages)]) + "\n").utf8))
            Foundation.exit(EXIT_FAILURE)
        } catch {
            StoreOptions.finish()
            exitSaying(error)
        }
        StoreOptions.finish()
    }

    /// Exits as ArgumentParser does for `error` (its message, usage and status), with the "Error:"
    /// label in the user's language; help and version output are left to the parser.
    static func exitSaying(_ error: any Error) -> Never {
        let code = exitCode(for: error)
        let message = fullMessage(for: error)
        guard code != .success, message.hasPrefix("Error: ") else { exit(withError: error) }
        var lines = message.dropFirst("Error: ".count).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if let first = lines.first { lines[0] = parserMessage(first, messages: CLIContext.messages) ?? first }
        for i in lines.indices.dropFirst() { lines[i] = parserHelpLine(lines[i], messages: CLIContext.messages) }
        let translated = CLIContext.messages("Error: {message}", ["message": lines.joined(separator: "\n")])
        FileHandle.standardError.write(Data((translated + (translated.hasSuffix("\n") ? "" : "\n")).utf8))
        Foundation.exit(code.rawValue)
    }

    /// The lines ArgumentParser puts under its error, `Usage: …` and `See '… --help' for more
    /// information.`, with their words in the user's language (the usage itself stays as typed).
    static func parserHelpLine(_ line: String, messages: Messages) -> String {
        if line.hasPrefix("Usage: ") { return messages("Usage:", context: "parser") + line.dropFirst("Usage:".count) }
        guard let regex = try? Regex("(\\s*)See '(.*)' for more information\\."), let match = line.wholeMatch(of: regex),
            let indent = match.output[1].substring, let help = match.output[2].substring
        else { return line }
        return String(indent) + messages("See '{help}' for more information.", context: "parser", ["help": String(help)])
    }

    /// ArgumentParser's own first line for the mistakes people make most (an unknown option, a
    /// missing value), in the user's language; nil for any other, which stays as the parser says it.
    static func parserMessage(_ line: String, messages: Messages) -> String? {
        func quoted(_ pattern: String) -> [String]? {
            guard let regex = try? Regex(pattern), let match = line.wholeMatch(of: regex) else { return nil }
            return match.output.dropFirst().compactMap { $0.substring.map(String.init) }
        }
        if let v = quoted("Unknown option '(.*)'\\. Did you mean '(.*)'\\?") {
            return messages("Unknown option '{option}'. Did you mean '{suggestion}'?", ["option": v[0], "suggestion": v[1]])
        }
        if let v = quoted("Unknown option '(.*)'") { return messages("Unknown option '{option}'", ["option": v[0]]) }
        if let v = quoted("Unexpected argument '(.*)'") { return messages("Unexpected argument '{argument}'", ["argument": v[0]]) }
        if let v = quoted("Missing expected argument '(.*)'") { return messages("Missing expected argument '{argument}'", ["argument": v[0]]) }
        if let v = quoted("Missing value for '(.*)'") { return messages("Missing value for '{option}'", ["option": v[0]]) }
        if let v = quoted("The value '(.*)' is invalid for '(.*)'\\. Please provide one of (.*)\\.") {
            return messages("The value '{value}' is invalid for '{option}'. Please provide one of {choices}.", ["value": v[0], "option": v[1], "choices": v[2]])
        }
        if let v = quoted("The value '(.*)' is invalid for '(.*)'") {
            return messages("The value '{value}' is invalid for '{option}'", ["value": v[0], "option": v[1]])
        }
        return nil
    }

    static let configuration = CommandConfiguration(
        commandName: "chime",
        abstract: "Alarms and reminders for the Linux desktop.",
        discussion: """
            Chime keeps events and reminders in one SQLite file, computes their occurrences \
            from RFC 5545 recurrence rules and fires their alarms: at a time, or when you \
            arrive at or leave a place (positions from GeoClue2). `chime` alone shows today.
              chime add event "Stand-up" --start "mon 9:00" --duration 15m \\
                --repeat weekdays --alarm 5m
              chime add reminder "Call the dentist" --due "tomorrow 10am"
              chime add reminder "Buy milk" --at "Grocery store@52.5250,13.4020"
              chime agenda week
              chime reminders
              chime alarms --hours 48
              chime geofence simulate --track Examples/commute.gpx
              chime daemon
            The store is $CHIME_STORE or $XDG_DATA_HOME/chime/chime.sqlite; --store \
            overrides it. Run 'chime help <command>' for each command.
            """,
        version: Chime.version,
        subcommands: [
            OverviewCommand.self, AgendaCommand.self, AlarmsCommand.self, RemindersCommand.self, AddCommand.self, ShowCommand.self, FindCommand.self,
            EditCommand.self, RemoveCommand.self,
            CompleteCommand.self, UncompleteCommand.self, DismissCommand.self, SnoozeCommand.self, CalendarCommand.self, AccountCommand.self,
            ImportCommand.self,
            ExportCommand.self, ExpandCommand.self, GeofenceCommand.self, WhereCommand.self, DaemonCommand.self,
            AccessCommand.self, DoctorCommand.self, VersionCommand.self
        ],
        defaultSubcommand: OverviewCommand.self
    )

    /// The one version string: `chime --version`, `chime version` and the man page print it.
    static let version = "0.1.0"
}
