/// A reminder (EventKit's `EKReminder`): a to-do with optional start and due dates.
///
/// A recurring reminder shows only its first incomplete instance: `dueDate` is that instance's
/// due date. Setting `isCompleted = true` and saving records a completed copy of the instance
/// (its own identifier, ``seriesIdentifier`` pointing at the series) and moves the series on to
/// its next occurrence. The store sets `completionDate` from its clock when you leave it nil.
///
/// ```swift
/// var milk = Reminder(title: "Buy milk", calendar: groceries.identifier)
/// milk.dueDate = .floating(LocalDateTime(year: 2026, month: 11, day: 23, hour: 18))
/// milk.priority = 1
/// try store.save(milk)
/// milk.isCompleted = true
/// try store.save(milk)
/// ```
public struct Reminder: CalendarItem {
    public package(set) var identifier: String
    public var calendarIdentifier: String?
    public var externalIdentifier: String
    public var title: String
    public var notes: String?
    public var url: String?
    public var location: String?
    public var alarms: [Alarm]
    public var recurrenceRules: [RecurrenceRule]
    public var startDate: CalendarDate?
    public var dueDate: CalendarDate?
    /// 0 = none; 1 (highest) … 9 (lowest), as iCalendar PRIORITY.
    public var priority: Int
    public var isCompleted: Bool
    public var completionDate: Instant?
    public var creationDate: Instant?
    public var lastModifiedDate: Instant?
    /// For the completed copy of one instance of a recurring reminder: the series it came from.
    public package(set) var seriesIdentifier: String?
    /// iCalendar SEQUENCE: the revision number an importer compares.
    public var sequence: Int = 0
    /// The store's revision of the row this copy was read from (nil for a reminder not read from
    /// a store). Saving a copy whose revision is no longer the stored one, in a way that would
    /// complete it or move its due date, fails with `StoreError.changedSinceRead` instead of
    /// undoing the other change.
    public package(set) var storeRevision: Int64? = nil
    /// iCalendar content lines Chime does not model (unknown properties, parameters' owners and
    /// components), kept verbatim (unfolded) so an export writes them back.
    public var icsExtras: [String] = []

    public init(identifier: String = newIdentifier(), title: String, calendar: String? = nil) {
        self.identifier = identifier
        self.calendarIdentifier = calendar
        self.externalIdentifier = identifier
        self.title = title
        self.notes = nil
        self.url = nil
        self.location = nil
        self.alarms = []
        self.recurrenceRules = []
        self.startDate = nil
        self.dueDate = nil
        self.priority = 0
        self.isCompleted = false
        self.completionDate = nil
        self.creationDate = nil
        self.lastModifiedDate = nil
        self.seriesIdentifier = nil
    }

    public var timeZone: ZoneRules? { dueDate?.timeZone ?? startDate?.timeZone }

    /// The date a recurrence is anchored on: the due date, else the start date.
    public var recurrenceAnchor: CalendarDate? { dueDate ?? startDate }

    /// Throws when the reminder cannot be saved as it is; without `requiringCalendar`, whether it
    /// could be once a calendar is chosen (a file's item, before its import chooses one).
    ///
    /// ```swift
    /// try item.validate(requiringCalendar: false)   // what the file says is storable
    /// ```
    public func validate(requiringCalendar: Bool = true) throws(ItemValidationError) {
        guard calendarIdentifier != nil || !requiringCalendar else { throw .missingCalendar }
        guard (0...9).contains(priority) else { throw .priorityOutOfRange(priority) }
        if let startDate { try WritableYears.check(startDate, field: "start") }
        if let dueDate { try WritableYears.check(dueDate, field: "due") }
        if let completionDate, !WritableYears.contains(completionDate) {
            throw .outsideWritableYears(field: "completion date", value: WritableYears.text(completionDate.utc) + "Z")
        }
        for rule in recurrenceRules { try rule.checkWritableYears() }
        if hasRecurrenceRules && recurrenceAnchor == nil { throw .recurrenceWithoutDate }
        if let s = startDate, let d = dueDate, d.instant(floatingZone: .utc) < s.instant(floatingZone: .utc) {
            throw .endBeforeStart(start: s.storageText, end: d.storageText)
        }
        for alarm in alarms { try alarm.validate() }
    }
}
