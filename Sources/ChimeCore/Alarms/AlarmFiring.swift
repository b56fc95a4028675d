/// One moment at which an alarm goes off, with what a notification needs to say about it.
///
/// ```swift
/// for firing in AlarmAgenda(items: items, zone: zone).firings(from: now, to: tomorrow) {
///     print(firing.fireAt, firing.title, firing.key)
/// }
/// ```
public struct AlarmFiring: Hashable, Sendable {
    public var key: FiringKey
    public var fireAt: Instant
    public var alarm: Alarm
    public var item: ItemSummary

    /// The start (events) or due instant (reminders) of the occurrence the alarm belongs to;
    /// nil for an absolute alarm on a reminder without a due date.
    public var occurrenceStart: Instant?
    /// The occurrence's end, for events.
    public var occurrenceEnd: Instant?
    /// Firings of the same alarm in the minute before this one that were folded into it (a
    /// SECONDLY or MINUTELY series would otherwise notify every few seconds; see ``AlarmTimeline``).
    public var coalescedCount: Int = 0
    /// Set when this instance was answered on another device or client (``AlarmAnswers``): when.
    /// Such a firing is never delivered; only listings that ask for them see it.
    public var acknowledgedAt: Instant?
    /// Set when the item does not ring at all (cancelled, declined: ``AlarmDefaults/silence(of:)``).
    /// Such a firing is never delivered; only `chime alarms --all` lists it.
    public var silencedBecause: AlarmDefaults.Silence?

    public init(
        key: FiringKey, fireAt: Instant, alarm: Alarm, item: ItemSummary,
        occurrenceStart: Instant?, occurrenceEnd: Instant?
    ) {
        self.key = key
        self.fireAt = fireAt
        self.alarm = alarm
        self.item = item
        self.occurrenceStart = occurrenceStart
        self.occurrenceEnd = occurrenceEnd
    }
}

/// What a notification or a preview line shows about the item an alarm belongs to.
public struct ItemSummary: Hashable, Sendable {
    public enum Kind: String, Hashable, Sendable { case event, reminder }

    // Stored words first, the one-byte fields last: the daemon keeps one of these per alarm.
    public var identifier: String
    /// The item's iCalendar UID, the same on every machine (the identifier is this store's).
    public var uid = ""
    public var title: String
    public var notes: String?
    public var location: String?
    /// The item's URL as stored (RFC 5545 URL): any text, from anywhere. Only the scheduler's
    /// ``OpenableURL`` check decides whether a notification may open it.
    public var url: String?
    /// Reminders: 0 none, 1–4 high, 5 medium, 6–9 low (RFC 5545 PRIORITY).
    public var priority: Int
    /// A detached event's scheduled start, the one it replaced (its reference keeps it); nil otherwise.
    public var scheduledOccurrence: Instant?
    public var kind: Kind
    public var isAllDay: Bool
    /// Events: one occurrence of a series (or a detached, moved one), named `ID@occurrence`.
    public var isRecurring = false

    public init(
        identifier: String, kind: Kind, title: String, notes: String? = nil, location: String? = nil,
        isAllDay: Bool = false, priority: Int = 0, url: String? = nil
    ) {
        self.identifier = identifier
        self.kind = kind
        self.title = title
        self.notes = notes
        self.location = location
        self.isAllDay = isAllDay
        self.priority = priority
        self.url = url
    }

    public init(_ event: Event) {
        self.init(
            identifier: event.identifier, kind: .event, title: event.title, notes: event.notes,
            location: event.location, isAllDay: event.isAllDay, url: event.url)
        uid = event.externalIdentifier
        isRecurring = event.isRecurring || event.isDetached
        if event.isDetached { scheduledOccurrence = event.occurrenceDate }
    }

    public init(_ reminder: Reminder) {
        self.init(
            identifier: reminder.identifier, kind: .reminder, title: reminder.title, notes: reminder.notes,
            location: reminder.location, isAllDay: reminder.dueDate?.isAllDay ?? false, priority: reminder.priority,
            url: reminder.url)
        uid = reminder.externalIdentifier
    }

    /// RFC 5545 priorities 1–4 are "high": their reminders notify as critical.
    public var isHighPriority: Bool { kind == .reminder && (1...4).contains(priority) }
}
