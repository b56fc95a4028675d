import Testing
@testable import ChimeCore
import LibicalShim

/// Chime against libical 3.0.16 (through `LibicalShim`) on identical input: the first 200
/// instants, up to 2037 (the end of libical's zone tables), of thousands of random rules.
///
/// libical departs from RFC 5545 in known places. Each is a `LibicalDeviation` below, with the
/// RFC section and a worked example; a case is left out of the comparison only when one of
/// them applies. Every other difference fails the test.
@Suite("Differential: Chime vs libical")
struct LibicalDifferentialTests {
    static let baseSeed = TestSeed.base(0x5EED_0003)
    static let caseCount = TestSeed.scaled(3_000)
    static let maxInstances = 200
    static let until2037: Int64 = 2_114_380_800  // 2037-01-01T00:00:00Z

    // MARK: - The two engines

    static func libical(_ rule: String, _ start: LocalDateTime, _ zone: String) -> [Int64]? {
        var buffer = [Int64](repeating: 0, count: maxInstances)
        let n = chime_libical_expand(rule, start.basicFormat, zone, until2037, Int32(maxInstances), &buffer)
        return n < 0 ? nil : Array(buffer.prefix(Int(n)))
    }

    static func chime(_ rule: RecurrenceRule, _ start: LocalDateTime, _ zone: ZoneRules) -> [Occurrence] {
        let set = RecurrenceSet(start: .zoned(start, zone), rules: [rule])
        return Array(set.occurrences().lazy.prefix { $0.instant.secondsSince1970 <= until2037 }.prefix(maxInstances))
    }

    /// RFC 5545 §3.8.5.3: a recurrence set whose DTSTART does not match its rule is undefined.
    /// Cases are compared from a synchronized DTSTART: the rule's first instance after the random
    /// one (its wall time as generated), COUNT aside. A rule with no such instance up to its UNTIL
    /// keeps the random DTSTART.
    static func synchronized(_ c: RandomRecurrenceCase, zone: ZoneRules) -> LocalDateTime {
        var open = c.rule
        if case .count = open.end { open.end = .never }
        let set = RecurrenceSet(start: .zoned(c.start, zone), rules: [open])
        return set.first(2).dropFirst().first?.nominal ?? c.start
    }

    // MARK: - Random cases

    @Test("3,000 random rules (CHIME_TEST_SCALE × 3,000): Chime and libical produce identical instants outside documented libical deviations")
    func randomRules() throws {
        var tally: [String: Int] = [:]
        var failures = 0
        for i in 0..<UInt64(Self.caseCount) {
            let random = RandomRuleGenerator.testCase(seed: Self.baseSeed &+ i)
            let zone = try ZoneRules.named(random.zoneName)
            let c = RandomRecurrenceCase(seed: random.seed, zoneName: random.zoneName,
                                         start: Self.synchronized(random, zone: zone), rule: random.rule)
            let verdict = Self.compare(c, zone: zone)
            tally[verdict.label, default: 0] += 1
            if case .mismatch(let detail) = verdict {
                failures += 1
                let rebuild = "rebuild with RandomRuleGenerator.testCase(seed:), then synchronized(_:zone:)"
                Issue.record("Chime and libical differ (case seed \(c.seed); \(rebuild)): \(c)\n\(detail)")
            }
        }
        let summary = tally.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
        print("libical differential over \(Self.caseCount) rules — \(summary)")
        #expect(tally[Verdict.identical.label, default: 0] > Self.caseCount / 2, "too few cases compared: \(summary)")
        #expect(failures == 0)
    }

    enum Verdict {
        case identical
        /// Left out: every difference is explained by these deviations (most often one).
        case excluded([LibicalDeviation])
        case mismatch(String)

        static func excluded(_ deviation: LibicalDeviation) -> Verdict { .excluded([deviation]) }

        var label: String {
            switch self {
            case .identical: return "identical"
            case .excluded(let d): return "excluded " + d.map(\.rawValue).joined(separator: " + ")
            case .mismatch: return "MISMATCH"
            }
        }
    }

    static func compare(_ c: RandomRecurrenceCase, zone: ZoneRules) -> Verdict {
        let chimeOccurrences = chime(c.rule, c.start, zone)
        let chimeInstants = chimeOccurrences.map(\.instant.secondsSince1970)
        if LibicalDeviation.loopsAtHalfHourFallBack.applies(c, zone: zone, chime: chimeInstants) {
            return .excluded(.loopsAtHalfHourFallBack)  // libical would never return
        }
        // Decided from the rule alone: libical is not asked (some of these take it seconds).
        if let rulePart = LibicalDeviation.ruleLevel.first(where: { $0.applies(c, zone: zone, chime: chimeInstants) }) {
            return .excluded(rulePart)
        }
        guard let lib = libical(c.rule.rfc5545, c.start, c.zoneName) else { return .excluded(.refusesRule) }
        if lib == chimeInstants { return .identical }
        if LibicalDeviation.startOnly(libical: lib, chime: chimeInstants) { return .excluded(.omitsUnmatchedStart) }
        var compared = (libical: lib, chime: chimeOccurrences)
        var found: [LibicalDeviation] = []
        if let r = LibicalDeviation.withoutRepeats(c, libical: lib, chimeCount: chimeOccurrences.count) {
            compared = (r.libical, Array(chimeOccurrences.prefix(r.chimeCount)))
            found.append(.repeatsInstants)
            if compared.libical == compared.chime.map(\.instant.secondsSince1970) { return .excluded(found) }
        }
        if let dst = LibicalDeviation.dstExplanation(c, zone: zone, libical: compared.libical, chime: compared.chime) {
            return .excluded(found + [dst])
        }
        return .mismatch(describeDifference(libical: lib, chime: chimeInstants, zone: zone))
    }

    static func describeDifference(libical lib: [Int64], chime: [Int64], zone: ZoneRules) -> String {
        let k = (0..<min(lib.count, chime.count)).first { lib[$0] != chime[$0] } ?? min(lib.count, chime.count)
        func show(_ list: [Int64], _ j: Int) -> String {
            guard j < list.count else { return "—" }
            let i = Instant(secondsSince1970: list[j])
            let offset = Int(zone.offset(at: i))
            let sign = offset < 0 ? "-" : "+"
            return "\(zone.localTime(at: i))\(sign)\(pad(abs(offset) / 3600, 2)):\(pad(abs(offset) / 60 % 60, 2))"
        }
        var lines = ["libical \(lib.count) instants, Chime \(chime.count); first difference at #\(k)"]
        for j in max(0, k - 1)..<min(max(lib.count, chime.count), k + 3) {
            lines.append("  #\(j): libical \(show(lib, j))  Chime \(show(chime, j))")
        }
        return lines.joined(separator: "\n")
    }

    // MARK: - Hand-picked cases that must agree exactly

    @Test("Plain rules agree with libical exactly", arguments: [
        ("America/New_York", "19970902T090000", "FREQ=DAILY;COUNT=10"),
        ("America/New_York", "19970902T090000", "FREQ=DAILY;UNTIL=19971224T000000Z"),
        ("America/New_York", "19970902T090000", "FREQ=WEEKLY;INTERVAL=2;COUNT=8;WKST=SU;BYDAY=TU,TH"),
        ("America/New_York", "19970805T090000", "FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=SU"),
        ("America/New_York", "19970905T090000", "FREQ=MONTHLY;COUNT=10;BYDAY=1FR"),
        ("America/New_York", "19970610T090000", "FREQ=YEARLY;COUNT=10;BYMONTH=6,7"),
        ("Europe/Berlin", "20260126T080000", "FREQ=WEEKLY;BYDAY=MO,WE,FR;COUNT=40"),
        ("Europe/Berlin", "20260329T013000", "FREQ=YEARLY;BYMONTH=3,10;BYDAY=-1SU;COUNT=12"),
        ("Europe/Berlin", "20260131T120000", "FREQ=MONTHLY;BYMONTHDAY=-1;COUNT=24"),
        ("Australia/Sydney", "20260328T090000", "FREQ=DAILY;COUNT=30"),
        ("Australia/Lord_Howe", "20260104T100000", "FREQ=MONTHLY;BYDAY=1SU;COUNT=24"),
        ("Asia/Kolkata", "20260105T173000", "FREQ=WEEKLY;BYDAY=MO,TH;UNTIL=20261231T000000Z"),
        ("UTC", "20000229T000000", "FREQ=YEARLY;COUNT=10"),
        ("UTC", "20260130T000000", "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1;COUNT=12"),
    ])
    func handPicked(zoneName: String, start: String, rule: String) throws {
        guard case .local(let local) = BasicDateTime.parse(start) else { Issue.record("bad DTSTART \(start)"); return }
        let zone = try ZoneRules.named(zoneName)
        let lib = try #require(Self.libical(rule, local, zoneName))
        let chime = Self.chime(try RecurrenceRule(parsing: rule), local, zone).map(\.instant.secondsSince1970)
        #expect(!chime.isEmpty)
        #expect(chime == lib, "\(rule) from \(start) \(zoneName):\n\(Self.describeDifference(libical: lib, chime: chime, zone: zone))")
    }
}
