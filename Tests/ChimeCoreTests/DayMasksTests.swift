import Testing
@testable import ChimeCore
import ChimeTestSupport

/// ``DayMasks`` may only let through too much, never too little: every UTC day an occurrence
/// touches passes its set's masks, in any zone, floating zone, duration, and far after DTSTART.
@Suite("Day masks of recurrence sets")
struct DayMasksTests {
    static let baseSeed = TestSeed.base(0x5EED_0D41)
    static let setCount = TestSeed.scaled(1_500)
    static let floatingZones = ["UTC", "Pacific/Kiritimati", "Pacific/Pago_Pago", "Australia/Lord_Howe", "America/New_York"]

    /// The UTC days from `start` to `start + duration` (the start's day alone for no duration).
    static func touchedDays(_ start: Int64, _ duration: Int64) -> ClosedRange<Int64> {
        floorDiv(start, 86_400)...floorDiv(start + max(duration - 1, 0), 86_400)
    }

    static func check(_ set: RecurrenceSet, duration: Int64, floatingZone: ZoneRules, context: String) {
        let masks = set.utcDayMasks(duration: duration)
        var near = set.occurrences(near: Instant(secondsSince1970: 1_900_000_000), floatingZone: floatingZone)
        var early = set.occurrences(floatingZone: floatingZone).makeIterator()
        for source in 0..<2 {
            for _ in 0..<200 {
                guard let o = source == 0 ? early.next() : near.next() else { break }
                for day in touchedDays(o.instant.secondsSince1970, duration) {
                    let one = DayMasks(window: Instant(secondsSince1970: day * 86_400), to: Instant(secondsSince1970: day * 86_400 + 86_400))
                    if !masks.intersects(one) {
                        Issue.record("\(context): \(o) touches UTC day \(day), masks \(masks)")
                        return
                    }
                }
            }
        }
    }

    @Test func everyOccurrenceDayPassesItsSetsMasks() throws {
        var seeds = SeededRandom(seed: Self.baseSeed)
        for _ in 0..<Self.setCount {
            let seed = seeds.next()
            let base = RandomRuleGenerator.testCase(seed: seed)
            var random = SeededRandom(seed: seed ^ 0x0D41)
            let zone = try ZoneRules.named(base.zoneName)
            let duration = Int64(random.pick([0, 900, 3_600, 5 * 3_600, 23 * 3_600, 86_400, 3 * 86_400]))
            let floating = try ZoneRules.named(random.pick(Self.floatingZones))
            var rules = [base.rule]
            if random.chance(0.1) {
                var generator = RandomRuleGenerator(seed: seed ^ 0x5A5A)
                rules.append(generator.rule(start: base.start, until: .utcOnly))
            }
            let starts: [RecurrenceStart] = [.zoned(base.start, zone), .floating(base.start), .utc(base.start), .allDay(base.start.date)]
            for start in starts {
                let set = RecurrenceSet(start: start, rules: rules)
                let days = start.isAllDay ? max(1, duration / 86_400) * 86_400 : duration
                Self.check(set, duration: days, floatingZone: floating, context: "\(base) start \(start) duration \(days) floating \(floating)")
            }
        }
    }

    @Test func aWeeklyMondaySeriesMissesOtherDaysAndExtraDatesOpenEveryDay() throws {
        let mondays = RecurrenceSet(
            start: .utc(LocalDateTime(year: 2026, month: 6, day: 1, hour: 9)),
            rules: [try RecurrenceRule(parsing: "FREQ=WEEKLY")])
        let masks = mondays.utcDayMasks(duration: 3_600)
        func day(_ d: Int) -> DayMasks {
            let start = Instant(secondsSince1970: Int64(CivilDate(year: 2026, month: 6, day: d).daysSinceEpoch) * 86_400)
            return DayMasks(window: start, to: Instant(secondsSince1970: start.secondsSince1970 + 86_400))
        }
        #expect(masks.weekdays == 1)
        #expect(masks.intersects(day(8)))
        #expect(!masks.intersects(day(9)))
        var withExtra = mondays
        withExtra.dates = [.local(LocalDateTime(year: 2026, month: 6, day: 10, hour: 9))]
        #expect(withExtra.utcDayMasks(duration: 3_600) == .all)
        let yearly = RecurrenceSet(
            start: .zoned(LocalDateTime(year: 2026, month: 12, day: 24, hour: 18), try .named("Europe/Berlin")),
            rules: [try RecurrenceRule(parsing: "FREQ=YEARLY")])
        #expect(yearly.utcDayMasks(duration: 3_600) == DayMasks(weekdays: 0x7F, monthDays: 1 << 24, months: 1 << 12))
    }
}
