// Random RRULEs and DTSTARTs for the property and differential tests, drawn from
// ChimeTestSupport's SeededRandom. No Foundation, no Testing: the file can move into a support
// target for a benchmark workload as it is. The same seed gives the same rules and start times
// on every platform and Swift version (nothing goes through the standard library's
// `random(in:using:)`, whose algorithm is not specified).
import ChimeCore
import ChimeTestSupport

/// A random DTSTART + RRULE, with the seed that rebuilds it: `RandomRuleGenerator(seed:).next()`.
struct RandomRecurrenceCase: Sendable, CustomStringConvertible {
    let seed: UInt64
    let zoneName: String
    let start: LocalDateTime
    let rule: RecurrenceRule

    var description: String {
        "seed \(seed): DTSTART;TZID=\(zoneName):\(start.basicFormat) RRULE:\(rule.rfc5545)"
    }
}

/// Random valid RRULEs over every frequency and rule part, and random DTSTARTs 1990–2035.
///
/// Frequencies are weighted towards DAILY…YEARLY; sub-daily rules get the BY-parts that keep
/// them matching often (no BYMONTHDAY=31 with BYMONTH=2 at SECONDLY), so that a peer engine
/// without a search horizon cannot spin. Coarser rules may still be unsatisfiable now and then
/// (`FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30`): such rules are valid and part of the workload.
///
/// ```swift
/// var g = RandomRuleGenerator(seed: 7)
/// let c = g.next()          // a RandomRecurrenceCase
/// let r = g.rule()          // a rule alone (any UNTIL form)
/// ```
struct RandomRuleGenerator: Sendable {
    static let zoneNames = [
        "America/New_York", "Europe/Berlin", "Australia/Sydney",
        "Australia/Lord_Howe", "Asia/Kolkata", "UTC"
    ]

    /// Which UNTIL forms to produce. RFC 5545 wants a UTC UNTIL with a zoned DTSTART, so
    /// cases (``next()``) use `.utcOnly`; parser tests use `.any`.
    enum UntilForms: Sendable { case any, utcOnly }

    private(set) var random: SeededRandom
    /// Rules the initialiser refused: the generator has a bug if this is ever non-zero.
    private(set) var rejected: [String] = []

    init(seed: UInt64) { random = SeededRandom(seed: seed) }

    /// A case built from its own seed, so any single case can be rebuilt from what a failure prints.
    static func testCase(seed: UInt64) -> RandomRecurrenceCase {
        var g = RandomRuleGenerator(seed: seed)
        let zone = g.random.pick(zoneNames)
        let start = g.start()
        return RandomRecurrenceCase(seed: seed, zoneName: zone, start: start, rule: g.rule(start: start, until: .utcOnly))
    }

    /// The next case: seeds are drawn from this generator, each case rebuilt by ``testCase(seed:)``.
    mutating func next() -> RandomRecurrenceCase { Self.testCase(seed: random.next()) }

    /// A DTSTART between 1990 and 2035; times on the hour or quarter hour mostly.
    mutating func start() -> LocalDateTime {
        let year = random.int(in: 1990...2035)
        let month = random.int(in: 1...12)
        let day = random.int(in: 1...CivilDate.daysInMonth(year: year, month: month))
        let minute = random.weighted([(0, 5), (30, 2), (15 * random.int(in: 0...3), 2), (random.int(in: 0...59), 1)])
        let second = random.chance(0.1) ? random.int(in: 0...59) : 0
        return LocalDateTime(year: year, month: month, day: day, hour: random.int(in: 0...23), minute: minute, second: second)
    }

    /// A valid rule. `start` places UNTIL after it (default: a random start).
    mutating func rule(start: LocalDateTime? = nil, until forms: UntilForms = .any) -> RecurrenceRule {
        while true {
            let frequency = random.weighted([
                (RecurrenceFrequency.yearly, 20), (.monthly, 22), (.weekly, 20), (.daily, 20),
                (.hourly, 8), (.minutely, 7), (.secondly, 3)
            ])
            let candidate = parts(frequency, start: start ?? self.start(), forms: forms)
            do {
                return try RecurrenceRule(
                    frequency, interval: candidate.interval, daysOfTheWeek: candidate.days,
                    daysOfTheMonth: candidate.monthDays, monthsOfTheYear: candidate.months,
                    weeksOfTheYear: candidate.weeks, daysOfTheYear: candidate.yearDays,
                    setPositions: candidate.setPositions, hours: candidate.hours,
                    minutes: candidate.minutes, seconds: candidate.seconds,
                    end: candidate.end, firstDayOfTheWeek: candidate.weekStart)
            } catch {
                rejected.append("\(frequency.rfc5545): \(error)")
            }
        }
    }

    private struct Parts {
        var interval = 1
        var days: [RecurrenceDayOfWeek] = []
        var monthDays: [Int] = [], months: [Int] = [], weeks: [Int] = [], yearDays: [Int] = []
        var setPositions: [Int] = [], hours: [Int] = [], minutes: [Int] = [], seconds: [Int] = []
        var end = RecurrenceEnd.never
        var weekStart: Weekday?
    }

    private mutating func parts(_ frequency: RecurrenceFrequency, start: LocalDateTime, forms: UntilForms) -> Parts {
        var p = Parts()
        let subDaily = frequency < .daily
        p.interval = random.chance(0.5) ? 1 : random.int(in: 2...4)

        if subDaily {
            // At most one day-level limit, and none that leaves months without a match: a peer
            // engine (libical) walks sub-daily rules period by period, through every hour or minute.
            let choices: [(Int, Int)] =
                switch frequency {
                case .hourly: [(0, 60), (1, 13), (2, 13), (3, 14)]
                case .minutely: [(0, 65), (2, 15), (3, 20)]
                default: [(0, 1)]
                }
            switch random.weighted(choices) {
            case 1: p.months = random.distinct(upTo: 3) { $0.int(in: 1...12) }
            case 2: p.monthDays = random.distinct(upTo: 3) { $0.int(in: 1...28) }
            case 3: p.days = (0..<random.int(in: 1...3)).map { _ in RecurrenceDayOfWeek(Weekday(isoIndex: random.int(in: 0...6))) }
            default: break
            }
        } else {
            // Day-level parts intersect, so combinations are kept mostly satisfiable: a rule that
            // never matches is valid (and appears), but a peer engine takes centuries to say so.
            if random.chance(0.25) { p.months = random.distinct(upTo: 3) { $0.int(in: 1...12) } }
            if frequency == .yearly {
                if random.chance(0.12) {
                    p.yearDays = random.distinct(upTo: 3) { $0.signed(366, negative: 0.3) }
                } else if random.chance(0.15) {
                    p.weeks = random.distinct(upTo: 3) { $0.signed(53, negative: 0.25) }
                }
            }
            if random.chance(0.4) {
                p.days = days(
                    frequency, ordinals: frequency == .monthly || (frequency == .yearly && p.weeks.isEmpty),
                    withinMonth: frequency == .monthly || !p.months.isEmpty)
            }
            let ordinals = p.days.contains { $0.weekNumber != 0 }
            let monthDayChance = frequency < .monthly ? 0.15 : p.yearDays.isEmpty && p.weeks.isEmpty ? 0.3 : 0.03
            if frequency != .weekly && random.chance(ordinals ? 0.03 : p.days.isEmpty ? monthDayChance : monthDayChance / 2) {
                p.monthDays = random.distinct(upTo: 3) { $0.signed(31, negative: 0.3) }
            }
        }
        if random.chance(frequency == .hourly ? 0.3 : 0.2) { p.hours = random.distinct(upTo: 3) { $0.int(in: 0...23) } }
        if random.chance(frequency == .minutely ? 0.3 : 0.15) {
            p.minutes = random.distinct(upTo: 3) { $0.weighted([(15 * $0.int(in: 0...3), 2), ($0.int(in: 0...59), 1)]) }
        }
        if random.chance(frequency == .secondly ? 0.3 : 0.04) { p.seconds = random.distinct(upTo: 2) { $0.int(in: 0...59) } }

        // A sub-daily rule with INTERVAL > 1 steps on a grid anchored at DTSTART, where its own
        // limit (BYHOUR for HOURLY…) may name no reachable value: such a rule never matches and only
        // a centuries-long walk shows it. Keep one reachable value.
        if subDaily && p.interval > 1 {
            switch frequency {
            case .hourly where !p.hours.isEmpty && !p.hours.contains(where: { ($0 - start.hour) % p.interval == 0 }):
                p.hours.append((start.hour + p.interval * random.int(in: 0...(23 / p.interval))) % 24)
            case .minutely where !p.minutes.isEmpty && !p.minutes.contains(where: { ($0 - start.minute) % p.interval == 0 }):
                p.minutes.append((start.minute + p.interval * random.int(in: 0...(59 / p.interval))) % 60)
            case .secondly where !p.seconds.isEmpty && !p.seconds.contains(where: { ($0 - start.second) % p.interval == 0 }):
                p.seconds.append((start.second + p.interval * random.int(in: 0...(59 / p.interval))) % 60)
            default: break
            }
        }

        // Likewise MONTHLY with INTERVAL > 1 reaches only the months on its grid.
        if frequency == .monthly && p.interval > 1 && !p.months.isEmpty
            && !p.months.contains(where: { ($0 - start.date.month) % p.interval == 0 })
        {
            p.months.append((start.date.month - 1 + p.interval * random.int(in: 0...(11 / p.interval))) % 12 + 1)
        }

        let hasByPart =
            !(p.days.isEmpty && p.monthDays.isEmpty && p.months.isEmpty && p.weeks.isEmpty
            && p.yearDays.isEmpty && p.hours.isEmpty && p.minutes.isEmpty && p.seconds.isEmpty)
        if hasByPart && random.chance(0.2) {
            // BYSETPOS past the instances a period holds never matches, and an engine has to walk
            // centuries of periods to learn that: positions stay within a low estimate of the count,
            // but for a rare far one.
            let n = min(3, Self.instancesPerPeriod(frequency, p))
            p.setPositions = random.distinct(upTo: 2) {
                $0.weighted([($0.int(in: 1...n), 8), (-$0.int(in: 1...n), 8), ($0.signed(10, negative: 0.5), n > 1 ? 1 : 0)])
            }
        }
        if random.chance(0.2) { p.weekStart = Weekday(isoIndex: random.int(in: 0...6)) }

        switch random.int(in: 0...99) {
        case 0..<35: p.end = .count(random.weighted([(random.int(in: 1...10), 2), (random.int(in: 11...60), 3)]))
        case 35..<65: p.end = .until(until(after: start, frequency: frequency, forms: forms))
        default: break
        }
        return p
    }

    /// A low estimate of the instances one period of the rule holds.
    private static func instancesPerPeriod(_ frequency: RecurrenceFrequency, _ p: Parts) -> Int {
        guard frequency >= .daily else { return 1 }
        let times = max(1, p.hours.count) * max(1, p.minutes.count) * max(1, p.seconds.count)
        let plainDays = p.days.allSatisfy { $0.weekNumber == 0 } ? p.days.count : 0
        let intersected = !p.monthDays.isEmpty || !p.yearDays.isEmpty || !p.weeks.isEmpty || plainDays == 0
        let days: Int =
            switch frequency {
            case .daily: 1
            case .weekly: max(1, p.days.count)
            case .monthly: intersected ? (p.days.isEmpty ? p.monthDays.count : 1) : 4 * plainDays
            default: intersected ? 1 : 4 * plainDays * max(1, p.months.count)
            }
        return max(1, days * times)
    }

    /// 1–3 weekdays; with `ordinals`, half the time each with a week number (±1…5 within a month).
    private mutating func days(_ frequency: RecurrenceFrequency, ordinals allowed: Bool, withinMonth: Bool) -> [RecurrenceDayOfWeek] {
        let ordinals = allowed && random.chance(0.5)
        return (0..<random.int(in: 1...3)).map { _ in
            let day = Weekday(isoIndex: random.int(in: 0...6))
            guard ordinals else { return RecurrenceDayOfWeek(day) }
            let n =
                withinMonth
                ? random.weighted([(random.int(in: 1...4), 6), (-1, 3), (random.pick([5, -5, -2]), 1)])
                : random.weighted([(random.int(in: 1...5), 4), (-1, 2), (random.signed(53, negative: 0.4), 2)])
            return RecurrenceDayOfWeek(day, weekNumber: n)
        }
    }

    /// An UNTIL a frequency-sized span after `start` (rarely before it).
    private mutating func until(after start: LocalDateTime, frequency: RecurrenceFrequency, forms: UntilForms) -> RecurrenceUntil {
        let spanDays: Int
        switch frequency {
        case .yearly: spanDays = 366 * 30
        case .monthly: spanDays = 366 * 6
        case .weekly: spanDays = 366 * 2
        case .daily: spanDays = 366
        case .hourly: spanDays = 20
        case .minutely: spanDays = 2
        case .secondly: spanDays = 1
        }
        let seconds = random.chance(0.03) ? -random.int(in: 1...86_400 * 30) : random.int(in: 0...spanDays * 86_400)
        var local = LocalDateTime(localSeconds: start.localSeconds + Int64(seconds))
        if random.chance(0.15) { local = LocalDateTime(date: local.date, hour: start.hour, minute: start.minute, second: start.second) }
        switch forms == .utcOnly ? 0 : random.int(in: 0...2) {
        case 0: return .utc(Instant(secondsSince1970: local.localSeconds))  // wall time read as UTC: close enough
        case 1: return .local(local)
        default: return .date(local.date)
        }
    }
}

extension SeededRandom {
    /// ±1…`limit`, negative with probability `negative`.
    mutating func signed(_ limit: Int, negative: Double) -> Int {
        let v = int(in: 1...limit)
        return chance(negative) ? -v : v
    }
}
