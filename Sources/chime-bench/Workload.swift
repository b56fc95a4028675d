import ChimeCore

/// The benchmark workload: seeded rules mixed over frequencies and BY-parts, in five zones,
/// DTSTART 2020–2026, each expanded to 500 occurrences or to 2040-01-01.
struct BenchRule {
    let rrule: String
    let dtstart: LocalDateTime
    let zone: String
}

struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

enum Workload {
    static let zones = ["America/New_York", "Europe/Berlin", "Australia/Sydney", "Asia/Kolkata", "UTC"]
    static let days = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]

    static func rules(count: Int, seed: UInt64) -> [BenchRule] {
        var g = SplitMix64(state: seed)
        return (0..<count).map { _ in rule(&g) }
    }

    private static func pick<T>(_ items: [T], _ g: inout SplitMix64) -> T { items[Int.random(in: 0..<items.count, using: &g)] }

    private static func someDays(_ g: inout SplitMix64, max: Int) -> String {
        Array(days.shuffled(using: &g).prefix(Int.random(in: 1...max, using: &g))).joined(separator: ",")
    }

    private static func rule(_ g: inout SplitMix64) -> BenchRule {
        let roll = Int.random(in: 0..<100, using: &g)
        var parts: [String]
        switch roll {
        case 0..<30:
            parts = ["FREQ=DAILY", "INTERVAL=\(Int.random(in: 1...3, using: &g))"]
            if Bool.random(using: &g) { parts.append("BYDAY=" + someDays(&g, max: 5)) }
            if Int.random(in: 0..<4, using: &g) == 0 { parts.append("BYMONTH=\(Int.random(in: 1...6, using: &g)),\(Int.random(in: 7...12, using: &g))") }
        case 30..<55:
            parts = ["FREQ=WEEKLY", "INTERVAL=\(Int.random(in: 1...2, using: &g))", "BYDAY=" + someDays(&g, max: 3)]
        case 55..<80:
            parts = ["FREQ=MONTHLY"]
            switch Int.random(in: 0..<3, using: &g) {
            case 0: parts.append("BYMONTHDAY=\(Int.random(in: 1...28, using: &g)),\(pick([-1, -2, 15], &g))")
            case 1: parts.append("BYDAY=\(pick([1, 2, 3, -1], &g))\(pick(days, &g))")
            default: parts += ["BYDAY=MO,TU,WE,TH,FR", "BYSETPOS=\(pick([1, -1, 2], &g))"]
            }
        case 80..<90:
            parts = ["FREQ=YEARLY"]
            switch Int.random(in: 0..<4, using: &g) {
            case 0: parts += ["BYMONTH=\(Int.random(in: 1...12, using: &g))", "BYMONTHDAY=\(Int.random(in: 1...28, using: &g))"]
            case 1: parts += ["BYMONTH=\(Int.random(in: 1...12, using: &g))", "BYDAY=\(pick([1, 2, -1], &g))\(pick(days, &g))"]
            case 2: parts.append("BYYEARDAY=\(Int.random(in: 1...200, using: &g)),-\(Int.random(in: 1...100, using: &g))")
            default: parts += ["BYWEEKNO=\(Int.random(in: 1...52, using: &g))", "BYDAY=" + someDays(&g, max: 2)]
            }
        case 90..<97:
            parts = ["FREQ=HOURLY", "INTERVAL=\(pick([1, 2, 3, 6], &g))"]
            if Bool.random(using: &g) { parts.append("BYHOUR=8,9,10,11,12,13,14,15,16,17,18") }
        default:
            parts = ["FREQ=MINUTELY", "INTERVAL=\(pick([15, 20, 30], &g))", "BYHOUR=9,10,11,12"]
        }
        let start = LocalDateTime(year: Int.random(in: 2020...2026, using: &g), month: Int.random(in: 1...12, using: &g),
                                  day: Int.random(in: 1...28, using: &g), hour: Int.random(in: 6...20, using: &g),
                                  minute: pick([0, 15, 30, 45], &g))
        return BenchRule(rrule: parts.joined(separator: ";"), dtstart: start, zone: pick(zones, &g))
    }
}
