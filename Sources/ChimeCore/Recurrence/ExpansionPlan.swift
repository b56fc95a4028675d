/// A rule resolved against its DTSTART into bit masks and sorted lists, so that deciding whether
/// a day or a time belongs to the rule is a handful of integer operations.
///
/// How each BY-part acts per frequency (RFC 5545 §3.3.10, the "expand / limit" table) is decided
/// here, in one place:
///
/// | part        | YEARLY | MONTHLY | WEEKLY | DAILY | HOURLY | MINUTELY | SECONDLY |
/// |-------------|--------|---------|--------|-------|--------|----------|----------|
/// | BYMONTH     | expand | limit   | limit  | limit | limit  | limit    | limit    |
/// | BYWEEKNO    | expand | –       | –      | –     | –      | –        | –        |
/// | BYYEARDAY   | expand | –       | –      | –     | limit  | limit    | limit    |
/// | BYMONTHDAY  | expand | expand  | –      | limit | limit  | limit    | limit    |
/// | BYDAY       | expand | expand  | expand | limit | limit  | limit    | limit    |
/// | BYHOUR      | expand | expand  | expand | expand| limit  | limit    | limit    |
/// | BYMINUTE    | expand | expand  | expand | expand| expand | limit    | limit    |
/// | BYSECOND    | expand | expand  | expand | expand| expand | expand   | limit    |
///
/// The day-level parts are applied as one filter over the days of the period: "expand" means
/// the period offers all its days and the part keeps those it names; parts that are both
/// present intersect (as RFC 5545's "limit if … is present" notes say). What the rule leaves
/// out comes from DTSTART: the month and day of month for YEARLY, the day of month for MONTHLY,
/// the weekday for WEEKLY (and for YEARLY with only BYWEEKNO), and the time of day.
struct ExpansionPlan: Sendable {
    let frequency: RecurrenceFrequency
    let interval: Int
    let weekStartIso: Int

    // Day-level filter.
    let monthMask: UInt16  // bit m for month m; 0 = any month
    let monthDayPositive: UInt32  // bit d for BYMONTHDAY=d
    let monthDayNegative: UInt32  // bit d for BYMONTHDAY=-d
    let hasMonthDay: Bool
    let yearDayPositive: [Bool]  // index 1…366
    let yearDayNegative: [Bool]
    let hasYearDay: Bool
    let weekNoPositive: UInt64
    let weekNoNegative: UInt64
    let hasWeekNo: Bool
    let plainWeekdays: UInt8  // bit = iso weekday index
    let ordinalWeekdays: [(iso: Int, n: Int)]
    let hasWeekdays: Bool
    /// Ordinals count within the month (MONTHLY, or YEARLY with BYMONTH) rather than the year.
    let ordinalsWithinMonth: Bool
    let hasDayFilter: Bool

    // Time-of-day.
    /// For DAILY and coarser: every time of day, seconds after midnight, ascending.
    let timesOfDay: [Int]
    /// For HOURLY: offsets within the hour; for MINUTELY: seconds within the minute.
    let timesWithinPeriod: [Int]
    let hourLimit: UInt32  // 0 = none
    let minuteLimit: UInt64
    let secondLimit: UInt64

    let setPositions: [Int]
    /// False when the time parts leave nothing (only BYSECOND=60): the rule has no instance after DTSTART.
    let timesCanMatch: Bool

    init(rule: RecurrenceRule, start: LocalDateTime, inCalendar: Bool? = nil) {
        frequency = rule.frequency
        interval = rule.interval
        weekStartIso = rule.weekStart.isoIndex

        // A rule counted in another calendar (RSCALE) takes its months, days of the month and
        // days of the year from ``CalendarRulePlan``; only weekdays and times are decided here.
        let inCalendar = inCalendar ?? rule.countsInCalendar
        var byMonth = inCalendar ? [] : rule.monthsOfTheYear
        var byMonthDay = inCalendar ? [] : rule.daysOfTheMonth
        var byDay = rule.daysOfTheWeek
        let noDayParts = rule.weeksOfTheYear.isEmpty && rule.daysOfTheYear.isEmpty && rule.daysOfTheMonth.isEmpty && byDay.isEmpty
        switch rule.frequency {
        case .yearly where inCalendar, .monthly where inCalendar: break
        case .yearly where noDayParts:
            if byMonth.isEmpty { byMonth = [start.date.month] }
            byMonthDay = [start.date.day]
        case .yearly where !rule.weeksOfTheYear.isEmpty && rule.daysOfTheYear.isEmpty && byMonthDay.isEmpty && byDay.isEmpty:
            byDay = [RecurrenceDayOfWeek(start.date.weekday)]
        case .monthly where noDayParts:
            byMonthDay = [start.date.day]
        case .weekly where noDayParts:
            byDay = [RecurrenceDayOfWeek(start.date.weekday)]
        default: break
        }

        monthMask = byMonth.reduce(0) { $0 | UInt16(1) << $1 }
        // Masks folded without intermediate arrays: a query builds one plan per candidate series.
        monthDayPositive = byMonthDay.reduce(0) { $1 > 0 ? $0 | UInt32(1) << $1 : $0 }
        monthDayNegative = byMonthDay.reduce(0) { $1 < 0 ? $0 | UInt32(1) << -$1 : $0 }
        hasMonthDay = !byMonthDay.isEmpty
        hasYearDay = !inCalendar && !rule.daysOfTheYear.isEmpty
        // Allocated only for BYYEARDAY: a query builds one plan per candidate series.
        var yp = [Bool](repeating: false, count: hasYearDay ? 367 : 0)
        var yn = [Bool](repeating: false, count: hasYearDay ? 367 : 0)
        for d in rule.daysOfTheYear where hasYearDay { if d > 0 { yp[d] = true } else { yn[-d] = true } }
        yearDayPositive = yp
        yearDayNegative = yn
        weekNoPositive = rule.weeksOfTheYear.reduce(0) { $1 > 0 ? $0 | UInt64(1) << $1 : $0 }
        weekNoNegative = rule.weeksOfTheYear.reduce(0) { $1 < 0 ? $0 | UInt64(1) << -$1 : $0 }
        hasWeekNo = !rule.weeksOfTheYear.isEmpty
        plainWeekdays = byDay.reduce(0) { $1.weekNumber == 0 ? $0 | UInt8(1) << $1.dayOfTheWeek.isoIndex : $0 }
        ordinalWeekdays =
            byDay.contains { $0.weekNumber != 0 }
            ? byDay.filter { $0.weekNumber != 0 }.map { ($0.dayOfTheWeek.isoIndex, $0.weekNumber) } : []
        hasWeekdays = !byDay.isEmpty
        ordinalsWithinMonth = rule.frequency == .monthly || !byMonth.isEmpty
        hasDayFilter = monthMask != 0 || hasMonthDay || hasYearDay || hasWeekNo || hasWeekdays

        // DAILY and coarser without BYHOUR, BYMINUTE or BYSECOND (most series): DTSTART's time
        // alone, without the lists below.
        let startTimeOnly = rule.frequency >= .daily && rule.byHour.isEmpty && rule.byMinute.isEmpty && rule.bySecond.isEmpty
        var times: [Int] = []
        var within: [Int] = []
        if startTimeOnly {
            if start.second < 60 { times = [start.hour * 3600 + start.minute * 60 + start.second] }
        } else {
            let hours = rule.byHour.isEmpty ? [start.hour] : rule.byHour
            let minutes = rule.byMinute.isEmpty ? [start.minute] : rule.byMinute
            // A leap second (BYSECOND=60) has no instant on a POSIX time line; such instances are skipped.
            let seconds = (rule.bySecond.isEmpty ? [start.second] : rule.bySecond).filter { $0 < 60 }
            switch rule.frequency {
            case .hourly:
                for m in minutes { for s in seconds { within.append(m * 60 + s) } }
            case .minutely:
                within = seconds
            case .secondly:
                within = [0]
            default:
                for h in hours { for m in minutes { for s in seconds { times.append(h * 3600 + m * 60 + s) } } }
            }
        }
        timesOfDay = times.count > 1 ? times.sorted() : times
        timesWithinPeriod = within.count > 1 ? within.sorted() : within
        hourLimit = rule.frequency <= .hourly ? rule.byHour.reduce(0) { $0 | UInt32(1) << $1 } : 0
        minuteLimit = rule.frequency <= .minutely ? rule.byMinute.reduce(0) { $0 | UInt64(1) << $1 } : 0
        let realSeconds = rule.bySecond.isEmpty ? [] : rule.bySecond.filter { $0 < 60 }
        secondLimit = rule.frequency == .secondly ? realSeconds.reduce(0) { $0 | UInt64(1) << $1 } : 0
        timesCanMatch =
            rule.frequency == .secondly
            ? (rule.bySecond.isEmpty || !realSeconds.isEmpty)
            : !(times.isEmpty && within.isEmpty)
        setPositions = rule.setPositions
    }

    /// Whether a day passes every day-level part. `yday` is 1-based, `iso` 0 = Monday.
    @inline(__always)
    func dayMatches(
        month: Int, day: Int, yday: Int, iso: Int, monthLength: Int, yearLength: Int,
        week: () -> (number: Int, weeksInYear: Int)
    ) -> Bool {
        if monthMask != 0 && monthMask & (UInt16(1) << month) == 0 { return false }
        if hasMonthDay && monthDayPositive & (UInt32(1) << day) == 0
            && monthDayNegative & (UInt32(1) << (monthLength - day + 1)) == 0
        {
            return false
        }
        if hasYearDay && !yearDayPositive[yday] && !yearDayNegative[yearLength - yday + 1] { return false }
        if hasWeekdays && plainWeekdays & (UInt8(1) << iso) == 0 {
            var found = false
            for (weekday, n) in ordinalWeekdays where weekday == iso {
                let position = ordinalsWithinMonth ? day : yday
                let length = ordinalsWithinMonth ? monthLength : yearLength
                if n > 0 ? (position - 1) / 7 + 1 == n : -((length - position) / 7 + 1) == n { found = true; break }
            }
            if !found { return false }
        }
        if hasWeekNo {
            let w = week()
            if weekNoPositive & (UInt64(1) << w.number) == 0
                && weekNoNegative & (UInt64(1) << (w.weeksInYear - w.number + 1)) == 0
            {
                return false
            }
        }
        return true
    }

    /// Days since 1970 of the first day of week 1 of `year`: the first week (starting on WKST)
    /// with at least four days in the year (RFC 5545 BYWEEKNO).
    func firstDayOfWeekOne(_ year: Int) -> Int {
        let jan1 = CivilDate.days(year: year, month: 1, day: 1)
        let jan1Iso = Weekday(daysSinceEpoch: jan1).isoIndex
        let back = (jan1Iso - weekStartIso + 7) % 7
        return back >= 4 ? jan1 - back + 7 : jan1 - back
    }
}
