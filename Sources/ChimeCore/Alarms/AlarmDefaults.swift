/// When alarms fire that have no time of their own, as calendar apps do it: a reminder with a due
/// date and no timed alarm fires at its due time (Apple Reminders, Google Tasks), and alarms of
/// all-day items count from a time of day instead of midnight (a `-1d` alarm on a birthday fires
/// at 09:00 the day before, not at midnight).
///
/// ```swift
/// var defaults = AlarmDefaults()
/// defaults.allDayTimeOfDay = 8 * 3600          // all-day alarms at 08:00
/// var agenda = AlarmAgenda(zone: zone, from: now, defaults: defaults)
/// ```
public struct AlarmDefaults: Hashable, Sendable {
    /// A reminder with a due (or start) date, no alarm of its own (a location alarm counts: the
    /// user chose where to be reminded) and no opt-out fires at that time;
    /// an all-day due date fires at ``allDayTimeOfDay``.
    public var remindersFireAtDue = true
    /// Seconds after local midnight from which relative alarms of all-day items count (default 09:00).
    public var allDayTimeOfDay: Int64 = 9 * 3600

    /// Who the user is, to tell their answer to an invitation (empty: nobody knows, so
    /// invitations ring as any event does).
    public var identity = Identity()
    /// Which invitations ring: all but the declined (default), or only the accepted.
    public var invitations = InvitationAlarms.all

    public enum InvitationAlarms: String, Hashable, Sendable, CaseIterable { case all, accepted }

    public init() {}

    /// Why an item's alarms stay silent (``silence(of:)``).
    public enum Silence: String, Hashable, Sendable {
        /// `STATUS:CANCELLED`: the organiser called it off (or a to-do was cancelled).
        case cancelled
        /// The user declined the invitation.
        case declined
        /// The user handed the invitation to someone else.
        case delegated
        /// `invitations = "accepted"` and the user has not accepted (yet).
        case notAccepted = "not-accepted"
    }

    /// Why an item's alarms do not ring, or nil when they do: never for a cancelled event,
    /// occurrence or to-do, nor for an invitation the user declined (or, with `invitations =
    /// accepted`, did not accept). Decided per item, so an override decides for its own occurrence.
    ///
    /// ```swift
    /// defaults.identity = Identity(["ana@example.org"])
    /// defaults.silence(of: .event(declinedMeeting))   // .declined
    /// ```
    public func silence(of item: AnyCalendarItem) -> Silence? {
        if item.base.isCancelled { return .cancelled }
        guard let answer = item.base.answer(of: identity) else { return nil }
        switch (answer, invitations) {
        case (.declined, _): return .declined
        case (.delegated, _): return .delegated
        case (.accepted, _), (.completed, _), (.inProcess, _): return nil
        case (.needsAction, .all), (.tentative, .all): return nil
        case (.needsAction, .accepted), (.tentative, .accepted): return .notAccepted
        }
    }

    /// Whether an item's alarms may ring at all (no ``silence(of:)``).
    ///
    /// ```swift
    /// defaults.rings(.event(declinedMeeting))   // false
    /// ```
    public func rings(_ item: AnyCalendarItem) -> Bool { silence(of: item) == nil }

    /// The settings that keep the RFC 5545 reading: no implicit alarm, all-day alarms from midnight.
    public static let literal: AlarmDefaults = {
        var d = AlarmDefaults()
        d.remindersFireAtDue = false
        d.allDayTimeOfDay = 0
        return d
    }()

    /// The iCalendar line that marks a reminder as "no alarm, not even at the due time" (kept
    /// through export, import and sync; other clients ignore an unknown X- property).
    public static let noAlarmMarker = "X-CHIME-NO-ALARM:TRUE"

    /// The alarm a reminder without a timed alarm of its own fires, if any.
    public func implicitAlarm(for reminder: Reminder) -> Alarm? {
        guard remindersFireAtDue, reminder.dueDate ?? reminder.startDate != nil,
            reminder.alarms.isEmpty,
            !reminder.icsExtras.contains(Self.noAlarmMarker)
        else { return nil }
        return .relative(0)
    }
}
