/// An event (EventKit's `EKEvent`): a start and an end, maybe all-day, maybe recurring.
///
/// The end is exclusive, as iCalendar's DTEND: an all-day event on 24 December has start
/// `.allDay(2026-12-24)` and end `.allDay(2026-12-25)`.
///
/// Events fetched with a date-range query are *occurrences*: `start`/`end` are those of the
/// occurrence and `occurrenceDate` is the instant the series originally scheduled it at (its
/// iCalendar RECURRENCE-ID). Saving an occurrence with a ``Span`` edits one or all future ones.
///
/// ```swift
/// var standUp = Event(title: "Stand-up", calendar: work.identifier,
///                     start: .zoned(LocalDateTime(year: 2026, month: 11, day: 23, hour: 9), try .named("Europe/Berlin")),
///                     duration: 15 * 60)
/// standUp.recurrenceRules = [try RecurrenceRule(parsing: "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR")]
/// standUp.alarms = [.relative(-5 * 60)]
/// try store.save(standUp, span: .thisEvent)
/// ```
public struct Event: CalendarItem {
    public package(set) var identifier: String
    public var calendarIdentifier: String?
    public var externalIdentifier: String
    public var title: String
    public var notes: String?
    public var url: String?
    public var location: String?
    public var alarms: [Alarm]
    public var recurrenceRules: [RecurrenceRule]
    /// Extra dates of the series (RDATE).
    public var recurrenceDates: [RecurrenceDate]
    /// Dates removed from the series (EXDATE); `remove(_, span: .thisEvent)` adds to them.
    public var exceptionDates: [RecurrenceDate]
    public var start: CalendarDate
    /// Exclusive end, the same kind of value as `start`.
    public var end: CalendarDate
    public var creationDate: Instant?
    public var lastModifiedDate: Instant?
    /// For a fetched occurrence: the instant the series scheduled it at. Nil for a new event.
    public var occurrenceDate: Instant?
    /// True for an occurrence that was changed on its own (a detached occurrence).
    public var isDetached: Bool
    /// iCalendar SEQUENCE: the revision number an importer compares.
    public var sequence: Int = 0
    /// iCalendar content lines Chime does not model (unknown properties, parameters' owners and
    /// components), kept verbatim (unfolded) so an export writes them back.
    public var icsExtras: [String] = []

    public init(identifier: String = newIdentifier(), title: String, calendar: String? = nil,
                start: CalendarDate, end: CalendarDate) {
        self.identifier = identifier
        self.calendarIdentifier = calendar
        self.externalIdentifier = identifier
        self.title = title
        self.notes = nil
        self.url = nil
        self.location = nil
        self.alarms = []
        self.recurrenceRules = []
        self.recurrenceDates = []
        self.exceptionDates = []
        self.start = start
        self.end = end
        self.creationDate = nil
        self.lastModifiedDate = nil
        self.occurrenceDate = nil
        self.isDetached = false
    }

    /// An event lasting `duration` seconds (days of 86,400 s for all-day events).
    public init(identifier: String = newIdentifier(), title: String, calendar: String? = nil,
                start: CalendarDate, duration: Int64) {
        let end: CalendarDate
        if case .allDay(let d) = start {
            end = .allDay(d.adding(days: max(1, Int(duration / 86_400))))
        } else {
            end = start.with(local: LocalDateTime(localSeconds: start.local.localSeconds + duration))
        }
        self.init(identifier: identifier, title: title, calendar: calendar, start: start, end: end)
    }

    public var isAllDay: Bool { start.isAllDay }
    public var timeZone: ZoneRules? { start.timeZone }

    /// The recurrence set this event's rules, RDATEs and EXDATEs describe.
    public var recurrenceSet: RecurrenceSet {
        RecurrenceSet(start: start, rules: recurrenceRules, dates: recurrenceDates, exceptionDates: exceptionDates)
    }

    /// Seconds from start to end, read on `floatingZone` (whole days for all-day events).
    public func durationSeconds(floatingZone: ZoneRules) -> Int64 {
        if case .allDay(let s) = start, case .allDay(let e) = end {
            return Int64(e.daysSinceEpoch - s.daysSinceEpoch) * 86_400
        }
        return end.instant(floatingZone: floatingZone).secondsSince1970 - start.instant(floatingZone: floatingZone).secondsSince1970
    }

    /// True for a series: it has recurrence rules or extra dates (a detached occurrence is not).
    public var isRecurring: Bool { !isDetached && (!recurrenceRules.isEmpty || !recurrenceDates.isEmpty) }

    /// This event as the occurrence that starts at `instant` and lasts `duration` seconds
    /// (whole days for all-day events), its wall times on the event's own clock.
    public func occurrence(at instant: Instant, duration: Int64, floatingZone: ZoneRules) -> Event {
        var e = self
        e.occurrenceDate = instant
        if case .allDay = start {
            let day = floatingZone.localTime(at: instant).date
            e.start = .allDay(day)
            e.end = .allDay(day.adding(days: Int(duration / 86_400)))
        } else {
            e.start = start.with(instant: instant, floatingZone: floatingZone)
            e.end = end.with(instant: Instant(secondsSince1970: instant.secondsSince1970 + duration), floatingZone: floatingZone)
        }
        return e
    }

    /// Throws when the event cannot be saved as it is.
    public func validate() throws(ItemValidationError) {
        guard calendarIdentifier != nil else { throw .missingCalendar }
        guard start.isAllDay == end.isAllDay else { throw .mixedAllDay }
        try WritableYears.check(start, field: "start")
        try WritableYears.check(end, field: "end")
        for d in recurrenceDates { try WritableYears.check(d, field: "recurrence date") }
        for d in exceptionDates { try WritableYears.check(d, field: "exception date") }
        for rule in recurrenceRules { try rule.checkWritableYears() }
        if end.instant(floatingZone: .utc) < start.instant(floatingZone: .utc) {
            throw .endBeforeStart(start: start.storageText, end: end.storageText)
        }
        for alarm in alarms { try alarm.validate() }
    }
}

extension String {
    var trimmingWhitespace: Substring {
        var s = self[...]
        while let c = s.first, c.isWhitespace { s.removeFirst() }
        while let c = s.last, c.isWhitespace { s.removeLast() }
        return s
    }
}
