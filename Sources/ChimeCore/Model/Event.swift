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
    /// What every occurrence of a series shares, held once and copied on the first change to a
    /// shared copy: a one-year query builds 170,000 occurrences, and copying fifteen fields (a
    /// dozen references to retain) for each was most of its time.
    private var shared: SeriesFields

    public package(set) var identifier: String {
        get { shared.fields.identifier }
        _modify { unshare(); yield &shared.fields.identifier }
    }
    public var calendarIdentifier: String? {
        get { shared.fields.calendarIdentifier }
        _modify { unshare(); yield &shared.fields.calendarIdentifier }
    }
    public var externalIdentifier: String {
        get { shared.fields.externalIdentifier }
        _modify { unshare(); yield &shared.fields.externalIdentifier }
    }
    public var title: String {
        get { shared.fields.title }
        _modify { unshare(); yield &shared.fields.title }
    }
    public var notes: String? {
        get { shared.fields.notes }
        _modify { unshare(); yield &shared.fields.notes }
    }
    public var url: String? {
        get { shared.fields.url }
        _modify { unshare(); yield &shared.fields.url }
    }
    public var location: String? {
        get { shared.fields.location }
        _modify { unshare(); yield &shared.fields.location }
    }
    public var alarms: [Alarm] {
        get { shared.fields.alarms }
        _modify { unshare(); yield &shared.fields.alarms }
    }
    public var recurrenceRules: [RecurrenceRule] {
        get { shared.fields.recurrenceRules }
        _modify { unshare(); yield &shared.fields.recurrenceRules }
    }
    /// Extra dates of the series (RDATE).
    public var recurrenceDates: [RecurrenceDate] {
        get { shared.fields.recurrenceDates }
        _modify { unshare(); yield &shared.fields.recurrenceDates }
    }
    /// Dates removed from the series (EXDATE); `remove(_, span: .thisEvent)` adds to them.
    public var exceptionDates: [RecurrenceDate] {
        get { shared.fields.exceptionDates }
        _modify { unshare(); yield &shared.fields.exceptionDates }
    }
    public var start: CalendarDate
    /// Exclusive end, the same kind of value as `start`.
    public var end: CalendarDate
    public var creationDate: Instant? {
        get { shared.fields.creationDate }
        _modify { unshare(); yield &shared.fields.creationDate }
    }
    public var lastModifiedDate: Instant? {
        get { shared.fields.lastModifiedDate }
        _modify { unshare(); yield &shared.fields.lastModifiedDate }
    }
    /// For a fetched occurrence: the instant the series scheduled it at. Nil for a new event.
    public var occurrenceDate: Instant?
    /// True for an occurrence that was changed on its own (a detached occurrence).
    public var isDetached: Bool
    /// iCalendar SEQUENCE: the revision number an importer compares.
    public var sequence: Int {
        get { shared.fields.sequence }
        _modify { unshare(); yield &shared.fields.sequence }
    }
    /// iCalendar content lines Chime does not model (unknown properties, parameters' owners and
    /// components), kept verbatim (unfolded) so an export writes them back.
    public var icsExtras: [String] {
        get { shared.fields.icsExtras }
        _modify { unshare(); yield &shared.fields.icsExtras }
    }

    public init(
        identifier: String = newIdentifier(), title: String, calendar: String? = nil,
        start: CalendarDate, end: CalendarDate
    ) {
        shared = SeriesFields(
            StoredFields(
                identifier: identifier, calendarIdentifier: calendar, externalIdentifier: identifier, title: title, notes: nil,
                url: nil, location: nil, alarms: [], recurrenceRules: [], recurrenceDates: [], exceptionDates: [],
                creationDate: nil, lastModifiedDate: nil, sequence: 0, icsExtras: []))
        self.start = start
        self.end = end
        self.occurrenceDate = nil
        self.isDetached = false
    }

    /// Every field an occurrence shares with its series, given at once.
    package struct StoredFields: Hashable, Sendable {
        package var identifier: String
        package var calendarIdentifier: String?
        package var externalIdentifier: String
        package var title: String
        package var notes: String?
        package var url: String?
        package var location: String?
        package var alarms: [Alarm]
        package var recurrenceRules: [RecurrenceRule]
        package var recurrenceDates: [RecurrenceDate]
        package var exceptionDates: [RecurrenceDate]
        package var creationDate: Instant?
        package var lastModifiedDate: Instant?
        package var sequence: Int
        package var icsExtras: [String]

        package init(
            identifier: String, calendarIdentifier: String?, externalIdentifier: String, title: String, notes: String?,
            url: String?, location: String?, alarms: [Alarm], recurrenceRules: [RecurrenceRule],
            recurrenceDates: [RecurrenceDate], exceptionDates: [RecurrenceDate], creationDate: Instant?,
            lastModifiedDate: Instant?, sequence: Int, icsExtras: [String]
        ) {
            self.identifier = identifier
            self.calendarIdentifier = calendarIdentifier
            self.externalIdentifier = externalIdentifier
            self.title = title
            self.notes = notes
            self.url = url
            self.location = location
            self.alarms = alarms
            self.recurrenceRules = recurrenceRules
            self.recurrenceDates = recurrenceDates
            self.exceptionDates = exceptionDates
            self.creationDate = creationDate
            self.lastModifiedDate = lastModifiedDate
            self.sequence = sequence
            self.icsExtras = icsExtras
        }
    }

    /// An event as a store reads one, every field given at once: a query builds thousands, and
    /// setting its shared fields one at a time checked their sharing for each.
    ///
    /// ```swift
    /// let event = Event(stored: fields, start: start, end: end, occurrenceDate: nil, isDetached: false)
    /// ```
    package init(stored fields: StoredFields, start: CalendarDate, end: CalendarDate, occurrenceDate: Instant?, isDetached: Bool) {
        shared = SeriesFields(fields)
        self.start = start
        self.end = end
        self.occurrenceDate = occurrenceDate
        self.isDetached = isDetached
    }

    /// Gives this value its own ``SeriesFields`` before one of them changes.
    private mutating func unshare() {
        if !isKnownUniquelyReferenced(&shared) { shared = shared.copy() }
    }

    public static func == (a: Event, b: Event) -> Bool {
        a.start == b.start && a.end == b.end && a.occurrenceDate == b.occurrenceDate && a.isDetached == b.isDetached
            && (a.shared === b.shared || a.shared.fields == b.shared.fields)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(start)
        hasher.combine(end)
        hasher.combine(occurrenceDate)
        hasher.combine(isDetached)
        hasher.combine(shared.fields)
    }

    /// An event lasting `duration` seconds (days of 86,400 s for all-day events).
    public init(
        identifier: String = newIdentifier(), title: String, calendar: String? = nil,
        start: CalendarDate, duration: Int64
    ) {
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

    /// Throws when the event cannot be saved as it is; without `requiringCalendar`, whether it
    /// could be once a calendar is chosen (a file's item, before its import chooses one).
    ///
    /// ```swift
    /// try item.validate(requiringCalendar: false)   // what the file says is storable
    /// ```
    public func validate(requiringCalendar: Bool = true) throws(ItemValidationError) {
        guard calendarIdentifier != nil || !requiringCalendar else { throw .missingCalendar }
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

/// ``Event``'s fields that are the same for every occurrence of a series. Only ever changed
/// through an `Event` that holds the sole reference (see `Event.unshare()`), so sharing it
/// between values, and threads, is safe.
private final class SeriesFields: @unchecked Sendable {
    /// One value, not fifteen properties: built and copied in one move, compared and hashed as
    /// one (a class's stored properties set one by one each took an exclusivity check).
    var fields: Event.StoredFields

    init(_ fields: Event.StoredFields) {
        self.fields = fields
    }

    func copy() -> SeriesFields { SeriesFields(fields) }
}
