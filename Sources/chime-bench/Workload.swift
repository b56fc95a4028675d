import ChimeCore
import ChimeTestSupport

/// The benchmark workload: seeded rules mixed over frequencies and BY-parts, in five zones,
/// DTSTART 2020–2026, each expanded to 500 occurrences or to 2040-01-01.
struct BenchRule {
    let rrule: String
    let dtstart: LocalDateTime
    let zone: String
}

enum Workload {
    static let zones = ["America/New_York", "Europe/Berlin", "Australia/Sydney", "Asia/Kolkata", "UTC"]
    static let days = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]

    static func rules(count: Int, seed: UInt64) -> [BenchRule] {
        var g = SeededRandom(seed: seed)
        return (0..<count).map { _ in rule(&g) }
    }

    private static func pick<T>(_ items: [T], _ g: inout SeededRandom) -> T { g.pick(items) }

    private static func someDays(_ g: inout SeededRandom, max: Int) -> String {
        let first = g.int(in: 0...6)
        return (0..<g.int(in: 1...max)).map { days[(first + $0 * 2) % 7] }.joined(separator: ",")
    }

    private static func rule(_ g: inout SeededRandom) -> BenchRule {
        let roll = g.int(in: 0...99)
        var parts: [String]
        switch roll {
        case 0..<30:
            parts = ["FREQ=DAILY", "INTERVAL=\(g.int(in: 1...3))"]
            if g.chance(0.5) { parts.append("BYDAY=" + someDays(&g, max: 5)) }
            if g.int(in: 0...3) == 0 { parts.append("BYMONTH=\(g.int(in: 1...6)),\(g.int(in: 7...12))") }
        case 30..<55:
            parts = ["FREQ=WEEKLY", "INTERVAL=\(g.int(in: 1...2))", "BYDAY=" + someDays(&g, max: 3)]
        case 55..<80:
            parts = ["FREQ=MONTHLY"]
            switch g.int(in: 0...2) {
            case 0: parts.append("BYMONTHDAY=\(g.int(in: 1...28)),\(pick([-1, -2, 15], &g))")
            case 1: parts.append("BYDAY=\(pick([1, 2, 3, -1], &g))\(pick(days, &g))")
            default: parts += ["BYDAY=MO,TU,WE,TH,FR", "BYSETPOS=\(pick([1, -1, 2], &g))"]
            }
        case 80..<90:
            parts = ["FREQ=YEARLY"]
            switch g.int(in: 0...3) {
            case 0: parts += ["BYMONTH=\(g.int(in: 1...12))", "BYMONTHDAY=\(g.int(in: 1...28))"]
            case 1: parts += ["BYMONTH=\(g.int(in: 1...12))", "BYDAY=\(pick([1, 2, -1], &g))\(pick(days, &g))"]
            case 2: parts.append("BYYEARDAY=\(g.int(in: 1...200)),-\(g.int(in: 1...100))")
            default: parts += ["BYWEEKNO=\(g.int(in: 1...52))", "BYDAY=" + someDays(&g, max: 2)]
            }
        case 90..<97:
            parts = ["FREQ=HOURLY", "INTERVAL=\(pick([1, 2, 3, 6], &g))"]
            if g.chance(0.5) { parts.append("BYHOUR=8,9,10,11,12,13,14,15,16,17,18") }
        default:
            parts = ["FREQ=MINUTELY", "INTERVAL=\(pick([15, 20, 30], &g))", "BYHOUR=9,10,11,12"]
        }
        let start = LocalDateTime(
            year: g.int(in: 2020...2026), month: g.int(in: 1...12),
            day: g.int(in: 1...28), hour: g.int(in: 6...20),
            minute: pick([0, 15, 30, 45], &g))
        return BenchRule(rrule: parts.joined(separator: ";"), dtstart: start, zone: pick(zones, &g))
    }
}
