import Testing
@testable import ChimeCore

// The golden cases in Fixtures/*.rrtest (format: Support/GoldenFixture.swift), each run three
// ways: forwards from DTSTART, by a next(after:) chain from the middle, and as a window query.

private let cases = GoldenFixtures.load()

@Suite("Golden fixtures")
struct GoldenFixtureTests {
    @Test("The fixture files load")
    func fixturesLoad() {
        #expect(cases.count >= 15)
        #expect(Set(cases.map(\.file)).count >= 2)
        for c in cases where c.problem != nil { Issue.record("\(c.testDescription): \(c.problem!)") }
    }

    @Test("Forwards from DTSTART", arguments: cases)
    func forwards(_ c: GoldenCase) throws {
        let set = try #require(c.recurrence, "\(c.problem ?? "")")
        // A few more than expected, so that a set that goes on too long shows it.
        let n = c.isComplete ? c.expected.count + 5 : c.expected.count
        #expect(set.first(n).map(c.show) == c.expected)
    }

    @Test("next(after:) from the middle gives the rest", arguments: cases)
    func fromTheMiddle(_ c: GoldenCase) throws {
        let set = try #require(c.recurrence, "\(c.problem ?? "")")
        let k = max(1, c.expected.count / 2)
        var rest: [String] = []
        var cursor = c.instant(c.expected[k - 1])
        while rest.count < c.expected.count - k, let o = set.next(after: cursor) {
            rest.append(c.show(o))
            cursor = o.instant
        }
        #expect(rest == Array(c.expected[k...]))
        if c.isComplete {
            let after = set.next(after: c.instant(c.expected.last!))
            #expect(after == nil, "occurrence after the last: \(after.map(c.show) ?? "")")
        }
    }

    @Test("A window around a middle sub-range gives exactly that sub-range", arguments: cases)
    func window(_ c: GoldenCase) throws {
        let set = try #require(c.recurrence, "\(c.problem ?? "")")
        let n = c.expected.count
        let a = n / 3
        let b = max(a + 1, n - n / 3)
        let inside = Array(c.expected[a..<b])

        // Half-open: [instance a, instance b).
        let end = b < n ? c.instant(c.expected[b]) : Instant(secondsSince1970: c.instant(c.expected[n - 1]).secondsSince1970 + 1)
        let exact = set.occurrences(from: c.instant(c.expected[a]), to: end)
        #expect(exact.occurrences.map(c.show) == inside)
        #expect(!exact.isTruncated)

        // Bounds strictly between instances.
        if a > 0 {
            let loose = set.occurrences(
                from: Instant(secondsSince1970: c.instant(c.expected[a - 1]).secondsSince1970 + 1),
                to: Instant(secondsSince1970: c.instant(c.expected[b - 1]).secondsSince1970 + 1))
            #expect(loose.occurrences.map(c.show) == inside)
        }

        // A limit below the count truncates.
        if inside.count >= 2 {
            let limited = set.occurrences(from: c.instant(c.expected[a]), to: end, limit: inside.count - 1)
            #expect(limited.occurrences.map(c.show) == Array(inside.dropLast()))
            #expect(limited.isTruncated)
        }
    }
}
