/// What events and reminders have in common (EventKit's `EKCalendarItem`).
public protocol CalendarItem: Hashable, Sendable {
    /// Chime's identifier; stable for the life of the item.
    var identifier: String { get }
    /// The calendar (or reminder list) the item belongs to; nil until one is chosen.
    var calendarIdentifier: String? { get set }
    /// The iCalendar UID; defaults to ``identifier``.
    var externalIdentifier: String { get set }
    var title: String { get set }
    var notes: String? { get set }
    var url: String? { get set }
    /// Free-text location (not a geofence; see ``Alarm/location(_:_:)``).
    var location: String? { get set }
    var alarms: [Alarm] { get set }
    /// iCalendar content lines Chime keeps but does not model (written back on export).
    var icsExtras: [String] { get set }
    var recurrenceRules: [RecurrenceRule] { get set }
    /// Set by the store when the item is first saved.
    var creationDate: Instant? { get }
    /// Set by the store on every save.
    var lastModifiedDate: Instant? { get }
    /// The zone of the item's dates; nil when they are floating, all-day or UTC.
    var timeZone: ZoneRules? { get }
}

extension CalendarItem {
    public var hasRecurrenceRules: Bool { !recurrenceRules.isEmpty }
}

/// Which occurrences of a recurring event a save or remove applies to (EventKit's `EKSpan`).
public enum Span: String, Hashable, Sendable {
    /// This occurrence only: a detached occurrence on save, an exception date on remove.
    case thisEvent
    /// This occurrence and every later one: the series is split (save) or ended (remove) here.
    case futureEvents
}

/// An event or a reminder, as `calendarItem(withIdentifier:)` returns it.
public enum AnyCalendarItem: Hashable, Sendable {
    case event(Event)
    case reminder(Reminder)

    public var identifier: String {
        switch self {
        case .event(let e): return e.identifier
        case .reminder(let r): return r.identifier
        }
    }

    public var title: String {
        switch self {
        case .event(let e): return e.title
        case .reminder(let r): return r.title
        }
    }

    public var alarms: [Alarm] {
        get {
            switch self {
            case .event(let e): return e.alarms
            case .reminder(let r): return r.alarms
            }
        }
        set {
            switch self {
            case .event(var e): e.alarms = newValue; self = .event(e)
            case .reminder(var r): r.alarms = newValue; self = .reminder(r)
            }
        }
    }

    /// The iCalendar SEQUENCE.
    public var sequence: Int {
        switch self {
        case .event(let e): return e.sequence
        case .reminder(let r): return r.sequence
        }
    }

    /// iCalendar lines kept from an import.
    public var icsExtras: [String] {
        switch self {
        case .event(let e): return e.icsExtras
        case .reminder(let r): return r.icsExtras
        }
    }

    /// The event or reminder itself, for what both have (notes, location, rules…).
    public var base: any CalendarItem {
        switch self {
        case .event(let e): return e
        case .reminder(let r): return r
        }
    }

    public var recurrenceRules: [RecurrenceRule] { base.recurrenceRules }

    /// `.event` or `.reminder`: the entity type access is decided for.
    public var entityType: EntityType {
        if case .event = self { return .event } else { return .reminder }
    }

    /// `event` or `reminder`.
    public var kindName: String {
        if case .event = self { return "event" } else { return "reminder" }
    }
}
