import Testing
@testable import ChimeCore
import ChimeTestSupport
import LibicalShim

/// Seeded properties of recurrence sets that hold whatever the rule (RFC 5545 §3.3.10, §3.8.5):
/// instants strictly increase, DTSTART comes first, nothing precedes it or follows UNTIL, COUNT
/// bounds the size, and the shortcuts (`next(after:)`, window queries) agree with plain iteration.
@Suite("Recurrence set properties")
struct RecurrencePropertyTests {
    static let baseSeed = TestSeed.base(0x5EED_0002)
    static let setCount = TestSeed.scaled(2_000)
    /// Occurrences expanded per set: more than the generator's largest COUNT (60), so COUNT rules
    /// are seen to their end.
    static let cap = 64

    /// A random set: one case (DTSTART + RRULE), sometimes a second rule, EXDATEs and RDATEs.
    struct RandomSet: CustomStringConvertible, Sendable {
        let base: RandomRecurrenceCase
        let recurrence: RecurrenceSet
        let zone: ZoneRules
        let startInstant: Instant
        let excluded: Set<Instant>
        let startExcluded: Bool
        let added: [Instant]

        var description: String {
            var text = "\(base)"
            for r in recurrence.rules.dropFirst() { text += " RRULE:\(r.rfc5545)" }
            if !recurrence.exceptionDates.isEmpty { text += " EXDATE×\(recurrence.exceptionDates.count)" }
            if !recurrence.dates.isEmpty { text += " RDATE×\(recurrence.dates.count)" }
            return text
        }

        /// Whether the set is one rule, nothing added: then COUNT and UNTIL bound it directly.
        var isPlainRule: Bool { recurrence.rules.count == 1 && recurrence.dates.isEmpty }

        init(seed: UInt64) throws {
            base = RandomRuleGenerator.testCase(seed: seed)
            zone = try ZoneRules.named(base.zoneName)
            var random = SeededRandom(seed: seed ^ 0xA5A5_A5A5)
            var generator = RandomRuleGenerator(seed: seed ^ 0x5A5A_5A5A)
            var rules = [base.rule]
            if random.chance(0.1) { rules.append(generator.rule(start: base.start, until: .utcOnly)) }
            startInstant = zone.instant(for: base.start)

            var exdates: [RecurrenceDate] = []
            var excluded: Set<Instant> = []
            var startExcluded = false
            if random.chance(0.3) {
                let plain = RecurrenceSet(start: .zoned(base.start, zone), rules: rules).first(40)
                for o in plain where random.chance(0.15) {
                    exdates.append(random.chance(0.5) ? .instant(o.instant) : .local(o.nominal))
                    excluded.insert(o.instant)
                    if o.instant == startInstant { startExcluded = true }
                }
            }
            var rdates: [RecurrenceDate] = []
            var added: [Instant] = []
            if random.chance(0.2) {
                for _ in 0..<random.int(in: 1...4) {
                    let local = LocalDateTime(localSeconds: base.start.localSeconds + Int64(random.int(in: 1...86_400 * 400)))
                    // An RDATE just after a DTSTART inside a DST gap can map to an earlier instant.
                    let instant = zone.instant(for: local)
                    guard instant > startInstant else { continue }
                    rdates.append(.local(local))
                    if !excluded.contains(instant) { added.append(instant) }
                }
            }
            self.excluded = excluded
            self.startExcluded = startExcluded
            self.added = added
            recurrence = RecurrenceSet(start: .zoned(base.start, zone), rules: rules, dates: rdates, exceptionDates: exdates)
        }
    }

    static func sets(_ count: Int, salt: UInt64 = 0) throws -> [RandomSet] {
        try (0..<UInt64(count)).map { try RandomSet(seed: baseSeed &+ salt &+ $0) }
    }

    /// A random set with its first `cap` occurrences, expanded once and shared by the tests.
    struct Expanded: Sendable {
        let set: RandomSet
        let all: [Occurrence]
        var instants: [Instant] { all.map(\.instant) }
        /// Fewer than `cap`: the set ended, `all` is all of it.
        var complete: Bool { all.count < RecurrencePropertyTests.cap }
        /// A rule of the set never matches again (it ends at the search horizon): every query
        /// walks the whole horizon for it, so such sets get fewer probes.
        let hasDeadRule: Bool

        init(set: RandomSet) {
            self.set = set
            all = set.recurrence.first(RecurrencePropertyTests.cap)
            let all = self.all
            hasDeadRule = set.recurrence.rules.contains { rule in
                if set.recurrence.rules.count == 1 && all.count >= RecurrencePropertyTests.cap { return false }
                let alone = RecurrenceSet(start: set.recurrence.start, rules: [rule])
                return alone.occurrences(from: set.startInstant, to: Instant(secondsSince1970: .max), limit: 2).end == .searchHorizon
            }
        }
    }

    static let expanded: Result<[Expanded], any Error> = Result { try sets(setCount).map(Expanded.init) }

    // MARK: - Shape of the sequence

    @Test("Occurrences increase strictly, start at DTSTART, respect EXDATE, RDATE, UNTIL and COUNT")
    func sequenceShape() throws {
        for e in try Self.expanded.get() {
            let (s, all, instants) = (e.set, e.all, e.instants)
            #expect(zip(instants, instants.dropFirst()).allSatisfy { $0 < $1 }, "not strictly increasing: \(s)")
            #expect(instants.allSatisfy { $0 >= s.startInstant }, "before DTSTART: \(s)")
            if s.startExcluded {
                #expect(instants.first != s.startInstant, "EXDATEd DTSTART still there: \(s)")
            } else {
                #expect(instants.first == s.startInstant, "first is not DTSTART: \(s)")
            }
            #expect(instants.allSatisfy { !s.excluded.contains($0) }, "an EXDATE is still there: \(s)")
            let covered = e.complete ? Instant(secondsSince1970: .max) : instants.last!
            for rdate in s.added where rdate <= covered {
                #expect(instants.contains(rdate), "RDATE \(rdate) missing: \(s)")
            }
            guard s.isPlainRule else { continue }
            switch s.base.rule.end {
            case .count(let n):
                #expect(all.count <= n, "\(all.count) occurrences for COUNT=\(n): \(s)")
                if s.excluded.isEmpty && all.count < n && e.complete {
                    // Fewer than COUNT: the rule must have run out of matches for good.
                    let end = s.recurrence.occurrences(from: s.startInstant, to: Instant(secondsSince1970: .max)).end
                    #expect(end == .searchHorizon || end == .endOfCalendar, "COUNT=\(n) not reached, end \(String(describing: end)): \(s)")
                }
            case .until(let until):
                for o in all.dropFirst() where o.instant != s.startInstant {
                    switch until {
                    case .utc(let u): #expect(o.instant <= u, "after UNTIL: \(o) in \(s)")
                    case .local(let u): #expect(o.nominal <= u, "after UNTIL: \(o) in \(s)")
                    case .date(let d): #expect(o.date <= d, "after UNTIL: \(o) in \(s)")
                    }
                }
            case .never: break
            }
        }
    }

    // MARK: - Shortcuts agree with iteration

    /// Probe instants: around DTSTART, on, just before and after, and between occurrences.
    static func probes(_ instants: [Instant], start: Instant, count: Int = 2, random: inout SeededRandom) -> [Instant] {
        func at(_ s: Int64) -> Instant { Instant(secondsSince1970: s) }
        var probes = [at(start.secondsSince1970 - 86_400 * 400), at(start.secondsSince1970 - 1), start]
        guard !instants.isEmpty else { return probes }
        for _ in 0..<count {
            let i = random.int(in: 0...(instants.count - 1))
            let t = instants[i].secondsSince1970
            probes += [at(t - 1), at(t), at(t + 1)]
            if i + 1 < instants.count {
                let u = instants[i + 1].secondsSince1970
                probes.append(at(t + (u - t) / 2))
                probes.append(at(u - 1))
            }
        }
        return probes
    }

    @Test("next(after:) is the first occurrence after the instant, for 2,000 random sets")
    func nextAfter() throws {
        var random = SeededRandom(seed: Self.baseSeed ^ 0x0E47)
        for e in try Self.expanded.get() {
            let instants = e.instants
            var probes = Self.probes(instants, start: e.set.startInstant, count: 1, random: &random)
            if e.hasDeadRule { probes = Array(probes.suffix(3)) }
            for x in probes {
                guard e.complete || x < instants.last! else { continue }
                let expected = instants.first { $0 > x }
                #expect(e.set.recurrence.next(after: x)?.instant == expected, "next(after: \(x)): \(e.set)")
            }
            if e.complete, let last = instants.last {
                #expect(e.set.recurrence.next(after: last) == nil, "something after the last occurrence \(last): \(e.set)")
            }
        }
    }

    @Test("next(after:) far in the future agrees with walking there, for rules without an end")
    func nextAfterFarFuture() throws {
        var checked = 0
        for s in try Self.sets(TestSeed.scaled(400), salt: 1_000_000) where s.recurrence.rules.allSatisfy({ $0.end == .never }) {
            let rule = s.base.rule
            // Far enough to need a long jump, near enough to walk to in a debug build.
            let years: Int64 =
                switch rule.frequency {
                case .yearly, .monthly: 60
                case .weekly: 20
                case .daily: 3
                case .hourly: 1
                default: 0
                }
            guard years > 0 else { continue }
            let x = Instant(secondsSince1970: s.startInstant.secondsSince1970 + years * 31_556_952 + 12_345)
            var walked: Instant?
            for (n, o) in s.recurrence.occurrences().enumerated() {
                if o.instant > x { walked = o.instant; break }
                if n > 40_000 { break }
            }
            guard let walked else { continue }
            checked += 1
            #expect(s.recurrence.next(after: x)?.instant == walked, "next(after: \(x)): \(s)")
            let window = s.recurrence.occurrences(from: x, to: Instant(secondsSince1970: walked.secondsSince1970 + 1), limit: 3)
            #expect(window.occurrences.last?.instant == walked, "window ending at \(walked): \(s)")
        }
        #expect(checked > 60)
    }

    @Test("occurrences(from:to:limit:) is the half-open filter of the full list, for 2,000 random sets")
    func windows() throws {
        var random = SeededRandom(seed: Self.baseSeed ^ 0x3173)
        for e in try Self.expanded.get() {
            let (s, instants) = (e.set, e.instants)
            guard let lastKnown = instants.last else { continue }
            let probes = Self.probes(instants, start: s.startInstant, random: &random)
            var from = random.pick(probes), to = random.pick(probes)
            if to < from { swap(&from, &to) }
            if random.chance(0.2) && e.complete { to = Instant(secondsSince1970: lastKnown.secondsSince1970 + 86_400 * 3_650) }
            guard e.complete || to <= lastKnown else { continue }
            let expected = instants.filter { $0 >= from && $0 < to }
            let window = s.recurrence.occurrences(from: from, to: to)
            #expect(window.occurrences.map(\.instant) == expected, "window [\(from), \(to)): \(s)")
            #expect(!window.isTruncated)
            let limit = random.int(in: 0...3)
            let limited = s.recurrence.occurrences(from: from, to: to, limit: limit)
            #expect(limited.occurrences.map(\.instant) == Array(expected.prefix(limit)), "limit \(limit) in [\(from), \(to)): \(s)")
            #expect(limited.isTruncated == (expected.count > limit), "isTruncated, limit \(limit) in [\(from), \(to)): \(s)")
        }
    }

    @Test("first(n) is a prefix of first(m) and of the lazy sequence")
    func prefixes() throws {
        for e in try Self.expanded.get().prefix(300) {
            #expect(e.set.recurrence.first(17) == Array(e.all.prefix(17)), "\(e.set)")
            #expect(Array(e.set.recurrence.occurrences().prefix(40)) == Array(e.all.prefix(40)), "\(e.set)")
        }
    }
}
