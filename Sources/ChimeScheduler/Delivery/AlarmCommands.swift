import ChimeCore

/// The commands an alarm may run: the user's `[commands]` table in `config.toml`, which is the
/// allow-list. Each entry is a name and the argument vector to start (no shell: the program is an
/// absolute path and every argument reaches it as written).
///
/// An item names a command only through `chime add … --alarm-command NAME` (or `chime edit`),
/// which the store keeps beside the item, never in it: an imported or synced file cannot name
/// one, and `ACTION:PROCEDURE` VALARMs are kept verbatim and never run. When one of the item's
/// alarms fires, the scheduler asks ``decision(for:)``: a name the table does not list (removed
/// from the config since, or mistyped) is refused with a log line, and the notification is shown
/// either way.
///
/// ```swift
/// let allowed = AlarmCommands(commands: ["backup": ["/usr/bin/rsync", "-a", "/home/me/", "/mnt/backup/"]])
/// allowed.decision(for: "backup")   // .run(["/usr/bin/rsync", "-a", "/home/me/", "/mnt/backup/"])
/// allowed.decision(for: "rm")       // .refused("no command \"rm\" in [commands] of config.toml")
/// ```
public struct AlarmCommands: Hashable, Sendable {
    /// Name → argument vector; the first element is the program's absolute path.
    public var commands: [String: [String]]
    /// How long a command may run before it is stopped (SIGTERM, then SIGKILL 2 s later).
    public var timeoutSeconds: Int

    public init(commands: [String: [String]] = [:], timeoutSeconds: Int = 60) {
        self.commands = commands
        self.timeoutSeconds = timeoutSeconds
    }

    public enum Decision: Hashable, Sendable {
        /// Allowed: start this argument vector.
        case run([String])
        /// Not allowed: why, for the log.
        case refused(String)
    }

    /// Whether the command an item names may run, and with which argument vector.
    public func decision(for name: String) -> Decision {
        guard Self.isValidName(name) else { return .refused("\"\(name)\" is not a command name (letters, digits, - and _)") }
        guard let argv = commands[name] else {
            let known = commands.keys.sorted()
            return .refused(
                "no command \"\(name)\" in [commands] of config.toml"
                    + (known.isEmpty ? " (the table is empty)" : " (allowed: \(known.joined(separator: ", ")))"))
        }
        guard let program = argv.first, program.hasPrefix("/") else {
            return .refused("command \"\(name)\" does not start with an absolute program path")
        }
        return .run(argv)
    }

    /// Names are short words: they are typed on the command line and looked up in a TOML table.
    public static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 64
            && name.unicodeScalars.allSatisfy { ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) || $0 == "-" || $0 == "_" }
    }
}

/// One allowed command to start for a firing.
public struct CommandRequest: Hashable, Sendable {
    /// The name in `[commands]`, for the log.
    public var name: String
    public var argv: [String]
    /// Added to the daemon's environment: `CHIME_TITLE`, `CHIME_ITEM`, `CHIME_START`, `CHIME_FIRE_AT`, `CHIME_KIND`.
    public var environment: [String: String]
    public var timeoutSeconds: Int

    public init(name: String, argv: [String], environment: [String: String], timeoutSeconds: Int) {
        self.name = name
        self.argv = argv
        self.environment = environment
        self.timeoutSeconds = timeoutSeconds
    }

    /// The variables a command learns about the alarm that started it.
    ///
    /// ```swift
    /// CommandRequest.environment(for: firing)
    /// // ["CHIME_TITLE": "Backup", "CHIME_ITEM": "6F1C…", "CHIME_START": "2026-11-20T13:00:00Z", …]
    /// ```
    public static func environment(for firing: AlarmFiring) -> [String: String] {
        var env = [
            "CHIME_TITLE": firing.item.title, "CHIME_ITEM": firing.key.item,
            "CHIME_FIRE_AT": firing.fireAt.description, "CHIME_KIND": firing.item.kind.rawValue
        ]
        if let start = firing.occurrenceStart { env["CHIME_START"] = start.description }
        return env
    }
}

/// Why a command could not be started.
public struct CommandError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// Starts allowed commands (``SpawnedCommandRunner`` in ChimeDesktop; a recording double in tests).
/// `start` returns at once: the scheduler never waits for a command.
public protocol CommandRunner: Sendable {
    func start(_ request: CommandRequest) throws(CommandError)
}
