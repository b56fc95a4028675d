/// Which UTC days something can touch, as three bit masks: weekdays, days of the month, months.
/// A day passes when its weekday, its day of the month and its month are each in their mask.
///
/// A store keeps the masks of each series (``RecurrenceSet/utcDayMasks(duration:)``) and asks
/// for the window's (``init(window:)``): a series whose masks miss the window's has no
/// occurrence there, so it is not read at all (a weekly Monday series is not a candidate for a
/// Tuesday). The masks may let through a series that has no occurrence in the window (they are
/// a filter, the expansion decides), never the other way round.
///
/// ```swift
/// let mondays = RecurrenceSet(start: .utc(LocalDateTime(year: 2026, month: 6, day: 1, hour: 9)),
///                             rules: [try RecurrenceRule(parsing: "FREQ=WEEKLY")])
/// let masks = mondays.utcDayMasks(duration: 3600)       // weekdays: Monday only
/// masks.intersects(DayMasks(window: tuesday…wednesday))   // false
/// ```
public struct DayMasks: Hashable, Sendable {
    /// Bit i: ISO weekday index i (0 = Monday … 6 = Sunday).
    public var weekdays: Int64
    /// Bit d: day of the month d (1…31).
    public var monthDays: Int64
    /// Bit m: month m (1…12).
    public var months: Int64

    /// Masks as stored (bit layouts above).
    public init(weekdays: Int64, monthDays: Int64, months: Int64) {
        self.weekdays = weekdays
        self.monthDays = monthDays
        self.months = months
    }

    /// Every day passes.
    public static let all = DayMasks(weekdays: 0x7F, monthDays: 0xFFFF_FFFE, months: 0x1FFE)
    static let none = DayMasks(weekdays: 0, monthDays: 0, months: 0)

    /// The UTC days of `from ..< to` (all of them past a year: every mask is full by then).
    public init(window from: Instant, to: Instant) {
        self = .none
        let first = floorDiv(from.secondsSince1970, 86_400)
        let last = floorDiv(to.secondsSince1970 - 1, 86_400)
        guard last >= first else { return }
        if last - first >= 366 { self = .all; return }
        for day in first...last { add(day: Int(day)) }
    }

    /// True when every day passes: a filter with these masks filters nothing.
    public var isAll: Bool { self == .all }

    /// Whether some day could pass both (each mask overlaps the other's).
    public func intersects(_ other: DayMasks) -> Bool {
        weekdays & other.weekdays != 0 && monthDays & other.monthDays != 0 && months & other.months != 0
    }

    mutating func add(day: Int) {
        let d = CivilDate(daysSinceEpoch: day)
        weekdays |= 1 << Int64(Weekday(daysSinceEpoch: day).isoIndex)
        monthDays |= 1 << Int64(d.day)
        months |= 1 << Int64(d.month)
    }

    mutating func formUnion(_ other: DayMasks) {
        weekdays |= other.weekdays
        monthDays |= other.monthDays
        months |= other.months
    }

    /// The masks of the days `shift` days after days that pass `self` (a shift crosses at most
    /// one month boundary: |shift| < 28).
    func shifted(by shift: Int) -> DayMasks {
        if shift == 0 { return self }
        var result = DayMasks.none
        let r = ((shift % 7) + 7) % 7
        for i in 0..<7 where weekdays & (1 << Int64(i)) != 0 { result.weekdays |= 1 << Int64((i + r) % 7) }
        for day in 1...31 where monthDays & (1 << Int64(day)) != 0 {
            let moved = day + shift
            if (1...28).contains(moved) { result.monthDays |= 1 << Int64(moved); continue }
            // Past a month's end or before its start: the day depends on the month's length (28…31).
            for length in 28...31 {
                let wrapped = moved < 1 ? moved + length : moved > length ? moved - length : moved
                if (1...31).contains(wrapped) { result.monthDays |= 1 << Int64(wrapped) }
            }
        }
        let step = shift > 0 ? 1 : 11
        for m in 1...12 where months & (1 << Int64(m)) != 0 {
            result.months |= 1 << Int64(m)
            result.months |= 1 << Int64((m - 1 + step) % 12 + 1)
        }
        return result
    }
}

extension RecurrenceSet {
    /// The UTC days this set's occurrences can touch (start to start + `duration`), whatever
    /// floating zone they are read in: see ``DayMasks``. Day-level rule parts narrow the masks
    /// (BYDAY, BYMONTHDAY, BYMONTH, and what DTSTART implies for WEEKLY, MONTHLY and YEARLY
    /// rules); RDATEs, or no rule at all, give ``DayMasks/all``.
    public func utcDayMasks(duration: Int64) -> DayMasks {
        // Rules counted in another calendar fall on different Gregorian days each year.
        guard !rules.isEmpty, dates.isEmpty, !rules.contains(where: \.countsInCalendar) else { return .all }
        let local = start.local
        let startSecond = Int(local.localSeconds - Int64(local.date.daysSinceEpoch) * 86_400)
        var days = DayMasks.none
        days.add(day: local.date.daysSinceEpoch)  // DTSTART is always an occurrence
        var earliest = startSecond, latest = startSecond
        for rule in rules {
            let plan = ExpansionPlan(rule: rule, start: local)
            var weekdays = Int64(plan.plainWeekdays)
            for (iso, _) in plan.ordinalWeekdays { weekdays |= 1 << Int64(iso) }
            days.formUnion(
                DayMasks(
                    weekdays: plan.hasWeekdays ? weekdays : DayMasks.all.weekdays,
                    monthDays: plan.hasMonthDay && plan.monthDayNegative == 0 ? Int64(plan.monthDayPositive) : DayMasks.all.monthDays,
                    months: plan.monthMask != 0 ? Int64(plan.monthMask) : DayMasks.all.months))
            if plan.frequency < .daily || plan.timesOfDay.isEmpty {
                earliest = 0; latest = 86_399
            } else {
                earliest = min(earliest, plan.timesOfDay.first!); latest = max(latest, plan.timesOfDay.last!)
            }
        }
        // Wall time → instant: minus an offset the zone uses (a time in a DST gap too: it is read
        // with the offset before the gap). Floating and all-day times may be read in any zone.
        let offsets: ClosedRange<Int64>
        switch start {
        case .utc: offsets = 0...0
        case .zoned(_, let zone): offsets = Int64(zone.offsetBounds.lowerBound)...Int64(zone.offsetBounds.upperBound)
        case .floating, .allDay: offsets = -16 * 3600...16 * 3600
        }
        let first = floorDiv(Int64(earliest) - offsets.upperBound, 86_400)
        let last = floorDiv(Int64(latest) - offsets.lowerBound + max(duration, 0), 86_400)
        guard last - first < 27 else { return .all }
        var result = DayMasks.none
        for shift in first...last { result.formUnion(days.shifted(by: Int(shift))) }
        return result
    }
}
