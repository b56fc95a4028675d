import ChimeCore
import ChimeStore
import Foundation

/// What a typed date is read against: the instant "now", the zone words such as "tomorrow" are
/// read on, and how `12/01` reads. A command takes ``CLIContext/command`` (fixed for its
/// milliseconds of life); the daemon's D-Bus service makes one per call from its clock and the
/// zone of that moment, so that a call on the third day of its life reads "tomorrow" from that day.
struct InputContext: Sendable {
    var now: Instant
    var zone: ZoneRules
    var numericDateOrder: DateExpression.NumericDateOrder
}

/// Time for the command line: the system clock and zone, or `CHIME_NOW` (an ISO 8601 instant)
/// for reproducible output in tests and documentation.
enum CLIContext {
    /// The context of this command: ``now``, ``zone`` and ``numericDateOrder``.
    static var command: InputContext { InputContext(now: now, zone: zone, numericDateOrder: numericDateOrder) }

    /// The system zone; a `$TZ` that names no zone is said once on stderr, never silently UTC.
    static let zone: ZoneRules = {
        let (zone, origin) = SystemZone.resolve()
        if case .invalidEnvironment(let value) = origin {
            FileHandle.standardError.write(Data(
                "warning: TZ=\"\(value)\" is neither a zone name (Europe/Berlin) nor a POSIX TZ rule; using UTC\n".utf8))
        }
        return zone
    }()

    /// How `12/01` reads: from LC_ALL, LC_TIME or LANG (the first set). Month first where the
    /// locale writes it so (en_US, en_PH, ja, zh, ko); day first for other named locales; none
    /// (a date valid both ways is refused) for C and POSIX.
    static let numericDateOrder: DateExpression.NumericDateOrder = {
        let env = ProcessInfo.processInfo.environment
        let locale = [env["LC_ALL"], env["LC_TIME"], env["LANG"]].compactMap { $0 }.first { !$0.isEmpty } ?? ""
        let name = locale.prefix { $0 != "." && $0 != "@" }
        if name.isEmpty || name == "C" || name == "POSIX" { return .unknown }
        if ["en_US", "en_PH"].contains(name) || ["ja", "zh", "ko"].contains(name.prefix(2)) { return .monthFirst }
        return .dayFirst
    }()

    static let now: Instant = {
        if let text = ProcessInfo.processInfo.environment["CHIME_NOW"],
           case .instant(let i)? = try? DateExpression.parse(text, now: Instant(secondsSince1970: 0), zone: .utc) {
            return i
        }
        return EventStore.systemNow()
    }()

    static var clock: @Sendable () -> Instant {
        if ProcessInfo.processInfo.environment["CHIME_NOW"] == nil { return EventStore.systemNow }
        let fixed = now
        return { fixed }
    }

    /// Parses a date option; `option` names it in the error. Words such as `tomorrow` or a bare
    /// time count from `relativeTo` (default: now): an end typed after a start counts from the start.
    /// `civilZone`: the zone words such as `today` are read on (default: the system zone).
    /// `wallClock`: the zone the wall time will be placed in (an item's `--tz`), where "the next
    /// such time still ahead" is judged.
    static func date(_ text: String, option: String, relativeTo: Instant? = nil, on civilZone: ZoneRules? = nil,
                     wallClock: ZoneRules? = nil, context: InputContext = CLIContext.command) throws -> DateValue {
        let zone = civilZone ?? context.zone
        let value: DateValue
        do {
            value = try DateExpression.parse(text, now: relativeTo ?? context.now, zone: zone, numericOrder: context.numericDateOrder,
                                             wallClock: wallClock)
        } catch {
            throw InputError("\(option): \(error)")
        }
        do { try OptionBounds.check(option, text: text, instant: value.instant(in: zone)) } catch { throw InputError("\(error)") }
        return value
    }

    static func instant(_ text: String, option: String) throws -> Instant {
        try date(text, option: option).instant(in: zone)
    }

    /// A date option as an item date: a date → all-day, a wall time → on `tz` (default the
    /// system zone; `floating` keeps it floating), an instant → on `tz` too.
    static func calendarDate(_ text: String, option: String, tz: String?, relativeTo: Instant? = nil, on civilZone: ZoneRules? = nil,
                             context: InputContext = CLIContext.command) throws -> CalendarDate {
        var zone: ZoneRules? = context.zone
        if let tz {
            do {
                if case .zone(let named) = try ZoneArgument(tz) { zone = named } else { zone = nil }
            } catch { throw InputError("--tz: \(error)") }
        }
        switch try date(text, option: option, relativeTo: relativeTo, on: civilZone, wallClock: zone, context: context) {
        case .date(let d): return .allDay(d)
        case .local(let l):
            guard let zone else { return .floating(l) }
            return .wallTime(l, in: zone)
        case .instant(var i):
            // `in 2 hours`, `now`, `+30m` on an item: whole minutes, as calendars keep times.
            if DateExpression.isOffset(text) || text.lowercased().trimmingCharacters(in: .whitespaces) == "now" {
                i = Instant(secondsSince1970: i.secondsSince1970 - ((i.secondsSince1970 % 60) + 60) % 60)
            }
            guard let zone else { return .floating(context.zone.localTime(at: i)) }
            return .wallTime(at: i, in: zone)
        }
    }

    static let dateHelp = "Dates: 2026-12-01, 2026-12-01T09:30, today, tomorrow at 9, fri 5pm, next mon, Dec 1, 12/01 (by locale), 9:30, noon, in 2 hours, now, +2h, -30m."
}
