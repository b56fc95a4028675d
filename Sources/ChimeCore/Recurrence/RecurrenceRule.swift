/// How often a rule repeats (RFC 5545 FREQ). EventKit has only daily…yearly; Chime has all seven.
public enum RecurrenceFrequency: Int, CaseIterable, Sendable, Comparable {
    case secondly, minutely, hourly, daily, weekly, monthly, yearly

    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }

    public var rfc5545: String {
        ["SECONDLY", "MINUTELY", "HOURLY", "DAILY", "WEEKLY", "MONTHLY", "YEARLY"][rawValue]
    }

    public init?(rfc5545 text: some StringProtocol) {
        guard let f = Self.allCases.first(where: { $0.rfc5545 == text.uppercased() }) else { return nil }
        self = f
    }
}

/// A weekday in a rule, optionally with an ordinal (`2MO` = second Monday, `-1FR` = last Friday).
///
/// Mirrors `EKRecurrenceDayOfWeek`: `weekNumber` 0 means every such weekday in the period.
///
/// ```swift
/// RecurrenceDayOfWeek(.friday, weekNumber: -1)   // -1FR
/// RecurrenceDayOfWeek(.monday)                   // MO
/// ```
public struct RecurrenceDayOfWeek: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var dayOfTheWeek: Weekday
    public var weekNumber: Int

    public init(_ day: Weekday, weekNumber: Int = 0) {
        self.dayOfTheWeek = day
        self.weekNumber = weekNumber
    }

    public var description: String { (weekNumber == 0 ? "" : String(weekNumber)) + dayOfTheWeek.rfc5545 }

    public static func < (a: Self, b: Self) -> Bool {
        (a.weekNumber, a.dayOfTheWeek.isoIndex) < (b.weekNumber, b.dayOfTheWeek.isoIndex)
    }
}

/// The value of UNTIL: a date, a UTC date-time (`…Z`), or a local date-time (read in DTSTART's zone).
public enum RecurrenceUntil: Hashable, Sendable, CustomStringConvertible {
    case date(CivilDate)
    case utc(Instant)
    case local(LocalDateTime)

    public var description: String {
        switch self {
        case .date(let d): return d.basicFormat
        case .utc(let i): return i.utcBasicFormat
        case .local(let l): return l.basicFormat
        }
    }
}

/// When a rule stops (EventKit's `EKRecurrenceEnd`, plus "never").
public enum RecurrenceEnd: Hashable, Sendable {
    case never
    /// At most this many instances, DTSTART included (RFC 5545 COUNT).
    case count(Int)
    /// No instance after this value (inclusive, RFC 5545 UNTIL).
    case until(RecurrenceUntil)
}

/// An RFC 5545 recurrence rule (RRULE), with every rule part.
///
/// Create one by parsing text or with the EventKit-shaped initialisers; both validate, so a
/// `RecurrenceRule` value can always be expanded. BY-lists are kept sorted and de-duplicated, so
/// two rules that mean the same are equal and `format` is canonical.
///
/// ```swift
/// let lastFriday = try RecurrenceRule(parsing: "FREQ=MONTHLY;BYDAY=-1FR")
/// let weekly = try RecurrenceRule(.weekly, interval: 2, end: .count(10))
/// weekly.rfc5545   // "FREQ=WEEKLY;COUNT=10;INTERVAL=2"
/// ```
public struct RecurrenceRule: Hashable, Sendable, CustomStringConvertible {
    public internal(set) var frequency: RecurrenceFrequency
    public internal(set) var interval: Int
    public internal(set) var end: RecurrenceEnd
    public internal(set) var bySecond: [Int]
    public internal(set) var byMinute: [Int]
    public internal(set) var byHour: [Int]
    public internal(set) var daysOfTheWeek: [RecurrenceDayOfWeek]
    public internal(set) var daysOfTheMonth: [Int]
    public internal(set) var daysOfTheYear: [Int]
    public internal(set) var weeksOfTheYear: [Int]
    public internal(set) var monthsOfTheYear: [Int]
    public internal(set) var setPositions: [Int]
    /// WKST; `nil` when the rule does not say (Monday applies, as RFC 5545 specifies).
    public internal(set) var firstDayOfTheWeek: Weekday?
    /// Leap months named in BYMONTH (`5L` is 5 here), in calendars that have them (RFC 7529).
    public internal(set) var leapMonthsOfTheYear: [Int]
    /// RSCALE: the calendar the rule counts in; `nil` for a plain RFC 5545 (Gregorian) rule.
    public internal(set) var calendar: RecurrenceCalendar?
    /// SKIP: what happens to a date the calendar lacks in some year or month (RFC 7529).
    public internal(set) var skip: RecurrenceSkip

    /// The week start in effect (WKST, default Monday).
    public var weekStart: Weekday { firstDayOfTheWeek ?? .monday }

    /// EventKit's simple form: `EKRecurrenceRule(recurrenceWith:interval:end:)`.
    public init(_ frequency: RecurrenceFrequency, interval: Int = 1, end: RecurrenceEnd = .never) throws(RecurrenceRuleError) {
        try self.init(frequency, interval: interval, daysOfTheWeek: [], end: end)
    }

    /// EventKit's complex form, plus the sub-daily parts EventKit lacks and RFC 7529's calendar,
    /// skip and leap months.
    ///
    /// ```swift
    /// // The last weekday of every month:
    /// try RecurrenceRule(.monthly, daysOfTheWeek: [.init(.monday), .init(.tuesday), .init(.wednesday),
    ///                    .init(.thursday), .init(.friday)], setPositions: [-1])
    /// // Every year on the 15th of the 8th Chinese month (Mid-Autumn):
    /// try RecurrenceRule(.yearly, daysOfTheMonth: [15], monthsOfTheYear: [8], calendar: .chinese)
    /// ```
    public init(
        _ frequency: RecurrenceFrequency,
        interval: Int = 1,
        daysOfTheWeek: [RecurrenceDayOfWeek] = [],
        daysOfTheMonth: [Int] = [],
        monthsOfTheYear: [Int] = [],
        weeksOfTheYear: [Int] = [],
        daysOfTheYear: [Int] = [],
        setPositions: [Int] = [],
        hours: [Int] = [],
        minutes: [Int] = [],
        seconds: [Int] = [],
        end: RecurrenceEnd = .never,
        firstDayOfTheWeek: Weekday? = nil,
        calendar: RecurrenceCalendar? = nil,
        skip: RecurrenceSkip = .omit,
        leapMonthsOfTheYear: [Int] = []
    ) throws(RecurrenceRuleError) {
        self.frequency = frequency
        self.interval = interval
        self.end = end
        self.bySecond = Self.normalized(seconds)
        self.byMinute = Self.normalized(minutes)
        self.byHour = Self.normalized(hours)
        self.daysOfTheWeek = Array(Set(daysOfTheWeek)).sorted()
        self.daysOfTheMonth = Self.normalized(daysOfTheMonth)
        self.daysOfTheYear = Self.normalized(daysOfTheYear)
        self.weeksOfTheYear = Self.normalized(weeksOfTheYear)
        self.monthsOfTheYear = Self.normalized(monthsOfTheYear)
        self.setPositions = Self.normalized(setPositions)
        self.firstDayOfTheWeek = firstDayOfTheWeek
        self.calendar = calendar
        self.skip = skip
        self.leapMonthsOfTheYear = Self.normalized(leapMonthsOfTheYear)
        try validate()
    }

    static func normalized(_ values: [Int]) -> [Int] { Array(Set(values)).sorted() }

    /// Whether instances are computed in ``calendar``'s months and years (with SKIP) rather than
    /// by the Gregorian engine: a client without RFC 7529 would read such a rule otherwise.
    /// `RSCALE=GREGORIAN` with `SKIP=OMIT` is plain RFC 5545, and week numbers exist only there.
    ///
    /// ```swift
    /// try RecurrenceRule(parsing: "RSCALE=HEBREW;FREQ=YEARLY").countsInCalendar   // true
    /// ```
    public var countsInCalendar: Bool {
        guard let calendar else { return false }
        return calendar != .gregorian || (skip != .omit && weeksOfTheYear.isEmpty)
    }

    /// BYMONTH as month codes: ordinary and leap months, in the calendar's order.
    var monthCodes: [CalendarMonthCode] {
        (monthsOfTheYear.map { CalendarMonthCode(number: $0, leap: false) }
            + leapMonthsOfTheYear.map { CalendarMonthCode(number: $0, leap: true) }).sorted()
    }

    public var description: String { rfc5545 }
}

extension RecurrenceRule {
    /// The same rule with another end (COUNT or UNTIL), validated.
    ///
    /// ```swift
    /// try RecurrenceRule(parsing: "FREQ=DAILY").with(end: .count(3)).rfc5545   // "FREQ=DAILY;COUNT=3"
    /// ```
    public func with(end newEnd: RecurrenceEnd) throws(RecurrenceRuleError) -> RecurrenceRule {
        var copy = self
        copy.end = newEnd
        try copy.validate()
        return copy
    }

    /// The same rule counted in another calendar (RFC 7529 RSCALE), with what happens to a date
    /// that calendar lacks in some years; validated (week numbers exist only in the Gregorian one).
    ///
    /// ```swift
    /// try RecurrenceRule(.yearly).counted(in: .chinese, skip: .backward).rfc5545
    /// // "RSCALE=CHINESE;FREQ=YEARLY;SKIP=BACKWARD"
    /// ```
    public func counted(in calendar: RecurrenceCalendar, skip: RecurrenceSkip = .omit) throws(RecurrenceRuleError) -> RecurrenceRule {
        var copy = self
        copy.calendar = calendar
        copy.skip = skip
        try copy.validate()
        return copy
    }
}
