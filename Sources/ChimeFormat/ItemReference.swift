import ChimeCore
import ChimeStore
import Foundation

/// The one way items are named on the command line, printed by `agenda`, `alarms`, `show`,
/// `add`, `edit`, `reminders`, the daemon's output and log (written by ``ReferenceText`` in the
/// core), and read back by every command:
///
/// - `ID` — an event series, a single event or a reminder; any unique prefix of it, in any
///   case, will do (as git reads commit names), and so will a title that only one item has;
/// - `ID@20261203T090000Z` — one occurrence of a recurring event, by the UTC start it was
///   scheduled at (a moved occurrence keeps the start it replaced);
/// - `ID@20261126` — one occurrence of an all-day series, by its date (the same under any `$TZ`);
/// - the item's iCalendar UID (`4kd7sfk2@google.com`), the same on every machine and client, with
///   `@OCCURRENCE` after it for one occurrence: an `@` whose rest is no occurrence is part of the name.
///
/// Human views print the first ``shortLength`` characters of the ID; JSON prints it whole.
public struct ItemReference {
    /// What was typed before the `@` of an occurrence: an ID, a prefix of one, a UID or a title.
    public let identifier: String
    public let occurrence: Occurrence?
    /// What followed the last `@` when it is no occurrence (the name keeps it): said in the error
    /// when nothing has that name.
    private let notAnOccurrence: String?

    public enum Occurrence: Equatable {
        case instant(Instant)
        case day(CivilDate)

        /// The occurrence's start as the store keys it (all-day dates at midnight in `zone`).
        public func instant(in zone: ZoneRules) -> Instant {
            switch self {
            case .instant(let i): return i
            case .day(let d): return zone.instant(for: LocalDateTime(date: d))
            }
        }
    }

    /// The longest reference read, in UTF-8 bytes (a title may be a reference).
    public static let maximumLength = 1024

    /// Characters of the ID human views print.
    public static let shortLength = 8

    /// The start of `identifier` human views print.
    public static func short(_ identifier: String) -> String { String(identifier.prefix(shortLength)) }

    public init(_ text: String) throws {
        var name = text, occurrence: Occurrence?, notAnOccurrence: String?
        if let at = text.lastIndex(of: "@") {
            let suffix = String(text[text.index(after: at)...])
            switch BasicDateTime.parse(suffix.uppercased()) {
            case .utc(let l)?: (name, occurrence) = (String(text[..<at]), .instant(Instant(utc: l)))
            case .date(let d)?: (name, occurrence) = (String(text[..<at]), .day(d))
            default: notAnOccurrence = suffix
            }
        }
        self.occurrence = occurrence
        self.notAnOccurrence = notAnOccurrence
        identifier = name.trimmingCharacters(in: .whitespaces)
        guard !identifier.isEmpty else { throw InputError(translatable: "ID: empty identifier") }
        // A reference is an ID, a prefix of one or a title: bounded, so that a 10 MB argument is a clear
        // refusal (not SQLite's "LIKE or GLOB pattern too complex") and an error never echoes it whole.
        guard identifier.utf8.count <= Self.maximumLength else {
            throw InputError(
                translatable: "ID: {bytes} bytes is too long for an ID, a prefix of one or a title (at most {limit})",
                ["bytes": "\(identifier.utf8.count)", "limit": "\(Self.maximumLength)"])
        }
    }

    // MARK: Writing

    /// `ID` or `ID@…` for an event as the store returns it (an occurrence of a series, a detached one, or a single event).
    public static func text(_ event: Event, zone: ZoneRules, short: Bool = false) -> String {
        text(
            identifier: event.identifier, occurrence: event.isRecurring || event.isDetached ? event.occurrenceDate : nil,
            allDay: event.isAllDay, zone: zone, short: short)
    }

    /// `ID` or `ID@occurrence`, from the parts (what the agenda's light occurrences carry).
    public static func text(identifier: String, occurrence: Instant?, allDay: Bool, zone: ZoneRules, short: Bool = false) -> String {
        ReferenceText.text(identifier: short ? Self.short(identifier) : identifier, occurrence: occurrence, allDay: allDay, zone: zone)
    }

    /// `ID@…` for an alarm firing: the occurrence it belongs to, for events of a series (as the daemon prints it).
    public static func text(_ firing: AlarmFiring, zone: ZoneRules, short: Bool = false) -> String {
        let full = ReferenceText.text(firing, zone: zone)
        return short ? Self.short(firing.item.identifier) + full.dropFirst(firing.item.identifier.count) : full
    }

    public static func occurrenceText(_ o: Instant, allDay: Bool, zone: ZoneRules) -> String {
        ReferenceText.occurrenceText(o, allDay: allDay, zone: zone)
    }

    // MARK: Reading

    public enum Kind { case event, reminder }

    /// The full identifier this reference names: the ID itself, the one item whose ID starts
    /// with it (any case), or the one item with this title; otherwise an error that lists the
    /// candidates.
    ///
    /// `among` limits the search to items of those kinds (what a D-Bus caller may see): an item of
    /// another kind is not found, listed or counted, so the answer tells nothing about it.
    public func resolvedIdentifier(in store: EventStore, among kinds: Set<Kind> = [.event, .reminder]) throws -> String {
        let kindNames = Set(kinds.map { $0 == .event ? "event" : "reminder" })
        if let exact = try store.calendarItem(withIdentifier: identifier), kinds.contains(exact.entityType == .event ? .event : .reminder) {
            return identifier
        }
        let shown = DisplayText.singleLine(identifier)
        let byUID = try store.items(uid: identifier, kinds: kindNames)
        if byUID.count == 1 { return byUID[0].identifier }
        if byUID.count > 1 {
            throw InputError(
                translatable: "UID \"{uid}\" is in {count} calendars: {list}; use an ID", ["uid": shown, "count": "\(byUID.count)"],
                parts: ["list": Self.list(byUID)])
        }
        let byPrefix = try store.items(identifierPrefix: identifier, kinds: kindNames)
        if byPrefix.count == 1 { return byPrefix[0].identifier }
        if byPrefix.count > 1 {
            throw InputError(translatable: "ID \"{id}\" is ambiguous: it starts {list}; type more of it", ["id": shown], parts: ["list": Self.list(byPrefix)])
        }
        let byTitle = try store.items(titleContaining: identifier, kinds: kindNames).filter { TitleMatch.same($0.title, identifier) }
        if byTitle.count == 1 { return byTitle[0].identifier }
        if byTitle.count > 1 {
            throw InputError(
                translatable: "\"{title}\" is the title of {count} items: {list}; use an ID",
                ["title": shown, "count": "\(byTitle.count)"], parts: ["list": Self.list(byTitle)])
        }
        if let notAnOccurrence {
            throw InputError(
                translatable:
                    "ID: \"{text}\" after @ is not an occurrence (YYYYMMDDTHHMMSSZ, or YYYYMMDD for an all-day one, as `chime agenda` prints), and no item has the UID or title \"{title}\"",
                ["text": DisplayText.singleLine(notAnOccurrence), "title": shown])
        }
        throw InputError(
            translatable: "no event or reminder with ID, UID or title \"{text}\" (see `chime agenda`, `chime reminders` or `chime find {text}`)",
            ["text": shown])
    }

    /// The first five matches, each with its kind in the user's words: `0A1B2C3D4E5F (Termin „Call“), …`.
    private static func list(_ matches: [ItemMatch]) -> MessageText {
        let entries = matches.prefix(5).map { match in
            let values: KeyValuePairs<String, String> = ["id": String(match.identifier.prefix(12)), "title": DisplayText.itemTitle(match.title)]
            return match.kind == "event" ? MessageText("{id} (event \"{title}\")", values) : MessageText("{id} (reminder \"{title}\")", values)
        }
        var list = matches.count > 5 ? MessageText("{first}, …", context: "list", parts: ["first": entries.last!]) : entries.last!
        for entry in entries.dropLast().reversed() { list = MessageText("{first}, {rest}", context: "list", parts: ["first": entry, "rest": list]) }
        return list
    }

    /// Whether the reference names an event or a reminder (that never changes once stored).
    public func kind(in store: EventStore) throws -> Kind {
        switch try store.calendarItem(withIdentifier: try resolvedIdentifier(in: store)) {
        case .event?: return .event
        case .reminder?: return .reminder
        case nil: throw InputError(translatable: "no event or reminder with ID \"{id}\"", ["id": DisplayText.singleLine(identifier)])
        }
    }

    /// The item, with a recurring event resolved to the named occurrence (or its first one).
    public func resolve(in store: EventStore, among kinds: Set<Kind> = [.event, .reminder]) throws -> AnyCalendarItem {
        let id = try resolvedIdentifier(in: store, among: kinds)
        guard let item = try store.calendarItem(withIdentifier: id) else {
            throw InputError(
                translatable: "no event or reminder with ID \"{id}\" (see `chime agenda` or `chime reminders`)", ["id": DisplayText.singleLine(identifier)])
        }
        guard let occurrence, case .event(var event) = item else { return item }
        let at = occurrence.instant(in: store.floatingZone)
        // An event that does not repeat has one occurrence, at its start: any other instant names
        // nothing (before, `remove ID@…` removed the whole event and called it "this occurrence").
        if !event.isRecurring && !event.isDetached {
            let start = event.start.instant(floatingZone: store.floatingZone)
            guard at == start else {
                throw InputError(
                    translatable: "event \"{title}\" does not repeat: it has no occurrence at {occurrence}; name it by its ID alone ({id})",
                    [
                        "title": DisplayText.itemTitle(event.title), "id": Self.short(event.identifier),
                        "occurrence": Self.occurrenceText(at, allDay: event.isAllDay, zone: store.floatingZone)
                    ])
            }
        }
        event.occurrenceDate = at
        guard try store.refresh(&event) else {
            throw InputError(
                translatable: "event \"{title}\" has no occurrence at {occurrence}",
                ["title": DisplayText.itemTitle(event.title), "occurrence": Self.occurrenceText(at, allDay: event.isAllDay, zone: store.floatingZone)])
        }
        return .event(event)
    }
}
