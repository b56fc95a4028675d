import Testing
@testable import ChimeCore
import ChimeTestSupport

@Suite struct Helper2Scratch {
    @Test func timing() throws {
        func ms(_ d: Duration) -> Double { Double(d.components.attoseconds) / 1e15 + Double(d.components.seconds) * 1000 }
        let t0 = ContinuousClock.now
        let sets = try RecurrencePropertyTests.sets(2000)
        let t1 = ContinuousClock.now
        print("SETS build", ms(t1 - t0))
        var rows: [(Double, Double, String)] = []
        var random = SeededRandom(seed: 1)
        for s in sets {
            let a = ContinuousClock.now
            let all = s.recurrence.first(150)
            let b = ContinuousClock.now
            let e = RecurrencePropertyTests.Expanded(set: s, all: all)
            var probes = RecurrencePropertyTests.probes(e.instants, start: s.startInstant, random: &random)
            if e.endedWithoutCount { probes = Array(probes.suffix(3)) }
            for x in probes where e.complete || x < e.instants.last! { _ = s.recurrence.next(after: x) }
            let c = ContinuousClock.now
            rows.append((ms(b - a), ms(c - b), "\(all.count) \(e.endedWithoutCount) \(s)"))
        }
        print("TOTAL expand", rows.reduce(0) { $0 + $1.0 }, "next", rows.reduce(0) { $0 + $1.1 })
        for r in rows.sorted(by: { $0.0 + $0.1 > $1.0 + $1.1 }).prefix(20) { print("SLOW \(Int(r.0)) \(Int(r.1)) \(r.2)") }
    }
}
