/// Why an expansion stopped producing instances.
public enum ExpansionEnd: Hashable, Sendable, CustomStringConvertible {
    /// COUNT instances were produced.
    case count
    /// The next instance would be after UNTIL.
    case until
    /// No instance in a whole search horizon (see ``RuleIterator/horizonDescription``): the rule
    /// can never match again, e.g. `FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30`.
    case searchHorizon
    /// The calendar ran out: the next instance would be after 9999-12-31.
    case endOfCalendar

    public var description: String {
        switch self {
        case .count: return "COUNT reached"
        case .until: return "UNTIL reached"
        case .searchHorizon: return "no instance within the search horizon, \(RuleIterator.horizonDescription)"
        case .endOfCalendar: return "reached the year 9999, the last year RFC 5545 can write"
        }
    }
}

/// Expands one rule from its DTSTART, lazily and in order: DTSTART first (it is always the first
/// instance, RFC 5545), then the rule's instances after it, in DTSTART's wall clock, converted to
/// instants; instances that map to an instant already produced (a DST gap) are kept once.
///
/// Iteration goes period by period (a year, month, week, day, hour, minute or second, stepped by
/// INTERVAL): each period's candidate days pass the day-level filter of ``ExpansionPlan``, are
/// combined with the times of day, cut by BYSETPOS, then by DTSTART, UNTIL and COUNT.
struct RuleIterator: IteratorProtocol {
    /// The documented bound for rules that can never match again.
    /// One Gregorian cycle: 400 YEARLY, 4,800 MONTHLY, 20,871 WEEKLY or 146,097 DAILY periods in a
    /// row without an instance (every date pattern repeats within it). HOURLY, MINUTELY and
    /// SECONDLY rules give up after 400 years of wall time or a million periods in a row without
    /// an instance (days, hours and minutes the limits exclude are skipped whole, so a rule that
    /// can match needs far fewer; one that cannot, like `FREQ=SECONDLY;INTERVAL=2;BYSECOND=1`
    /// from an even second, ends in well under a second).
    static let horizonDescription = "a whole 400-year Gregorian cycle of periods (sub-daily: 400 years or a million periods) without an instance"

    private let plan: ExpansionPlan
    /// For a rule counted in another calendar (RSCALE): its years, months and SKIP.
    private let calendarPlan: CalendarRulePlan?
    /// The calendar year used last, so that the next lookup starts there.
    private var calendarHint: CalendarYear?
    private let zone: ZoneRules
    let startLocal: Int64
    let startInstant: Int64
    private let startDay: Int
    private let countLimit: Int
    private let untilLocal: Int64?
    private let untilInstant: Int64?

    /// Current period: a year, a month index (year × 12 + month − 1), the first day of a week,
    /// a day, or (sub-daily) the wall-clock second the period starts at.
    private var period: Int64
    private var buffer = PeriodBuffer()
    private var bufferIndex = 0
    private var pendingStart = true
    private var emitted = 0
    private var emittedBeforePeriod = 0
    private var lastInstant = Int64.min
    private var emptyPeriods: Int64 = 0
    private var lastProductivePosition: Int64
    private var zoneHint = -2
    private var checkedDay = Int.min
    private var checkedDayMatches = false
    /// Set once generation stops; `end` follows when the held instances are out.
    private var generationEnd: ExpansionEnd?
    private(set) var end: ExpansionEnd?
    private var held: [(local: Int64, instant: Int64)] = []
    /// The instant of the latest regular (not gap-moved) candidate.
    private var watermark = Int64.min

    static let subDailyPeriodBudget: Int64 = 1_000_000

    static let lastLocalSecond = LocalDateTime(year: 9999, month: 12, day: 31, hour: 23, minute: 59, second: 59).localSeconds

    /// `inCalendar` forces the calendar path for an `RSCALE=GREGORIAN` rule without SKIP, so
    /// tests can check it against the Gregorian engine.
    init(rule: RecurrenceRule, start: LocalDateTime, zone: ZoneRules, inCalendar: Bool? = nil) {
        let inCalendar = inCalendar ?? rule.countsInCalendar
        plan = ExpansionPlan(rule: rule, start: start, inCalendar: inCalendar)
        calendarPlan = inCalendar ? CalendarRulePlan(rule: rule, start: start, plan: plan) : nil
        self.zone = zone
        startLocal = start.localSeconds
        startInstant = zone.instantSeconds(forLocalSeconds: startLocal)
        startDay = start.date.daysSinceEpoch
        switch rule.end {
        case .never:
            countLimit = .max; untilLocal = nil; untilInstant = nil
        case .count(let n):
            countLimit = n; untilLocal = nil; untilInstant = nil
        case .until(.utc(let i)):
            countLimit = .max; untilLocal = nil; untilInstant = i.secondsSince1970
        case .until(.local(let l)):
            countLimit = .max; untilLocal = l.localSeconds; untilInstant = nil
        case .until(.date(let d)):
            // A DATE UNTIL includes the whole of that day, whatever DTSTART's type.
            countLimit = .max; untilLocal = Int64(d.daysSinceEpoch + 1) * 86_400 - 1; untilInstant = nil
        }
        period = 0
        lastProductivePosition = startLocal
        period = firstPeriod(containing: startLocal) ?? 0
        if !plan.timesCanMatch { generationEnd = .searchHorizon }
        if inCalendar && calendarPlan == nil { generationEnd = .endOfCalendar }
    }

    var hasCount: Bool { countLimit != .max }

    /// Positions the iterator so that the next instances are the first ones at or after the wall
    /// time `local` (give or take the period containing it). Only for rules without COUNT, which
    /// must be counted from DTSTART.
    mutating func skip(toLocal local: Int64) {
        precondition(!hasCount, "a COUNT rule must be counted from DTSTART")
        guard local > startLocal, generationEnd == nil, end == nil else { return }
        pendingStart = false
        held.removeAll()
        watermark = Int64.min
        guard let first = firstPeriod(containing: local) else { generationEnd = .endOfCalendar; return }
        period = first
        buffer.removeAll()
        bufferIndex = 0
        emptyPeriods = 0
        lastProductivePosition = local
    }

    /// The next instance: wall-clock seconds as generated, and the instant.
    ///
    /// Wall times are generated in order, and their instants are in order too, except for a wall
    /// time inside a DST gap: it moves forward by the gap (02:30 → 03:30 EDT = 07:30Z) past the
    /// instants of times generated after it (03:20 EDT = 07:20Z). Such moved instances wait in
    /// `held` until a regular instance at or after them has been generated (no later candidate can
    /// then be earlier), so instances still come out sorted, none lost.
    mutating func next() -> (local: Int64, instant: Int64)? {
        if pendingStart {
            pendingStart = false
            emitted = 1
            lastInstant = startInstant
            return (startLocal, startInstant)
        }
        while true {
            if emitted >= countLimit { end = .count; held.removeAll(); return nil }
            if let h = held.first, generationEnd != nil || h.instant <= watermark {
                held.removeFirst()
                if h.instant <= lastInstant { continue }
                return emit(h)
            }
            if let finished = generationEnd { end = finished; return nil }
            if bufferIndex == buffer.count {
                fillPeriod()
                continue
            }
            let local = buffer[bufferIndex]
            bufferIndex += 1
            if local <= startLocal { continue }
            if let u = untilLocal, local > u { generationEnd = .until; continue }
            let resolved = zone.resolve(localSeconds: local, hint: &zoneHint)
            if resolved.instant <= lastInstant { continue }
            if let u = untilInstant, resolved.instant > u {
                // A moved instance past UNTIL says nothing about the regular ones after it.
                if !resolved.movedByGap { generationEnd = .until }
                continue
            }
            if resolved.movedByGap || !held.isEmpty {
                hold((local, resolved.instant))
                if !resolved.movedByGap { watermark = resolved.instant }
                continue
            }
            watermark = resolved.instant
            return emit((local, resolved.instant))
        }
    }

    private mutating func emit(_ item: (local: Int64, instant: Int64)) -> (local: Int64, instant: Int64) {
        emitted += 1
        lastInstant = item.instant
        return item
    }

    /// Sorted insert by instant; an instant already held is kept once.
    private mutating func hold(_ item: (local: Int64, instant: Int64)) {
        var i = held.count
        while i > 0 && held[i - 1].instant > item.instant { i -= 1 }
        if i > 0 && held[i - 1].instant == item.instant { return }
        held.insert(item, at: i)
    }

    // MARK: - Periods

    private func firstPeriod(containing local: Int64) -> Int64? {
        let day = Int(floorDiv(local, 86_400))
        if let calendarPlan {
            switch plan.frequency {
            case .yearly: return calendarPlan.yearPeriod(containing: day)
            case .monthly: return calendarPlan.monthPeriod(containing: day)
            default: break
            }
        }
        let date = CivilDate(daysSinceEpoch: day)
        let startDate = CivilDate(daysSinceEpoch: startDay)
        let interval = Int64(plan.interval)
        switch plan.frequency {
        case .yearly:
            let k = max(0, floorDiv(Int64(date.year - startDate.year), interval))
            return Int64(startDate.year) + k * interval
        case .monthly:
            let startIndex = Int64(startDate.year * 12 + startDate.month - 1)
            let k = max(0, floorDiv(Int64(date.year * 12 + date.month - 1) - startIndex, interval))
            return startIndex + k * interval
        case .weekly:
            let startWeek = Int64(weekStart(of: startDay))
            let k = max(0, floorDiv(Int64(weekStart(of: day)) - startWeek, 7 * interval))
            return startWeek + k * 7 * interval
        case .daily:
            let k = max(0, floorDiv(Int64(day - startDay), interval))
            return Int64(startDay) + k * interval
        case .hourly, .minutely, .secondly:
            let unit: Int64 = plan.frequency == .hourly ? 3600 : plan.frequency == .minutely ? 60 : 1
            let origin = startLocal - floorMod(startLocal, unit)
            let step = unit * interval
            let k = max(0, floorDiv(local - origin, step))
            return origin + k * step
        }
    }

    private func weekStart(of day: Int) -> Int {
        day - (Weekday(daysSinceEpoch: day).isoIndex - plan.weekStartIso + 7) % 7
    }

    /// Fills `buffer` with the current period's instances (wall-clock seconds, ascending) and
    /// moves to the next period; sets `end` when the search gives up.
    private mutating func fillPeriod() {
        if emitted != emittedBeforePeriod {
            emptyPeriods = 0
            emittedBeforePeriod = emitted
        }
        buffer.removeAll()
        bufferIndex = 0
        let interval = Int64(plan.interval)
        switch plan.frequency {
        case .yearly where calendarPlan != nil, .monthly where calendarPlan != nil:
            let days =
                plan.frequency == .yearly
                ? calendarPlan!.days(inYear: Int(period), hint: &calendarHint)
                : calendarPlan!.days(inMonth: Int(period), hint: &calendarHint)
            guard let days else { generationEnd = .endOfCalendar; return }
            for day in days { appendTimes(day: day) }
            period += interval
        case .yearly:
            guard period <= 9999 else { generationEnd = .endOfCalendar; return }
            fillYear(Int(period))
            period += interval
        case .monthly:
            guard period < 10_000 * 12 else { generationEnd = .endOfCalendar; return }
            fillMonth(year: Int(floorDiv(period, 12)), month: Int(floorMod(period, 12)) + 1)
            period += interval
        case .weekly:
            guard period * 86_400 <= Self.lastLocalSecond else { generationEnd = .endOfCalendar; return }
            fillWeek(firstDay: Int(period))
            period += 7 * interval
        case .daily:
            guard period * 86_400 <= Self.lastLocalSecond else { generationEnd = .endOfCalendar; return }
            fillDay(Int(period))
            period += interval
        case .hourly, .minutely, .secondly:
            guard period <= Self.lastLocalSecond else { generationEnd = .endOfCalendar; return }
            fillSubDaily()
            emptyPeriods = buffer.isEmpty ? emptyPeriods + 1 : 0
            if !buffer.isEmpty { lastProductivePosition = period }
            if period - lastProductivePosition > 400 * 31_556_952 || emptyPeriods > Self.subDailyPeriodBudget {
                generationEnd = .searchHorizon
            }
            return
        }
        if !plan.setPositions.isEmpty { applySetPositions() }
        emptyPeriods += 1
        let horizon: Int64
        switch plan.frequency {
        case .yearly: horizon = 400
        case .monthly: horizon = 4_800
        case .weekly: horizon = 20_871
        default: horizon = 146_097
        }
        if emptyPeriods > horizon && buffer.isEmpty { generationEnd = .searchHorizon }
    }

    private mutating func appendTimes(day: Int) {
        let base = Int64(day) * 86_400
        for t in plan.timesOfDay { buffer.append(base + Int64(t)) }
    }

    private mutating func fillYear(_ year: Int) {
        let jan1 = CivilDate.days(year: year, month: 1, day: 1)
        let jan1Iso = Weekday(daysSinceEpoch: jan1).isoIndex
        let yearLength = CivilDate.daysInYear(year)
        let weeks = plan.hasWeekNo ? WeekNumbering(plan: plan, year: year) : nil
        for month in 1...12 {
            if plan.monthMask != 0 && plan.monthMask & (UInt16(1) << month) == 0 { continue }
            let first = CivilDate.days(year: year, month: month, day: 1)
            let length = CivilDate.daysInMonth(year: year, month: month)
            for d in 1...length {
                let day = first + d - 1
                let yday = day - jan1 + 1
                if plan.dayMatches(
                    month: month, day: d, yday: yday, iso: (jan1Iso + yday - 1) % 7,
                    monthLength: length, yearLength: yearLength,
                    week: { weeks!.week(of: day) })
                {
                    appendTimes(day: day)
                }
            }
        }
    }

    private mutating func fillMonth(year: Int, month: Int) {
        if plan.monthMask != 0 && plan.monthMask & (UInt16(1) << month) == 0 { return }
        let first = CivilDate.days(year: year, month: month, day: 1)
        let jan1 = CivilDate.days(year: year, month: 1, day: 1)
        let firstIso = Weekday(daysSinceEpoch: first).isoIndex
        let length = CivilDate.daysInMonth(year: year, month: month)
        let yearLength = CivilDate.daysInYear(year)
        for d in 1...length {
            let day = first + d - 1
            if plan.dayMatches(
                month: month, day: d, yday: day - jan1 + 1, iso: (firstIso + d - 1) % 7,
                monthLength: length, yearLength: yearLength, week: { (0, 0) })
            {
                appendTimes(day: day)
            }
        }
    }

    private mutating func fillWeek(firstDay: Int) {
        for i in 0..<7 {
            let day = firstDay + i
            let iso = (plan.weekStartIso + i) % 7
            if plan.hasWeekdays && plan.plainWeekdays & (UInt8(1) << iso) == 0 { continue }
            if let calendarPlan {
                if calendarPlan.dayPasses(day, hint: &calendarHint) { appendTimes(day: day) }
                continue
            }
            if plan.monthMask != 0 {
                let month = CivilDate(daysSinceEpoch: day).month
                if plan.monthMask & (UInt16(1) << month) == 0 { continue }
            }
            appendTimes(day: day)
        }
    }

    private mutating func dayPasses(_ day: Int) -> Bool {
        if let calendarPlan { return calendarPlan.dayPasses(day, hint: &calendarHint) }
        guard plan.hasDayFilter else { return true }
        let date = CivilDate(daysSinceEpoch: day)
        let jan1 = CivilDate.days(year: date.year, month: 1, day: 1)
        return plan.dayMatches(
            month: date.month, day: date.day, yday: day - jan1 + 1,
            iso: Weekday(daysSinceEpoch: day).isoIndex,
            monthLength: CivilDate.daysInMonth(year: date.year, month: date.month),
            yearLength: CivilDate.daysInYear(date.year), week: { (0, 0) })
    }

    private mutating func fillDay(_ day: Int) {
        if dayPasses(day) { appendTimes(day: day) }
    }

    /// One HOURLY, MINUTELY or SECONDLY period. Days, hours and minutes the limits exclude are
    /// jumped over whole (to the first period of the next day, hour or minute on the INTERVAL grid).
    private mutating func fillSubDaily() {
        let unit: Int64 = plan.frequency == .hourly ? 3600 : plan.frequency == .minutely ? 60 : 1
        let step = unit * Int64(plan.interval)
        let day = Int(floorDiv(period, 86_400))
        if day != checkedDay {
            checkedDay = day
            checkedDayMatches = dayPasses(day)
        }
        let dayStart = Int64(day) * 86_400
        if !checkedDayMatches { jump(to: dayStart + 86_400, step: step); return }
        let secondOfDay = period - dayStart
        let hour = Int(secondOfDay / 3600)
        if plan.hourLimit != 0 && plan.hourLimit & (UInt32(1) << hour) == 0 {
            jump(to: dayStart + Int64(hour + 1) * 3600, step: step); return
        }
        let minute = Int(secondOfDay / 60 % 60)
        if plan.frequency != .hourly && plan.minuteLimit != 0 && plan.minuteLimit & (UInt64(1) << minute) == 0 {
            jump(to: period - secondOfDay % 60 + 60, step: step); return
        }
        if plan.frequency == .secondly && plan.secondLimit != 0
            && plan.secondLimit & (UInt64(1) << Int(secondOfDay % 60)) == 0
        {
            period += step; return
        }
        for offset in plan.timesWithinPeriod { buffer.append(period + Int64(offset)) }
        if !plan.setPositions.isEmpty { applySetPositions() }
        period += step
    }

    /// Moves to the first period on the INTERVAL grid at or after `boundary`.
    private mutating func jump(to boundary: Int64, step: Int64) {
        let gap = boundary - period
        period += (gap + step - 1) / step * step
    }

    private mutating func applySetPositions() {
        let n = buffer.count
        guard n > 0 else { return }
        var chosen: [Int64] = []
        for p in plan.setPositions {
            let i = p > 0 ? p - 1 : n + p
            if i >= 0 && i < n { chosen.append(buffer[i]) }
        }
        chosen.sort()
        buffer.removeAll()
        for v in chosen where buffer.last != v { buffer.append(v) }
    }
}

/// A period's candidate instances. The storage is kept from period to period and `count` says
/// how many are the current period's: emptying an `Array` in place cost more than filling it,
/// once per period (a daily rule's every occurrence).
private struct PeriodBuffer {
    private var storage: [Int64] = []
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }
    var last: Int64? { count > 0 ? storage[count - 1] : nil }
    subscript(index: Int) -> Int64 {
        assert(index < count, "past the current period's instances")
        return storage[index]
    }

    mutating func removeAll() { count = 0 }

    mutating func append(_ value: Int64) {
        if count < storage.count { storage[count] = value } else { storage.append(value) }
        count += 1
    }
}

/// Week numbers of the days of one year under a WKST (RFC 5545 BYWEEKNO): days before week 1
/// belong to the last week of the previous year, days from next year's week 1 on to week 1.
private struct WeekNumbering {
    let weekOne: Int
    let nextWeekOne: Int
    let weeksInYear: Int
    let weeksInPreviousYear: Int
    let weeksInNextYear: Int

    init(plan: ExpansionPlan, year: Int) {
        let previous = plan.firstDayOfWeekOne(year - 1)
        weekOne = plan.firstDayOfWeekOne(year)
        nextWeekOne = plan.firstDayOfWeekOne(year + 1)
        weeksInYear = (nextWeekOne - weekOne) / 7
        weeksInPreviousYear = (weekOne - previous) / 7
        weeksInNextYear = (plan.firstDayOfWeekOne(year + 2) - nextWeekOne) / 7
    }

    func week(of day: Int) -> (number: Int, weeksInYear: Int) {
        if day < weekOne { return (weeksInPreviousYear, weeksInPreviousYear) }
        if day >= nextWeekOne { return (1, weeksInNextYear) }
        return ((day - weekOne) / 7 + 1, weeksInYear)
    }
}

@inline(__always) func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
    let q = a / b
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
}

@inline(__always) func floorMod(_ a: Int64, _ b: Int64) -> Int64 { a - floorDiv(a, b) * b }
