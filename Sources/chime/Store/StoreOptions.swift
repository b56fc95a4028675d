import ArgumentParser
import ChimeCore
import ChimeStore
import Foundation
import Synchronization

/// Options every store command shares.
struct StoreOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The store file (default: $CHIME_STORE, else $XDG_DATA_HOME/chime/chime.sqlite).", valueName: "path"))
    var store: String?

    @Flag(name: .long, help: "Print JSON instead of text.")
    var json = false

    func open() throws -> EventStore {
        let path = store ?? StoreLocation.defaultPath()
        do {
            let store = try EventStore(path: path, floatingZone: CLIContext.zone, clock: CLIContext.clock)
            Self.opened.withLock { $0.append(store) }
            return store
        } catch {
            throw InputError("\(error)")
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
    static let zone = SystemZone.current()

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

    /// Parses a date option; `option` names it in the error.
    static func date(_ text: String, option: String) throws -> DateValue {
        let value: DateValue
        do { value = try DateExpression.parse(text, now: now, zone: zone) } catch { throw InputError("\(option): \(error)") }
        do { try OptionBounds.check(option, text: text, instant: value.instant(in: zone)) } catch { throw InputError("\(error)") }
        return value
    }

    static func instant(_ text: String, option: String) throws -> Instant {
        try date(text, option: option).instant(in: zone)
    }

    /// A date option as an item date: a date → all-day, a wall time → on `tz` (default the
    /// system zone; `floating` keeps it floating), an instant → on `tz` too.
    static func calendarDate(_ text: String, option: String, tz: String?) throws -> CalendarDate {
        var zone: ZoneRules? = self.zone
        if let tz {
            do {
                if case .zone(let named) = try ZoneArgument(tz) { zone = named } else { zone = nil }
            } catch { throw InputError("--tz: \(error)") }
        }
        switch try date(text, option: option) {
        case .date(let d): return .allDay(d)
        case .local(let l):
            guard let zone else { return .floating(l) }
            return zone.isUTC ? .utc(l) : .zoned(l, zone)
        case .instant(let i):
            guard let zone else { return .floating(self.zone.localTime(at: i)) }
            return zone.isUTC ? .utc(i.utc) : .zoned(zone.localTime(at: i), zone)
        }
    }

    static let dateHelp = "Dates: 2026-12-01, 2026-12-01T09:30, 20261201T093000Z, today, tomorrow 9:00, fri 17:00, now, +2h, +3d."
}
