import Foundation
import Synchronization

/// One month of a calendar year, on the Gregorian day line.
struct CalendarMonth: Hashable, Sendable {
    var code: CalendarMonthCode
    /// Days since 1970-01-01 of its first day.
    var first: Int
    var length: Int
}

/// The months of one year of a calendar, with their Gregorian days: everything the rule engine
/// needs from a calendar. Built once per calendar and year and kept for the process (the data
/// is fixed; it does not depend on the clock, the zone or the locale).
///
/// Gregorian and Hebrew years are computed here (``HebrewArithmetic``); the others come from
/// Foundation's `Calendar` (ICU on Linux), read only through day → (year, month, day)
/// conversions. Month codes, leap months and the months' lengths are worked out here from those
/// conversions, because Foundation's own answers are wrong in places: it moves an impossible
/// date into the next month without saying so, and for Hebrew numbers months 1–13 with Adar I as
/// 6 in every year, never marks the leap month, reports 13 months for some common years and (ICU
/// 72) starts the year 5807 a day late.
struct CalendarYear: Sendable {
    let calendar: RecurrenceCalendar
    /// The year on a continuous count (a Chinese year is cycles × 60 + year of the cycle).
    let year: Int
    let months: [CalendarMonth]
    /// The month count of this year's first month on a continuous scale, for INTERVAL.
    let firstMonthOrdinal: Int

    var first: Int { months[0].first }
    var length: Int { months[months.count - 1].first + months[months.count - 1].length - months[0].first }
    /// The day after the year's last day.
    var end: Int { first + length }

    func contains(day: Int) -> Bool { day >= first && day < end }

    /// The index of the month holding `day`, which must be in the year.
    func monthIndex(containing day: Int) -> Int {
        var i = months.count - 1
        while i > 0 && months[i].first > day { i -= 1 }
        return i
    }

    func month(_ code: CalendarMonthCode) -> CalendarMonth? { months.first { $0.code == code } }
}

/// Year tables per calendar, cached for the process.
enum CalendarYears {
    private struct Key: Hashable { let calendar: RecurrenceCalendar; let year: Int }
    private static let cache = Mutex<[Key: CalendarYear]>([:])

    /// The first and last days the engine works with (Gregorian 1583-01-01 … 9999-12-31, with
    /// room for a year either side): outside them a table is not built.
    static let supportedDays = CivilDate.days(year: 1582, month: 1, day: 1)...CivilDate.days(year: 10_001, month: 1, day: 1)

    /// The table of `year` (on the calendar's continuous count), or nil outside the days supported.
    static func year(_ year: Int, of calendar: RecurrenceCalendar) -> CalendarYear? {
        let key = Key(calendar: calendar, year: year)
        if let cached = cache.withLock({ $0[key] }) { return cached }
        let table: CalendarYear?
        switch calendar {
        case .gregorian: table = gregorianYear(year)
        case .hebrew: table = hebrewYear(year)
        default: table = foundationYear(year, of: calendar)
        }
        guard let built = table else { return nil }
        cache.withLock { $0[key] = built }
        return built
    }

    /// The table of the year holding `day`. `hint` (a table near the day, usually the last one
    /// used) saves a conversion: the year is found by stepping from it.
    static func year(containing day: Int, of calendar: RecurrenceCalendar, hint: CalendarYear? = nil) -> CalendarYear? {
        guard supportedDays.contains(day) else { return nil }
        var table: CalendarYear
        if let hint, hint.calendar == calendar, abs(day - hint.first) < 4 * 366 {
            table = hint
        } else if calendar == .gregorian {
            guard let t = year(CivilDate(daysSinceEpoch: day).year, of: calendar) else { return nil }
            table = t
        } else if calendar == .hebrew {
            // An estimate from the mean year; the steps below correct it.
            guard let t = year(Int(Double(day - HebrewArithmetic.epoch) / 365.2468) + 1, of: calendar) else { return nil }
            table = t
        } else {
            guard let fields = FoundationCalendars.fields(of: day, in: calendar),
                let t = year(fields.year, of: calendar)
            else { return nil }
            table = t
        }
        while day < table.first {
            guard let t = year(table.year - 1, of: calendar) else { return nil }
            table = t
        }
        while day >= table.end {
            guard let t = year(table.year + 1, of: calendar) else { return nil }
            table = t
        }
        return table
    }

    private static func gregorianYear(_ year: Int) -> CalendarYear? {
        guard (1582...10_000).contains(year) else { return nil }
        let months = (1...12).map { m in
            CalendarMonth(
                code: CalendarMonthCode(number: m, leap: false), first: CivilDate.days(year: year, month: m, day: 1),
                length: CivilDate.daysInMonth(year: year, month: m))
        }
        return CalendarYear(calendar: .gregorian, year: year, months: months, firstMonthOrdinal: year * 12)
    }

    /// A Hebrew year from the calendar's own arithmetic (``HebrewArithmetic``).
    private static func hebrewYear(_ year: Int) -> CalendarYear? {
        let first = HebrewArithmetic.newYear(year)
        guard supportedDays.contains(first) else { return nil }
        let length = HebrewArithmetic.newYear(year + 1) - first
        let leap = HebrewArithmetic.isLeap(year)
        // Heshvan and Kislev take the year's length: 29 and 29 (deficient), 29 and 30 (regular),
        // 30 and 30 (complete).
        let kind = length % 10  // 3, 4 or 5 for 353/383, 354/384, 355/385 days
        var lengths = [30, kind == 5 ? 30 : 29, kind == 3 ? 29 : 30, 29, 30]
        var codes = (1...5).map { CalendarMonthCode(number: $0, leap: false) }
        if leap {
            lengths.append(30)
            codes.append(CalendarMonthCode(number: 5, leap: true))
        }
        lengths += [29, 30, 29, 30, 29, 30, 29]
        codes += (6...12).map { CalendarMonthCode(number: $0, leap: false) }
        var months: [CalendarMonth] = []
        var day = first
        for (code, n) in zip(codes, lengths) {
            months.append(CalendarMonth(code: code, first: day, length: n))
            day += n
        }
        guard day == first + length else { return nil }
        return CalendarYear(
            calendar: .hebrew, year: year, months: months,
            firstMonthOrdinal: Int(floorDiv(Int64(235 * year - 234), 19)))
    }

    /// Walks a year month by month from its first day: the day 29 days into a month is either
    /// in the next month (the month's length follows from its day number) or still in the same
    /// month (then a day further, and one more for 31-day months). About one conversion a month.
    private static func foundationYear(_ year: Int, of calendar: RecurrenceCalendar) -> CalendarYear? {
        guard let start = FoundationCalendars.firstDay(ofYear: year, in: calendar), supportedDays.contains(start),
            var current = FoundationCalendars.fields(of: start, in: calendar), current.year == year, current.day == 1
        else { return nil }
        var months: [CalendarMonth] = []
        var first = start
        while months.count < 14 {
            var offset = 29
            var probe: FoundationCalendars.Fields
            repeat {
                guard let p = FoundationCalendars.fields(of: first + offset, in: calendar) else { return nil }
                probe = p
                offset += 1
            } while probe.sameMonth(as: current) && offset < 33
            let next = first + offset - 1 - (probe.day - 1)
            months.append(CalendarMonth(code: current.code, first: first, length: next - first))
            guard probe.year == year else { break }
            first = next
            current = probe
            current.day = 1
        }
        guard months.count >= calendar.monthsInYear else { return nil }
        let ordinal: Int
        switch calendar {
        case .chinese, .dangi:
            // Chinese months begin on the new moon: count mean synodic months from the
            // Chinese New Year of 2000-02-05 (a month's start is within two days of the mean).
            ordinal = Int((Double(start - 10_992) / 29.530588853).rounded())
        default:
            ordinal = year * calendar.monthsInYear
        }
        return CalendarYear(calendar: calendar, year: year, months: months, firstMonthOrdinal: ordinal)
    }
}

/// The Hebrew calendar's rules, as "Calendrical Calculations" (Dershowitz and Reingold) gives
/// them: the molad of Tishri and its four postponements. Computed here rather than asked of ICU,
/// whose Hebrew calendar (ICU 72, Debian 12) puts 1 Tishri 5807 on 2046-10-02 instead of
/// 2046-10-01, and so Pesach 2046 a day late.
enum HebrewArithmetic {
    /// Days since 1970 of the calendar's epoch, 1 Tishri AM 1 (7 October 3761 BCE, Julian).
    static let epoch = -1_373_427 - 719_163

    static func isLeap(_ year: Int) -> Bool { floorMod(Int64(7 * year + 1), 19) < 7 }

    /// Days from the epoch to the molad-based new year, with the rules that move it off Sunday,
    /// Wednesday and Friday and past a molad at or after noon.
    private static func elapsedDays(_ year: Int) -> Int {
        let months = Int(floorDiv(Int64(235 * year - 234), 19))
        let parts = 12_084 + 13_753 * months
        let day = 29 * months + Int(floorDiv(Int64(parts), 25_920))
        return floorMod(Int64(3 * (day + 1)), 7) < 3 ? day + 1 : day
    }

    /// Days since 1970 of 1 Tishri of `year`, with the two rules that keep years 353–355 and
    /// 383–385 days long.
    static func newYear(_ year: Int) -> Int {
        let (previous, this, next) = (elapsedDays(year - 1), elapsedDays(year), elapsedDays(year + 1))
        let correction = next - this == 356 ? 2 : (this - previous == 382 ? 1 : 0)
        return epoch + this + correction
    }
}

/// The only place Foundation's calendars are asked anything.
enum FoundationCalendars {
    struct Fields {
        /// On the calendar's continuous count.
        var year: Int
        /// Foundation's month number, and the RFC 7529 code made from it.
        var month: Int
        var code: CalendarMonthCode
        var day: Int

        func sameMonth(as other: Fields) -> Bool { year == other.year && code == other.code }
    }

    private static let calendars: [RecurrenceCalendar: Foundation.Calendar] = {
        var all: [RecurrenceCalendar: Foundation.Calendar] = [:]
        let utc = TimeZone(identifier: "UTC")!
        for c in RecurrenceCalendar.allCases {
            let id: Foundation.Calendar.Identifier
            switch c {
            case .gregorian, .hebrew: continue  // computed by Chime
            case .chinese: id = .chinese
            case .dangi: id = .dangi
            case .islamic: id = .islamic
            case .islamicCivil: id = .islamicCivil
            case .islamicTabular: id = .islamicTabular
            case .islamicUmmAlQura: id = .islamicUmmAlQura
            case .ethiopic: id = .ethiopicAmeteMihret
            // Amete Alem counts years 5,500 higher with the same months and days; Foundation on
            // Linux answers Gregorian dates for it, so its days come from the Amete Mihret calendar.
            case .ethiopicAmeteAlem: id = .ethiopicAmeteMihret
            case .coptic: id = .coptic
            case .persian: id = .persian
            case .indian: id = .indian
            }
            var calendar = Foundation.Calendar(identifier: id)
            calendar.timeZone = utc
            all[c] = calendar
        }
        return all
    }()

    /// Chinese and Dangi years are counted in 60-year cycles (Foundation's era).
    private static func isCyclic(_ calendar: RecurrenceCalendar) -> Bool { calendar == .chinese || calendar == .dangi }

    static func fields(of day: Int, in calendar: RecurrenceCalendar) -> Fields? {
        guard let cal = calendars[calendar] else { return nil }
        // Noon: far from any day boundary.
        let date = Date(timeIntervalSince1970: Double(day) * 86_400 + 43_200)
        let c = cal.dateComponents([.era, .year, .month, .day], from: date)
        guard let era = c.era, let year = c.year, let month = c.month, let d = c.day else { return nil }
        if d < 1 {
            // ICU 72 answers "day 0 of the 9th month" for 2057-09-28 (Chinese), its own month
            // boundaries disagreeing there: read as the day after the previous day, which is
            // what its answers for the days around say (8th month, 30th day).
            guard var previous = fields(of: day - 1, in: calendar), previous.day >= 1 else { return nil }
            previous.day += 1
            return previous
        }
        let linear = isCyclic(calendar) ? (era - 1) * 60 + year : year
        let code = CalendarMonthCode(number: month, leap: c.isLeapMonth ?? false)
        return Fields(year: linear, month: month, code: code, day: d)
    }

    /// Days since 1970 of the first day of `year`, checked by converting back.
    static func firstDay(ofYear year: Int, in calendar: RecurrenceCalendar) -> Int? {
        guard let cal = calendars[calendar] else { return nil }
        var components = DateComponents()
        if isCyclic(calendar) {
            components.era = floorDivInt(year - 1, 60) + 1
            components.year = year - (components.era! - 1) * 60
            components.isLeapMonth = false
        } else {
            components.year = year
            // Years are counted in the calendar's current era (Foundation's default era differs).
            if calendar == .ethiopic || calendar == .ethiopicAmeteAlem || calendar == .coptic { components.era = 1 }
        }
        components.month = 1
        components.day = 1
        components.hour = 12
        guard let date = cal.date(from: components) else { return nil }
        let day = Int(floorDiv(Int64(date.timeIntervalSince1970.rounded(.down)), 86_400))
        guard let back = fields(of: day, in: calendar), back.year == year, back.day == 1, back.month == 1 else {
            // Foundation placed the date elsewhere: look around it for the year's first day.
            for delta in -40...40 {
                if let f = fields(of: day + delta, in: calendar), f.year == year, f.month == 1, f.day == 1 { return day + delta }
            }
            return nil
        }
        return day
    }

    private static func floorDivInt(_ a: Int, _ b: Int) -> Int { Int(floorDiv(Int64(a), Int64(b))) }
}
