/// The day of the year a DST change happens on, in the forms an RRULE can say:
/// the n-th or last weekday of a month (`BYMONTH=3;BYDAY=-1SU`), the first weekday on or after a
/// day (`BYMONTH=3;BYDAY=FR;BYMONTHDAY=23,…,29`, Israel's "Friday before the last Sunday"), or a
/// fixed date (`BYMONTH=3;BYMONTHDAY=21`).
///
/// ```swift
/// let lastSunday = YearlyDateRule.weekdayOrdinal(month: 3, weekday: .sunday, ordinal: -1)
/// lastSunday.date(in: 2026)             // 2026-03-29
/// lastSunday.recurrenceRule.rfc5545     // "FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3"
/// ```
enum YearlyDateRule: Hashable {
    /// `ordinal` 1…4, or −1 for the last.
    case weekdayOrdinal(month: Int, weekday: Weekday, ordinal: Int)
    /// The first `weekday` on or after `day` (a seven-day window inside the month).
    case weekdayOnOrAfter(month: Int, weekday: Weekday, day: Int)
    case fixedDay(month: Int, day: Int)

    /// The date in `year`, if the rule names one.
    func date(in year: Int) -> CivilDate? {
        switch self {
        case .weekdayOrdinal(let month, let weekday, let ordinal):
            let length = CivilDate.daysInMonth(year: year, month: month)
            if ordinal < 0 {
                let last = CivilDate(year: year, month: month, day: length)
                return CivilDate(year: year, month: month, day: length - (last.weekday.isoIndex - weekday.isoIndex + 7) % 7)
            }
            return Self.onOrAfter(year: year, month: month, day: 1 + 7 * (ordinal - 1), weekday: weekday)
        case .weekdayOnOrAfter(let month, let weekday, let day):
            return Self.onOrAfter(year: year, month: month, day: day, weekday: weekday)
        case .fixedDay(let month, let day):
            let date = CivilDate(year: year, month: month, day: day)
            return date.isValid ? date : nil
        }
    }

    private static func onOrAfter(year: Int, month: Int, day: Int, weekday: Weekday) -> CivilDate? {
        let first = CivilDate(year: year, month: month, day: day)
        let date = CivilDate(year: year, month: month, day: day + (weekday.isoIndex - first.weekday.isoIndex + 7) % 7)
        return date.isValid ? date : nil
    }

    /// `FREQ=YEARLY` with the parts that pick the date; the time of day comes from DTSTART.
    var recurrenceRule: RecurrenceRule {
        let rule: RecurrenceRule?
        switch self {
        case .weekdayOrdinal(let month, let weekday, let ordinal):
            rule = try? RecurrenceRule(
                .yearly, daysOfTheWeek: [RecurrenceDayOfWeek(weekday, weekNumber: ordinal)],
                monthsOfTheYear: [month])
        case .weekdayOnOrAfter(let month, let weekday, let day):
            rule = try? RecurrenceRule(
                .yearly, daysOfTheWeek: [RecurrenceDayOfWeek(weekday)],
                daysOfTheMonth: Array(day...(day + 6)), monthsOfTheYear: [month])
        case .fixedDay(let month, let day):
            rule = try? RecurrenceRule(.yearly, daysOfTheMonth: [day], monthsOfTheYear: [month])
        }
        // Every case is a valid YEARLY rule by construction (months 1…12, days 1…31).
        guard let rule else { preconditionFailure("invalid yearly date rule \(self)") }
        return rule
    }

    /// The rules that give `date` in its year, simplest first: last, n-th, on-or-after, fixed.
    static func candidates(for date: CivilDate) -> [YearlyDateRule] {
        let (month, day, weekday) = (date.month, date.day, date.weekday)
        var result: [YearlyDateRule] = []
        if day + 7 > CivilDate.daysInMonth(year: date.year, month: month) {
            result.append(.weekdayOrdinal(month: month, weekday: weekday, ordinal: -1))
        }
        let ordinal = (day - 1) / 7 + 1
        if ordinal <= 4 { result.append(.weekdayOrdinal(month: month, weekday: weekday, ordinal: ordinal)) }
        // Windows that fit the month in every year (February: 28 days), other than 1, 8, 15, 22.
        let shortest = month == 2 ? 28 : CivilDate.daysInMonth(year: 2001, month: month)
        for first in max(1, day - 6)...day where first + 6 <= shortest && (first - 1) % 7 != 0 {
            result.append(.weekdayOnOrAfter(month: month, weekday: weekday, day: first))
        }
        if !(month == 2 && day == 29) { result.append(.fixedDay(month: month, day: day)) }
        return result
    }
}

/// One kind of yearly DST change: its date rule, its wall time (on the clock before the change)
/// and the offsets either side.
struct YearlyOnsetPattern: Hashable {
    var date: YearlyDateRule
    /// Seconds after local midnight, on the clock before the change.
    var timeOfDay: Int64
    var offsetBefore: Int32
    var offsetAfter: Int32

    /// The change in `year`, if the date rule names a day that year.
    func change(in year: Int) -> OffsetChange? {
        guard let day = date.date(in: year) else { return nil }
        let local = Int64(day.daysSinceEpoch) * 86_400 + timeOfDay
        return OffsetChange(at: local - Int64(offsetBefore), offsetBefore: offsetBefore, offsetAfter: offsetAfter)
    }

    /// The pattern that explains `changes[reference]` together with the longest unbroken run of
    /// yearly changes around it (all of `changes` have the same offsets, in order). Ties go to
    /// the simplest rule (``YearlyDateRule/candidates(for:)`` order).
    static func infer(from changes: [OffsetChange], reference: Int) -> YearlyOnsetPattern? {
        guard changes.indices.contains(reference) else { return nil }
        let ref = changes[reference]
        let refLocal = LocalDateTime(localSeconds: ref.localOnset)
        let timeOfDay = ref.localOnset - Int64(refLocal.date.daysSinceEpoch) * 86_400
        var byYear: [Int: Int64] = [:]
        for change in changes { byYear[LocalDateTime(localSeconds: change.localOnset).date.year] = change.at }
        var best: (pattern: YearlyOnsetPattern, score: Int)?
        for candidate in YearlyDateRule.candidates(for: refLocal.date) {
            let pattern = YearlyOnsetPattern(
                date: candidate, timeOfDay: timeOfDay,
                offsetBefore: ref.offsetBefore, offsetAfter: ref.offsetAfter)
            func matches(_ year: Int) -> Bool {
                guard let actual = byYear[year], let expected = pattern.change(in: year) else { return false }
                return actual == expected.at
            }
            var score = 1
            var year = refLocal.date.year - 1
            while matches(year) { score += 1; year -= 1 }
            year = refLocal.date.year + 1
            while matches(year) { score += 1; year += 1 }
            if score > (best?.score ?? 0) { best = (pattern, score) }
        }
        return best?.pattern
    }
}
