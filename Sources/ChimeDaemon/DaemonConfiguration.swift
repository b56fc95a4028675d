import ChimeCore
import ChimeScheduler
import Foundation
import Logging
import TOMLKit

/// The daemon's settings from `config.toml`. Every key is optional; `Config/config.toml`
/// documents each with its default.
///
/// ```swift
/// let config = try DaemonConfiguration.parse("""
///     [alarms]
///     snooze = ["5m", "tomorrow 9:00"]
///     """, file: "config.toml")
/// config.scheduler.snoozeChoices.map(\.label)   // ["Snooze 5 min", "Snooze until tomorrow 9:00"]
/// ```
public struct DaemonConfiguration: Hashable, Sendable {
    /// Where notifications go.
    public enum Notifier: String, Hashable, Sendable, CaseIterable {
        /// libnotify when a notification server answers, standard output otherwise.
        case auto
        case libnotify
        case stdout
    }

    public var scheduler = SchedulerSettings()
    public var notifier: Notifier = .auto
    /// The geofence engine's settings (`[geofence]`).
    public var geofence = GeofenceSettings()
    /// Where positions come from: `geoclue`, `none`, `replay:FILE`, `fixed:LAT,LON[,ACCURACY]`.
    public var location: LocationSource = .geoclue
    public var logLevel: Logger.Level = .info
    /// When CalDAV accounts are synced (`[sync]`).
    public var sync = SyncSettings()
    /// Whether the agenda leaves out cancelled events and invitations the user declined instead
    /// of marking them (`[agenda] hide_declined`).
    public var agendaHidesDeclined = false

    public init() {}

    /// `$XDG_CONFIG_HOME/chime/config.toml`, else `~/.config/chime/config.toml`.
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") { return config + "/chime/config.toml" }
        return (environment["HOME"] ?? NSHomeDirectory()) + "/.config/chime/config.toml"
    }

    /// Reads `path`; a missing file at the default path means "all defaults", a missing file
    /// named explicitly is an error.
    public static func load(path: String, explicit: Bool) throws(ConfigurationError) -> DaemonConfiguration {
        guard FileManager.default.fileExists(atPath: path) else {
            if explicit { throw ConfigurationError(file: path, message: "no such file") }
            return DaemonConfiguration()
        }
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw ConfigurationError(file: path, message: "cannot read it as UTF-8 text")
        }
        return try parse(text, file: path)
    }

    /// The sections and keys, with how each is read.
    private typealias Reader = @Sendable (inout DaemonConfiguration, TOMLValueConvertible, String) throws(ConfigurationError) -> Void
    private static let schema: [String: [String: Reader]] = [
        "alarms": [
            "snooze": { c, v, at throws(ConfigurationError) in
                c.scheduler.snoozeChoices = try snoozeChoices(v, at)
            },
            // The older single-button form: `snooze_minutes = 5` is `snooze = ["5m"]`.
            "snooze_minutes": { c, v, at throws(ConfigurationError) in
                c.scheduler.snoozeChoices = [.minutes(try integer(v, at, in: 1...1440))]
            },
            "grace_hours": { c, v, at throws(ConfigurationError) in
                c.scheduler.graceSeconds = Int64(try number(v, at, in: 0...8760) * 3600)
            },
            "missed_summary_threshold": { c, v, at throws(ConfigurationError) in
                c.scheduler.missedSummaryThreshold = try integer(v, at, in: 0...1000)
            },
            "reminders_at_due": { c, v, at throws(ConfigurationError) in
                guard let flag = v.bool else { throw ConfigurationError(key: at, message: "must be true or false, not \(v.debugDescription)") }
                c.scheduler.alarmDefaults.remindersFireAtDue = flag
            },
            "all_day_time": { c, v, at throws(ConfigurationError) in
                c.scheduler.alarmDefaults.allDayTimeOfDay = try timeOfDay(v, at)
            },
            "command_timeout_seconds": { c, v, at throws(ConfigurationError) in
                c.scheduler.commands.timeoutSeconds = try integer(v, at, in: 1...86_400)
            },
            "invitations": { c, v, at throws(ConfigurationError) in
                c.scheduler.alarmDefaults.invitations = try choice(v, at, AlarmDefaults.InvitationAlarms.allCases)
            }
        ],
        "agenda": [
            "hide_declined": { c, v, at throws(ConfigurationError) in
                guard let flag = v.bool else { throw ConfigurationError(key: at, message: "must be true or false, not \(v.debugDescription)") }
                c.agendaHidesDeclined = flag
            }
        ],
        "identity": [
            "addresses": { c, v, at throws(ConfigurationError) in
                guard let array = v.array, let texts = Optional(array.compactMap(\.string)), texts.count == array.count,
                    texts.allSatisfy({ $0.contains("@") || $0.contains(":") })
                else {
                    throw ConfigurationError(key: at, message: "must be a list of addresses such as [\"ana@example.org\"], not \(v.debugDescription)")
                }
                c.scheduler.alarmDefaults.identity.add(texts)
            }
        ],
        "notifications": [
            "notifier": { c, v, at throws(ConfigurationError) in
                c.notifier = try choice(v, at, Notifier.allCases)
            },
            "sound": { c, v, at throws(ConfigurationError) in
                guard let name = v.string, AlarmSounds.isValidName(name) else {
                    throw ConfigurationError(
                        key: at, message: "must be a sound-theme name such as \"alarm-clock-elapsed\" or \"bell\", not \(v.debugDescription)")
                }
                c.scheduler.sounds.name = name
            },
            "sound_always": { c, v, at throws(ConfigurationError) in
                guard let flag = v.bool else { throw ConfigurationError(key: at, message: "must be true or false, not \(v.debugDescription)") }
                c.scheduler.sounds.always = flag
            }
        ],
        // Any name: read by `commands(_:file:)`, which checks each entry.
        "commands": [:],
        "geofence": [
            "location": { c, v, at throws(ConfigurationError) in
                guard let text = v.string else { throw ConfigurationError(key: at, message: "must be a string, not \(v.debugDescription)") }
                do { c.location = try LocationSource(parsing: text) } catch { throw ConfigurationError(key: at, message: "\(error)") }
            },
            "default_radius_m": { c, v, at throws(ConfigurationError) in
                c.geofence.defaultRadius = try number(v, at, in: 1...100_000)
            },
            "minimum_radius_m": { c, v, at throws(ConfigurationError) in
                c.geofence.minimumRadius = try number(v, at, in: 0...100_000)
            },
            "hysteresis_m": { c, v, at throws(ConfigurationError) in
                c.geofence.hysteresisMetres = try number(v, at, in: 0...10_000)
            },
            "max_accuracy_m": { c, v, at throws(ConfigurationError) in
                c.geofence.maximumAccuracy = try number(v, at, in: 1...100_000)
            },
            "dwell_seconds": { c, v, at throws(ConfigurationError) in
                c.geofence.dwellSeconds = Int64(try integer(v, at, in: 0...86_400))
            },
            "initial_state": { c, v, at throws(ConfigurationError) in
                c.geofence.initialState = try choice(v, at, InitialStatePolicy.allCases)
            },
            "event_arming_hours": { c, v, at throws(ConfigurationError) in
                c.geofence.eventArmingHours = try integer(v, at, in: 0...168)
            },
            "adaptive_tracking": { c, v, at throws(ConfigurationError) in
                guard let flag = v.bool else { throw ConfigurationError(key: at, message: "must be true or false, not \(v.debugDescription)") }
                c.geofence.adaptiveTracking = flag
            }
        ],
        "sync": [
            "interval_minutes": { c, v, at throws(ConfigurationError) in
                c.sync.intervalSeconds = Int64(try integer(v, at, in: 1...1440)) * 60
            },
            "after_change_seconds": { c, v, at throws(ConfigurationError) in
                c.sync.afterChangeSeconds = Int64(try integer(v, at, in: 0...600))
            },
            "while_alarm_shown_seconds": { c, v, at throws(ConfigurationError) in
                c.sync.whileAlarmShownSeconds = Int64(try integer(v, at, in: 5...3600))
            },
            "before_alarm_seconds": { c, v, at throws(ConfigurationError) in
                c.sync.beforeAlarmSeconds = Int64(try integer(v, at, in: 0...3600))
            }
        ],
        "log": [
            "level": { c, v, at throws(ConfigurationError) in
                c.logLevel = try choice(v, at, Logger.Level.allCases)
            }
        ]
    ]

    public static func parse(_ text: String, file: String) throws(ConfigurationError) -> DaemonConfiguration {
        let table: TOMLTable
        do { table = try TOMLTable(string: text) } catch let error as TOMLParseError {
            throw ConfigurationError(file: file, message: "line \(error.source.begin.line): \(error.description)")
        } catch {
            throw ConfigurationError(file: file, message: "\(error)")
        }
        var config = DaemonConfiguration()
        if let alarms = table["alarms"]?.table, alarms.keys.contains("snooze"), alarms.keys.contains("snooze_minutes") {
            throw ConfigurationError(
                file: file, key: "alarms.snooze_minutes",
                message: "give either alarms.snooze (the list of choices) or alarms.snooze_minutes, not both")
        }
        if let commands = table["commands"] {
            guard let entries = commands.table else {
                throw ConfigurationError(file: file, message: "commands must be a section ([commands]), not a value")
            }
            config.scheduler.commands.commands = try Self.commands(entries, file: file)
        }
        for section in table.keys.sorted() where section != "commands" {
            guard let readers = schema[section] else {
                throw ConfigurationError(
                    file: file, message: "unknown section [\(section)]; known: \(schema.keys.sorted().map { "[\($0)]" }.joined(separator: ", "))")
            }
            guard let values = table[section]?.table else {
                throw ConfigurationError(file: file, message: "\(section) must be a section ([\(section)]), not a value")
            }
            for key in values.keys.sorted() {
                guard let read = readers[key] else {
                    throw ConfigurationError(
                        file: file, message: "unknown key \(section).\(key); known in [\(section)]: \(readers.keys.sorted().joined(separator: ", "))")
                }
                do { try read(&config, values[key]!, "\(section).\(key)") } catch { throw error.inFile(file) }
            }
        }
        return config
    }

    /// `[commands]`: `name = ["/absolute/program", "argument", …]`, the allow-list of alarm commands.
    private static func commands(_ table: TOMLTable, file: String) throws(ConfigurationError) -> [String: [String]] {
        var result: [String: [String]] = [:]
        for name in table.keys.sorted() {
            let at = "commands.\(name)"
            guard AlarmCommands.isValidName(name) else {
                throw ConfigurationError(file: file, key: at, message: "a command name is letters, digits, - and _ (at most 64)")
            }
            let usage = "must be a list: the program's absolute path, then its arguments, e.g. [\"/usr/bin/notify-send\", \"Alarm\"]"
            guard let array = table[name]?.array, !array.isEmpty else {
                throw ConfigurationError(file: file, key: at, message: "\(usage), not \(table[name]!.debugDescription)")
            }
            var argv: [String] = []
            for (index, element) in array.enumerated() {
                guard let text = element.string, !text.contains("\0") else {
                    throw ConfigurationError(file: file, key: "\(at)[\(index)]", message: "must be a string, not \(element.debugDescription)")
                }
                argv.append(text)
            }
            // No PATH search: what runs is exactly the file the user named.
            guard argv[0].hasPrefix("/") else {
                throw ConfigurationError(file: file, key: "\(at)[0]", message: "must be an absolute path (no PATH search), not \"\(argv[0])\"")
            }
            result[name] = argv
        }
        return result
    }

    private static func integer(_ v: TOMLValueConvertible, _ at: String, in range: ClosedRange<Int>) throws(ConfigurationError) -> Int {
        guard let i = v.int else { throw ConfigurationError(key: at, message: "must be a whole number, not \(v.debugDescription)") }
        guard range.contains(i) else { throw ConfigurationError(key: at, message: "must be \(range.lowerBound)…\(range.upperBound), not \(i)") }
        return i
    }

    private static func number(_ v: TOMLValueConvertible, _ at: String, in range: ClosedRange<Double>) throws(ConfigurationError) -> Double {
        guard let d = v.double ?? v.int.map(Double.init) else {
            throw ConfigurationError(key: at, message: "must be a number, not \(v.debugDescription)")
        }
        guard range.contains(d) else { throw ConfigurationError(key: at, message: "must be \(range.lowerBound)…\(range.upperBound), not \(d)") }
        return d
    }

    /// `"HH:MM"`, as seconds after midnight.
    private static func timeOfDay(_ v: TOMLValueConvertible, _ at: String) throws(ConfigurationError) -> Int64 {
        let bad = ConfigurationError(key: at, message: "must be a time of day \"HH:MM\" (00:00–23:59), not \(v.debugDescription)")
        guard let text = v.string else { throw bad }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[1].count == 2, (1...2).contains(parts[0].count),
            let h = Int(parts[0]), let m = Int(parts[1]), (0..<24).contains(h), (0..<60).contains(m)
        else { throw bad }
        return Int64(h * 3600 + m * 60)
    }

    /// A list of 1…8 snooze choices, each a length (`"10m"`) or a time (`"tomorrow 9:00"`), no duplicates.
    private static func snoozeChoices(_ v: TOMLValueConvertible, _ at: String) throws(ConfigurationError) -> [SnoozeChoice] {
        guard let array = v.array else {
            throw ConfigurationError(key: at, message: "must be a list of strings such as [\"10m\", \"1h\", \"tomorrow 9:00\"], not \(v.debugDescription)")
        }
        guard (1...8).contains(array.count) else {
            throw ConfigurationError(key: at, message: "must list 1…8 choices, not \(array.count)")
        }
        var choices: [SnoozeChoice] = []
        for (index, element) in array.enumerated() {
            guard let text = element.string else {
                throw ConfigurationError(
                    key: "\(at)[\(index)]", message: "must be a string such as \"10m\" or \"tomorrow 9:00\", not \(element.debugDescription)")
            }
            let choice: SnoozeChoice
            do { choice = try SnoozeChoice(parsing: text) } catch { throw ConfigurationError(key: "\(at)[\(index)]", message: "\(error)") }
            guard !choices.contains(where: { $0.target == choice.target }) else {
                throw ConfigurationError(key: "\(at)[\(index)]", message: "\"\(text)\" is the same snooze as an earlier entry")
            }
            choices.append(choice)
        }
        return choices
    }

    private static func choice<T: RawRepresentable>(_ v: TOMLValueConvertible, _ at: String, _ all: [T]) throws(ConfigurationError) -> T
    where T.RawValue == String {
        let names = all.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
        guard let s = v.string, let value = T(rawValue: s) else {
            throw ConfigurationError(key: at, message: "must be one of \(names), not \(v.debugDescription)")
        }
        return value
    }
}

/// A configuration file that cannot be used; names the file, the key and what is wrong.
public struct ConfigurationError: Error, Hashable, Sendable, CustomStringConvertible {
    public var file: String?
    public var key: String?
    public var message: String

    init(file: String? = nil, key: String? = nil, message: String) {
        self.file = file
        self.key = key
        self.message = message
    }

    public var description: String {
        [file, key].compactMap { $0 }.joined(separator: ": ") + (file == nil && key == nil ? "" : ": ") + message
    }

    func inFile(_ path: String) -> ConfigurationError {
        var copy = self
        if copy.file == nil { copy.file = path }
        return copy
    }
}
