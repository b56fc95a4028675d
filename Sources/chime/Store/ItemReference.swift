import ChimeCore
import ChimeStore

/// An item on the command line: `ID`, or `ID@20261203T090000Z` for one occurrence of a
/// recurring event (the form `chime agenda` prints).
struct ItemReference {
    let identifier: String
    let occurrence: Instant?

    init(_ text: String) throws {
        let parts = text.split(separator: "@", maxSplits: 1).map(String.init)
        identifier = parts.first ?? ""
        guard !identifier.isEmpty else { throw InputError("ID: empty identifier") }
        if parts.count == 2 {
            guard case .utc(let l)? = BasicDateTime.parse(parts[1]) else {
                throw InputError("ID: \"\(parts[1])\" after @ is not an occurrence (expected YYYYMMDDTHHMMSSZ, as `chime agenda` prints)")
            }
            occurrence = Instant(secondsSince1970: l.localSeconds)
        } else {
            occurrence = nil
        }
    }

    static func text(_ event: Event) -> String {
        guard event.isRecurring || event.isDetached, let o = event.occurrenceDate else { return event.identifier }
        return event.identifier + "@" + o.utcBasicFormat
    }

    enum Kind { case event, reminder }

    /// Whether the identifier names an event or a reminder (that never changes once stored).
    func kind(in store: EventStore) throws -> Kind {
        switch try store.calendarItem(withIdentifier: identifier) {
        case .event?: return .event
        case .reminder?: return .reminder
        case nil: throw InputError("no event or reminder with ID \"\(identifier)\" (see `chime agenda` or `chime reminders`)")
        }
    }

    /// The item, with a recurring event resolved to the named occurrence (or its first one).
    func resolve(in store: EventStore) throws -> AnyCalendarItem {
        guard let item = try store.calendarItem(withIdentifier: identifier) else {
            throw InputError("no event or reminder with ID \"\(DisplayText.singleLine(identifier))\" (see `chime agenda` or `chime reminders`)")
        }
        guard let occurrence, case .event(var event) = item else { return item }
        event.occurrenceDate = occurrence
        guard try store.refresh(&event) else {
            throw InputError("event \"\(DisplayText.itemTitle(event.title))\" has no occurrence at \(occurrence)")
        }
        return .event(event)
    }
}
