import ChimeCore
import ChimeFormat
import ChimeLanguage
import ChimeStore
import Foundation

/// Time for the command line: the system clock and zone, or `CHIME_NOW` (an ISO 8601 instant)
/// for reproducible output in tests and documentation.
enum CLIContext {
    /// The context of this command: ``now``, ``zone`` and ``numericDateOrder``.
    static var command: InputContext {
        InputContext(
            now: now, zone: zone, numericDateOrder: numericDateOrder, phrases: datePhrases, messages: messages, durations: durationPhrases)
    }

    /// The user's language (LC_ALL, LC_MESSAGES or LANG; days by LC_TIME) and its catalog,
    /// opened once for the messages and the typed words (closed, so English, for C or none).
    static let language = LocaleEnvironment(ProcessInfo.processInfo.environment)
    static let catalog = MessageCatalog(locale: language.messages)

    /// What the user reads, in their language.
    static let messages = Messages(catalog: catalog, time: language.time.map { MessageCatalog(locale: $0) })

    /// An error as the user reads it: a translatable one in their language, any other as it says itself.
    static func text(of error: any Error) -> String { (error as? InputError)?.text(in: messages) ?? "\(error)" }

    /// The repeat words of the user's language (`--repeat 每周`).
    static let repeatPhrases = DatePhrases(repeatsIn: catalog)

    /// The length words of the user's language (`--alarm "15 минут"`).
    static let durationPhrases = DatePhrases(durationsIn: catalog)

    /// The date words of the user's language (`--due 明天`).
    static let datePhrases = DatePhrases(catalog: catalog)

    /// The system zone; a `$TZ` that names no zone is said once on stderr, never silently UTC.
    static let zone: ZoneRules = {
        let (zone, origin) = SystemZone.resolve()
        if case .invalidEnvironment(let value) = origin {
            let warning = CLIContext.messages(
                "warning: TZ=\"{value}\" is neither a zone name (Europe/Berlin) nor a POSIX TZ rule; using UTC", ["value": value])
            FileHandle.standardError.write(Data((warning + "\n").utf8))
        }
        return zone
    }()

    /// How `12/01` reads: from LC_ALL, LC_TIME or LANG (``InputContext/numericDateOrder(environment:)``).
    static let numericDateOrder = InputContext.numericDateOrder(environment: ProcessInfo.processInfo.environment)

    static let now: Instant = {
        if let text = ProcessInfo.processInfo.environment["CHIME_NOW"],
            case .instant(let i)? = try? DateExpression.parse(text, now: Instant(secondsSince1970: 0), zone: .utc)
        {
            return i
        }
        return EventStore.systemNow()
    }()

    static var clock: @Sendable () -> Instant {
        if ProcessInfo.processInfo.environment["CHIME_NOW"] == nil { return EventStore.systemNow }
        let fixed = now
        return { fixed }
    }

    /// Reads a date option against this command's context (``InputContext/date(_:option:relativeTo:on:wallClock:)``).
    static func date(
        _ text: String, option: String, relativeTo: Instant? = nil, on civilZone: ZoneRules? = nil,
        wallClock: ZoneRules? = nil
    ) throws -> DateValue {
        try command.date(text, option: option, relativeTo: relativeTo, on: civilZone, wallClock: wallClock)
    }

    static func instant(_ text: String, option: String) throws -> Instant {
        try date(text, option: option).instant(in: zone)
    }

    /// A date option as an item date (``InputContext/calendarDate(_:option:tz:relativeTo:on:)``).
    static func calendarDate(
        _ text: String, option: String, tz: String?, relativeTo: Instant? = nil,
        on civilZone: ZoneRules? = nil
    ) throws -> CalendarDate {
        try command.calendarDate(text, option: option, tz: tz, relativeTo: relativeTo, on: civilZone)
    }

    static let dateHelp =
        "Dates: 2026-12-01, 2026-12-01T09:30, today, tomorrow at 9, fri 5pm, next mon, Dec 1, 12/01 (by locale), 9:30, noon, in 2 hours, now, +2h, -30m."
}
