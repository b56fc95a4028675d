/// The calendar a rule counts its years, months and days in (RFC 7529 `RSCALE`).
///
/// A rule with a calendar repeats on dates of that calendar: a Chinese yearly rule on the same
/// lunar month and day each year, a Hebrew one on the same Hebrew date. Instances are computed
/// in the calendar, then placed on the wall clock of the event's zone like any other instance.
///
/// ```swift
/// let birthday = try RecurrenceRule(parsing: "RSCALE=CHINESE;FREQ=YEARLY")
/// birthday.calendar        // .chinese
/// RecurrenceCalendar(rfc7529: "islamic-civil")   // .islamicCivil
/// ```
public enum RecurrenceCalendar: String, CaseIterable, Sendable {
    case gregorian = "GREGORIAN"
    case chinese = "CHINESE"
    case dangi = "DANGI"
    case hebrew = "HEBREW"
    case islamic = "ISLAMIC"
    case islamicCivil = "ISLAMIC-CIVIL"
    case islamicTabular = "ISLAMIC-TBLA"
    case islamicUmmAlQura = "ISLAMIC-UMALQURA"
    case ethiopic = "ETHIOPIC"
    case ethiopicAmeteAlem = "ETHIOAA"
    case coptic = "COPTIC"
    case persian = "PERSIAN"
    case indian = "INDIAN"

    /// The `RSCALE` value (a CLDR calendar name, upper case).
    public var rfc7529: String { rawValue }

    /// Reads an `RSCALE` value, in any case. `GREGORY` (CLDR's short name) is Gregorian and
    /// `ETHIOPIC-AMETE-ALEM` is `ETHIOAA`.
    public init?(rfc7529 text: some StringProtocol) {
        let name = text.uppercased()
        switch name {
        case "GREGORY": self = .gregorian
        case "ETHIOPIC-AMETE-ALEM": self = .ethiopicAmeteAlem
        default:
            guard let calendar = Self(rawValue: name) else { return nil }
            self = calendar
        }
    }

    /// The calendar's name in English, for summaries ("yearly on the Chinese calendar").
    public var name: String {
        switch self {
        case .gregorian: return "Gregorian"
        case .chinese: return "Chinese"
        case .dangi: return "Korean (Dangi)"
        case .hebrew: return "Hebrew"
        case .islamic: return "Islamic"
        case .islamicCivil: return "Islamic civil"
        case .islamicTabular: return "Islamic tabular"
        case .islamicUmmAlQura: return "Islamic Umm al-Qura"
        case .ethiopic: return "Ethiopic"
        case .ethiopicAmeteAlem: return "Ethiopic Amete Alem"
        case .coptic: return "Coptic"
        case .persian: return "Persian"
        case .indian: return "Indian national"
        }
    }

    /// Whether some years have a leap month, written `BYMONTH=5L`.
    public var hasLeapMonths: Bool { self == .chinese || self == .dangi || self == .hebrew }

    /// The highest ordinary month number (Ethiopic and Coptic have a 13th month of 5 or 6 days).
    public var monthsInYear: Int {
        switch self {
        case .ethiopic, .ethiopicAmeteAlem, .coptic: return 13
        default: return 12
        }
    }

    /// The longest year in days (a Chinese or Hebrew leap year has 383–385 days).
    var longestYear: Int { hasLeapMonths ? 385 : 366 }

    /// The calendar names `--calendar-system` and the RSCALE reader accept, for messages.
    public static let namesForHelp = allCases.map { $0.rawValue.lowercased() }.joined(separator: ", ")

    /// What to say when a name is not a calendar: "lunar" means different calendars to different
    /// people, so the message names the ones it may mean.
    public static func unknownNameHint(_ name: String) -> String {
        switch name.lowercased() {
        case "lunar", "lunisolar", "nongli", "农历", "陰暦", "음력":
            return "\"\(name)\" could be several calendars: chinese (农历), dangi (Korean 음력), hebrew, or islamic-umalqura"
        case "jewish": return "\"\(name)\" is called hebrew here"
        case "hijri", "muslim": return "\"\(name)\" is one of islamic-umalqura (Saudi Arabia's), islamic-civil or islamic"
        case "korean": return "\"\(name)\" is called dangi here"
        default: return "\"\(name)\" is not a calendar Chime knows; use one of \(namesForHelp)"
        }
    }
}

/// What a rule does with a date its calendar does not have in some year (RFC 7529 `SKIP`):
/// the 30th of a 29-day month, a leap month in a common year, 29 February in 2027.
///
/// ```swift
/// try RecurrenceRule(parsing: "RSCALE=GREGORIAN;FREQ=YEARLY;SKIP=FORWARD").skip   // .forward
/// ```
public enum RecurrenceSkip: String, CaseIterable, Sendable {
    /// Leave that year or month out (RFC 5545's behaviour, the default).
    case omit = "OMIT"
    /// Use the last valid day or month before it (the 28th for 29 February; 5 for `5L`).
    case backward = "BACKWARD"
    /// Use the first valid day or month after it (1 March for 29 February; 6 for `5L`).
    case forward = "FORWARD"
}

/// A month of a calendar's year as RFC 7529 numbers it: `5`, or the leap month `5L` that
/// follows month 5 in the years that have it. Hebrew Adar I is `5L`, Adar (Adar II) is `6`.
struct CalendarMonthCode: Hashable, Comparable, Sendable, CustomStringConvertible {
    var number: Int
    var leap: Bool

    static func < (a: Self, b: Self) -> Bool { (a.number, a.leap ? 1 : 0) < (b.number, b.leap ? 1 : 0) }

    var description: String { leap ? "\(number)L" : String(number) }
}

/// A day as a calendar writes it: year, month (numbered as RFC 7529 does, `isLeapMonth` for
/// `5L`) and day of the month.
///
/// ```swift
/// RecurrenceCalendar.chinese.date(of: CivilDate(year: 2026, month: 9, day: 25))
/// // year 43 (of the 60-year cycle), month 8, day 15: Mid-Autumn
/// ```
public struct CalendarSystemDate: Hashable, Sendable {
    /// The year as the calendar counts it (Chinese and Dangi: the year of the 60-year cycle).
    public var year: Int
    public var month: Int
    public var isLeapMonth: Bool
    public var day: Int
    /// Whether this year has a leap month (then Hebrew month 6 is Adar II).
    public var yearHasLeapMonth: Bool
}

extension RecurrenceCalendar {
    /// The date of `day` in this calendar; nil outside 1582–9999.
    public func date(of day: CivilDate) -> CalendarSystemDate? {
        let days = day.daysSinceEpoch
        guard let table = CalendarYears.year(containing: days, of: self) else { return nil }
        let month = table.months[table.monthIndex(containing: days)]
        var year = table.year
        if self == .chinese || self == .dangi { year = (year - 1) % 60 + 1 }
        return CalendarSystemDate(
            year: year, month: month.code.number, isLeapMonth: month.code.leap, day: days - month.first + 1,
            yearHasLeapMonth: table.months.contains { $0.code.leap })
    }
}
