import Foundation
import Testing
@testable import ChimeCore

@Suite("Civil dates: integer arithmetic agrees with Foundation's Gregorian calendar")
struct CivilDateTests {
    @Test func daysRoundTripAndMatchFoundation() {
        var gregorian = Calendar(identifier: .gregorian)
        gregorian.timeZone = TimeZone(identifier: "UTC")!
        // Every 37th day from 1600 to 2500: days since epoch, weekday and day of year.
        for day in stride(from: -135_140, through: 193_000, by: 37) {
            let date = CivilDate(daysSinceEpoch: day)
            #expect(date.daysSinceEpoch == day)
            let foundation = gregorian.dateComponents(
                [.year, .month, .day, .weekday, .dayOfYear],
                from: Date(timeIntervalSince1970: Double(day) * 86_400))
            #expect(date.year == foundation.year && date.month == foundation.month && date.day == foundation.day, "day \(day)")
            #expect(date.weekday.rawValue == foundation.weekday, "weekday of \(date)")
            #expect(date.dayOfYear == foundation.dayOfYear, "day of year of \(date)")
        }
    }

    @Test func leapYearsAndMonthLengths() {
        #expect(CivilDate.isLeapYear(2000) && CivilDate.isLeapYear(2024) && !CivilDate.isLeapYear(1900) && !CivilDate.isLeapYear(2100))
        #expect(CivilDate.daysInMonth(year: 2026, month: 2) == 28)
        #expect(CivilDate.daysInMonth(year: 2028, month: 2) == 29)
        #expect(!CivilDate(year: 2026, month: 2, day: 29).isValid)
        #expect(!CivilDate(year: 2026, month: 4, day: 31).isValid)
    }

    @Test func isoWeekNumbersWithAnyWeekStart() throws {
        // ISO 8601 (WKST=MO): 2026-01-01 is a Thursday, so week 1 starts on Monday 2025-12-29.
        let monday = ExpansionPlan(rule: try RecurrenceRule(parsing: "FREQ=YEARLY;BYWEEKNO=1"), start: LocalDateTime(year: 2026, month: 1, day: 1))
        #expect(CivilDate(daysSinceEpoch: monday.firstDayOfWeekOne(2026)) == CivilDate(year: 2025, month: 12, day: 29))
        // 2027-01-01 is a Friday: only 3 days of the year in that week, so week 1 starts 2027-01-04.
        #expect(CivilDate(daysSinceEpoch: monday.firstDayOfWeekOne(2027)) == CivilDate(year: 2027, month: 1, day: 4))
        // With WKST=SU the week of Sunday 2025-12-28 holds only Thu–Sat of 2026 (3 days): week 1 starts 2026-01-04.
        let sunday = ExpansionPlan(rule: try RecurrenceRule(parsing: "FREQ=YEARLY;BYWEEKNO=1;WKST=SU"), start: LocalDateTime(year: 2026, month: 1, day: 1))
        #expect(CivilDate(daysSinceEpoch: sunday.firstDayOfWeekOne(2026)) == CivilDate(year: 2026, month: 1, day: 4))
        // 2025-01-01 is a Wednesday: with WKST=SU, Sun 2024-12-29 … Sat 2025-01-04 has 4 days of 2025.
        #expect(CivilDate(daysSinceEpoch: sunday.firstDayOfWeekOne(2025)) == CivilDate(year: 2024, month: 12, day: 29))
        // Cross-check ISO weeks with Foundation's ISO 8601 calendar for every day of 2020–2030.
        var iso = Calendar(identifier: .iso8601)
        iso.timeZone = TimeZone(identifier: "UTC")!
        for year in 2020...2030 {
            let first = monday.firstDayOfWeekOne(year)
            let weeks = (monday.firstDayOfWeekOne(year + 1) - first) / 7
            let foundationWeeks = iso.range(
                of: .weekOfYear, in: .yearForWeekOfYear,
                for: Date(timeIntervalSince1970: Double(first + 3) * 86_400))!.count
            #expect(weeks == foundationWeeks, "weeks in \(year)")
            let comps = iso.dateComponents([.weekOfYear, .yearForWeekOfYear], from: Date(timeIntervalSince1970: Double(first) * 86_400))
            #expect(comps.weekOfYear == 1 && comps.yearForWeekOfYear == year)
        }
    }

    @Test func basicFormParsingRejectsImpossibleDates() {
        #expect(BasicDateTime.parse("19970902T090000") == .local(LocalDateTime(year: 1997, month: 9, day: 2, hour: 9)))
        #expect(BasicDateTime.parse("19970902T090000Z") == .utc(LocalDateTime(year: 1997, month: 9, day: 2, hour: 9)))
        #expect(BasicDateTime.parse("19970902") == .date(CivilDate(year: 1997, month: 9, day: 2)))
        for bad in ["20261301T090000", "20260230", "20260101T240000", "20260101T126000", "2026010", "2026-01-01", "", "20260101X090000"] {
            #expect(BasicDateTime.parse(bad) == nil, "\(bad) should be rejected")
        }
    }
}
