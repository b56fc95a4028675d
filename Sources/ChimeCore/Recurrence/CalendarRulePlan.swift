/// How a rule counted in another calendar (RFC 7529 `RSCALE`, or Gregorian with `SKIP`) picks
/// its days: the same expand/limit table as ``ExpansionPlan``, over the calendar's years and
/// months, with `SKIP` deciding what a date the calendar lacks becomes.
///
/// - A YEARLY period is one year of the calendar, a MONTHLY period one of its months (INTERVAL
///   counts the calendar's months, leap months included).
/// - BYMONTH names month codes (`5`, `5L`). A code the year lacks (a leap month in a common
///   year), like the month DTSTART was in, is left out (OMIT), or replaced by the month before
///   (BACKWARD) or after it (FORWARD). The day is then looked for in that month.
/// - A day number past the month's (or the year's) length becomes nothing (OMIT), the last day
///   (BACKWARD) or the first day after the month (FORWARD); a negative one past the start becomes
///   the first day (FORWARD) or the day before the month (BACKWARD), as libical does.
/// - A date moved by SKIP is not filtered again by the other parts; moved dates that land on an
///   instance already there are kept once. BYSETPOS, the times of day, COUNT and UNTIL then apply
///   as for any rule.
/// - For WEEKLY, DAILY and shorter frequencies the calendar only limits: BYMONTH, BYMONTHDAY and
///   BYYEARDAY are read in the calendar; nothing is ever invalid there, so SKIP does nothing.
struct CalendarRulePlan: Sendable {
    let calendar: RecurrenceCalendar
    let skip: RecurrenceSkip
    let interval: Int
    let months: [CalendarMonthCode]
    let monthDays: [Int]
    let yearDays: [Int]
    let plainWeekdays: UInt8
    let ordinalWeekdays: [(iso: Int, n: Int)]
    let hasWeekdays: Bool
    let noDayParts: Bool
    let startCode: CalendarMonthCode
    let startDayOfMonth: Int
    let startYear: Int
    let startMonthOrdinal: Int
    let startMonthFirst: Int
    let meanMonthLength: Double

    /// The last day the engine produces (RFC 5545 writes four-digit years).
    static let lastDay = CivilDate.days(year: 9999, month: 12, day: 31)

    /// Nil when DTSTART is outside the days the calendar tables cover. BYDAY (with DTSTART's
    /// weekday for a WEEKLY rule without one) is taken from `plan`, which has resolved it.
    init?(rule: RecurrenceRule, start: LocalDateTime, plan: ExpansionPlan) {
        guard let calendar = rule.calendar,
            let table = CalendarYears.year(containing: start.date.daysSinceEpoch, of: calendar)
        else { return nil }
        self.calendar = calendar
        skip = rule.skip
        interval = rule.interval
        months = rule.monthCodes
        monthDays = rule.daysOfTheMonth
        yearDays = rule.daysOfTheYear
        plainWeekdays = plan.plainWeekdays
        ordinalWeekdays = plan.ordinalWeekdays
        hasWeekdays = plan.hasWeekdays
        noDayParts = rule.daysOfTheYear.isEmpty && rule.daysOfTheMonth.isEmpty && rule.daysOfTheWeek.isEmpty
        let day = start.date.daysSinceEpoch
        let index = table.monthIndex(containing: day)
        startCode = table.months[index].code
        startDayOfMonth = day - table.months[index].first + 1
        startYear = table.year
        startMonthOrdinal = table.firstMonthOrdinal + index
        startMonthFirst = table.months[index].first
        switch calendar {
        case .gregorian, .persian, .indian: meanMonthLength = 365.2425 / 12
        case .ethiopic, .ethiopicAmeteAlem, .coptic: meanMonthLength = 365.25 / 13
        default: meanMonthLength = 29.530588853
        }
    }

    // MARK: - Periods

    /// The first YEARLY period (a year on the calendar's count) whose year holds `day`, or after it.
    func yearPeriod(containing day: Int) -> Int64? {
        guard let table = CalendarYears.year(containing: day, of: calendar) else { return nil }
        let k = max(0, floorDiv(Int64(table.year - startYear), Int64(interval)))
        return Int64(startYear) + k * Int64(interval)
    }

    /// The first MONTHLY period (a month ordinal) whose month holds `day`, or after it.
    func monthPeriod(containing day: Int) -> Int64? {
        guard let table = CalendarYears.year(containing: day, of: calendar) else { return nil }
        let ordinal = table.firstMonthOrdinal + table.monthIndex(containing: day)
        let k = max(0, floorDiv(Int64(ordinal - startMonthOrdinal), Int64(interval)))
        return Int64(startMonthOrdinal) + k * Int64(interval)
    }

    // MARK: - Candidate days

    /// The days of year `year` the rule names, ascending; nil past the last supported day.
    func days(inYear year: Int, hint: inout CalendarYear?) -> [Int]? {
        guard let table = CalendarYears.year(year, of: calendar), table.first <= Self.lastDay else { return nil }
        hint = table
        var out: [Int] = []
        if !yearDays.isEmpty {
            for n in yearDays {
                guard let (day, moved) = resolve(n, first: table.first, length: table.length) else { continue }
                if moved || passesYearLimits(day, in: table) { out.append(day) }
            }
        } else {
            let selected: [CalendarMonth]
            if !months.isEmpty {
                selected = months.compactMap { resolve($0, in: table) }
            } else if noDayParts {
                selected = resolve(startCode, in: table).map { [$0] } ?? []
            } else {
                selected = table.months
            }
            for month in selected { monthDays(month, in: table, withinYear: months.isEmpty, into: &out) }
        }
        return finished(out)
    }

    /// The days of the month with ordinal `ordinal` the rule names; nil past the last supported day.
    func days(inMonth ordinal: Int, hint: inout CalendarYear?) -> [Int]? {
        guard let (table, index) = month(ordinal: ordinal, hint: &hint), table.months[index].first <= Self.lastDay else { return nil }
        let month = table.months[index]
        if !months.isEmpty && !months.contains(month.code) { return [] }
        var out: [Int] = []
        monthDays(month, in: table, withinYear: false, into: &out)
        return finished(out)
    }

    /// Whether a day passes the calendar's limits (WEEKLY and shorter frequencies).
    func dayPasses(_ day: Int, hint: inout CalendarYear?) -> Bool {
        guard let table = CalendarYears.year(containing: day, of: calendar, hint: hint) else { return false }
        hint = table
        let month = table.months[table.monthIndex(containing: day)]
        if !months.isEmpty && !months.contains(month.code) { return false }
        let dayOfMonth = day - month.first + 1
        if !monthDays.isEmpty && !monthDays.contains(where: { $0 == dayOfMonth || $0 == dayOfMonth - month.length - 1 }) { return false }
        let dayOfYear = day - table.first + 1
        if !yearDays.isEmpty && !yearDays.contains(where: { $0 == dayOfYear || $0 == dayOfYear - table.length - 1 }) { return false }
        return !hasWeekdays || plainWeekdays & (UInt8(1) << Weekday(daysSinceEpoch: day).isoIndex) != 0
    }

    private func monthDays(_ month: CalendarMonth, in table: CalendarYear, withinYear: Bool, into out: inout [Int]) {
        if !monthDays.isEmpty {
            for n in monthDays {
                guard let (day, moved) = resolve(n, first: month.first, length: month.length) else { continue }
                if moved || weekdayMatches(day, month: month, table: table, withinYear: withinYear) { out.append(day) }
            }
        } else if hasWeekdays {
            for day in month.first..<(month.first + month.length)
            where weekdayMatches(day, month: month, table: table, withinYear: withinYear) {
                out.append(day)
            }
        } else if let (day, _) = resolve(startDayOfMonth, first: month.first, length: month.length) {
            out.append(day)
        }
    }

    private func passesYearLimits(_ day: Int, in table: CalendarYear) -> Bool {
        let month = table.months[table.monthIndex(containing: day)]
        if !months.isEmpty && !months.contains(month.code) { return false }
        let dayOfMonth = day - month.first + 1
        if !monthDays.isEmpty && !monthDays.contains(where: { $0 == dayOfMonth || $0 == dayOfMonth - month.length - 1 }) { return false }
        return weekdayMatches(day, month: month, table: table, withinYear: months.isEmpty)
    }

    /// BYDAY: a plain weekday, or an ordinal one counted in the month or in the year.
    private func weekdayMatches(_ day: Int, month: CalendarMonth, table: CalendarYear, withinYear: Bool) -> Bool {
        guard hasWeekdays else { return true }
        let iso = Weekday(daysSinceEpoch: day).isoIndex
        if plainWeekdays & (UInt8(1) << iso) != 0 { return true }
        let position = withinYear ? day - table.first + 1 : day - month.first + 1
        let length = withinYear ? table.length : month.length
        for (weekday, n) in ordinalWeekdays where weekday == iso {
            if n > 0 ? (position - 1) / 7 + 1 == n : -((length - position) / 7 + 1) == n { return true }
        }
        return false
    }

    private func finished(_ days: [Int]) -> [Int] {
        var sorted = days.count > 1 ? days.sorted() : days
        if sorted.count > 1 {
            var unique: [Int] = []
            for d in sorted where unique.last != d { unique.append(d) }
            sorted = unique
        }
        return sorted.filter { $0 <= Self.lastDay }
    }

    // MARK: - SKIP

    /// Day `n` (1-based, or negative from the end) of a span of `length` days from `first`, or
    /// where SKIP moves it; `moved` says it was moved.
    private func resolve(_ n: Int, first: Int, length: Int) -> (day: Int, moved: Bool)? {
        if n > 0 && n <= length { return (first + n - 1, false) }
        if n < 0 && -n <= length { return (first + length + n, false) }
        switch skip {
        case .omit: return nil
        case .forward: return (n > 0 ? first + length : first, true)
        case .backward: return (n > 0 ? first + length - 1 : first - 1, true)
        }
    }

    /// The month with `code` in the year, or the one SKIP puts in its place.
    private func resolve(_ code: CalendarMonthCode, in table: CalendarYear) -> CalendarMonth? {
        if let month = table.month(code) { return month }
        let after = table.months.firstIndex { $0.code > code }
        switch skip {
        case .omit: return nil
        case .forward:
            if let after { return table.months[after] }
            return CalendarYears.year(table.year + 1, of: calendar)?.months.first
        case .backward:
            let before = (after ?? table.months.count) - 1
            if before >= 0 { return table.months[before] }
            return CalendarYears.year(table.year - 1, of: calendar)?.months.last
        }
    }

    // MARK: - Months by ordinal

    /// The year and month index of the month with `ordinal`, found from an estimate of its day.
    private func month(ordinal: Int, hint: inout CalendarYear?) -> (CalendarYear, Int)? {
        let guess = startMonthFirst + Int((Double(ordinal - startMonthOrdinal) * meanMonthLength).rounded())
        guard
            var table = CalendarYears.year(
                containing: min(max(guess, CalendarYears.supportedDays.lowerBound), CalendarYears.supportedDays.upperBound - 1),
                of: calendar, hint: hint)
        else { return nil }
        for _ in 0..<4 {
            if ordinal < table.firstMonthOrdinal {
                guard let t = CalendarYears.year(table.year - 1, of: calendar) else { return nil }
                table = t
            } else if ordinal >= table.firstMonthOrdinal + table.months.count {
                guard let t = CalendarYears.year(table.year + 1, of: calendar) else { return nil }
                table = t
            } else {
                hint = table
                return (table, ordinal - table.firstMonthOrdinal)
            }
        }
        return nil
    }
}
