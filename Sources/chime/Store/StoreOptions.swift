import ArgumentParser
import ChimeCore
import ChimeStore
import Foundation
import Glibc
import Synchronization

/// Options every store command shares.
struct StoreOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The store file (default: $CHIME_STORE, else $XDG_DATA_HOME/chime/chime.sqlite).", valueName: "path"))
    var store: String?

    @Flag(name: .long, help: "Print JSON instead of text.")
    var json = false

    @Flag(name: .long, help: "Create the store file if it does not exist (add, import and calendar add always do).")
    var create = false

    /// Opens the store. A path given with --store or $CHIME_STORE where nothing exists is an
    /// error unless `creating` (a command that adds things) or --create: a mistyped path must
    /// not show an empty new store. The default path is created on first use.
    func open(creating: Bool = false) throws -> EventStore {
        try Self.open(store, creating: creating || create)
    }

    /// ``open(creating:)`` for a command that declares its own `--store` (`export`).
    static func open(_ given: String?, creating: Bool) throws -> EventStore {
        let explicit = given ?? ProcessInfo.processInfo.environment["CHIME_STORE"].flatMap { $0.isEmpty ? nil : $0 }
        let path = explicit ?? StoreLocation.defaultPath()
        var info = stat()
        if let explicit, !creating, lstat(explicit, &info) != 0, errno == ENOENT {
            let source = given != nil ? "--store" : "$CHIME_STORE"
            throw InputError("no store at \(explicit) (from \(source)); check the path, or pass --create to start a new store there")
        }
        do {
            let store = try EventStore(path: path, floatingZone: CLIContext.zone, clock: CLIContext.clock)
            Self.opened.withLock { $0.append(store) }
            return store
        } catch {
            throw CLIError.store(error)
        }
    }

    private static let opened = Mutex<[EventStore]>([])

    /// One warning per stored item that the command's queries skipped, with the way to remove it.
    static func reportUnreadableItems() {
        for store in opened.withLock({ $0 }) {
            for item in store.takeUnreadableItems() {
                FileHandle.standardError.write(Data(
                    "warning: \(store.path): \(item); `chime remove \(item.identifier)` deletes it\n".utf8))
            }
        }
    }
}

/// Time for the command line: the system clock and zone, or `CHIME_NOW` (an ISO 8601 instant)
/// for reproducible output in tests and documentation.
enum CLIContext {
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
    static func date(_ text: String, option: String, relativeTo: Instant? = nil, on civilZone: ZoneRules? = nil) throws -> DateValue {
        let zone = civilZone ?? self.zone
        let value: DateValue
        do { value = try DateExpression.parse(text, now: relativeTo ?? now, zone: zone, numericOrder: numericDateOrder) } catch {
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
    static func calendarDate(_ text: String, option: String, tz: String?, relativeTo: Instant? = nil) throws -> CalendarDate {
        var zone: ZoneRules? = self.zone
        if let tz {
            do {
                if case .zone(let named) = try ZoneArgument(tz) { zone = named } else { zone = nil }
            } catch { throw InputError("--tz: \(error)") }
        }
        switch try date(text, option: option, relativeTo: relativeTo) {
        case .date(let d): return .allDay(d)
        case .local(let l):
            guard let zone else { return .floating(l) }
            return .wallTime(l, in: zone)
        case .instant(var i):
            // `in 2 hours`, `now`, `+30m` on an item: whole minutes, as calendars keep times.
            let lower = text.lowercased()
            if lower.hasPrefix("in ") || lower.hasPrefix("+") || lower.hasPrefix("-") || lower.trimmingCharacters(in: .whitespaces) == "now" {
                i = Instant(secondsSince1970: i.secondsSince1970 - ((i.secondsSince1970 % 60) + 60) % 60)
            }
            guard let zone else { return .floating(self.zone.localTime(at: i)) }
            return .wallTime(at: i, in: zone)
        }
    }

    static let dateHelp = "Dates: 2026-12-01, 2026-12-01T09:30, today, tomorrow at 9, fri 5pm, next mon, Dec 1, 12/01 (by locale), 9:30, noon, in 2 hours, now, +2h, -30m."
}
