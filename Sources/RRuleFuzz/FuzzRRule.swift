// libFuzzer harness for the RRULE parser and the expansion engine (`make fuzz`, Tests/Fuzz/README.md).
//
// Fuzz build (Tests/Fuzz/fuzz.sh): `-sanitize=fuzzer,address -DFUZZING`; libFuzzer supplies main() and calls
// LLVMFuzzerTestOneInput once per generated input. Normal build: the `@main` below replays the files
// given as arguments through the same checks, with a readable Swift backtrace:
//     swift run --scratch-path .build-fuzzcheck RRuleFuzz Tests/Fuzz/Crashes/RRuleFuzz/*
//
// Every trap is a finding: a parser that traps on bad text instead of throwing, an expansion that traps,
// or one of the checks below (round trip, order, COUNT, next(after:)).
// Tests/ChimeICSTests/FuzzRegressionTests.swift replays the corpus and the crashers through the same
// checks in `make test`; keep the two in step.

import ChimeCore

/// DTSTARTs for the expansion check: the plain case (UTC, 2026-01-01 09:00), a New York wall time inside
/// the 2026 spring-forward gap, an all-day leap day, and a floating time in the last days RFC 5545 can write.
let fuzzStarts: [RecurrenceStart] = [
    .utc(LocalDateTime(year: 2026, month: 1, day: 1, hour: 9)),
    .zoned(LocalDateTime(year: 2026, month: 3, day: 8, hour: 2, minute: 30), (try? ZoneRules.named("America/New_York")) ?? .utc),
    .allDay(CivilDate(year: 2024, month: 2, day: 29)),
    .floating(LocalDateTime(year: 9999, month: 12, day: 28, hour: 23, minute: 59, second: 59))
]

/// The checks one input goes through. Returns normally for text the parser rejects (a thrown
/// `RecurrenceRuleError` is the right answer to bad text); traps on any finding.
public func checkRRule(_ text: String) {
    guard let rule = try? RecurrenceRule(parsing: text) else { return }

    // Round trip: the canonical text parses back to the same rule, and is a fixed point.
    let canonical = rule.rfc5545
    let again: RecurrenceRule
    do { again = try RecurrenceRule(parsing: canonical) } catch {
        fatalError("canonical text does not parse: \(canonical) (from \(text)): \(error)")
    }
    fuzzCheck(again == rule, "round trip mismatch: \(text) -> \(canonical) -> \(again.rfc5545)")
    fuzzCheck(again.rfc5545 == canonical, "canonical text is not a fixed point: \(canonical) -> \(again.rfc5545)")

    for start in fuzzStarts { checkExpansion(rule, from: start) }
}

/// The first 20 occurrences (the engine gives up after its search horizon, so this ends): DTSTART first,
/// strictly increasing, no more than COUNT; and `next(after:)`, which jumps straight to the period for
/// rules without COUNT, agrees with the walk.
func checkExpansion(_ rule: RecurrenceRule, from start: RecurrenceStart) {
    let set = RecurrenceSet(start: start, rules: [rule])
    let occurrences = set.first(20)
    fuzzCheck(occurrences.first?.nominal == start.local, "DTSTART is not the first occurrence: \(rule) from \(start)")
    for (a, b) in zip(occurrences, occurrences.dropFirst()) {
        fuzzCheck(a.instant < b.instant, "occurrences out of order or repeated: \(a), \(b) for \(rule) from \(start)")
    }
    if case .count(let n) = rule.end {
        fuzzCheck(occurrences.count <= n, "\(occurrences.count) occurrences for COUNT=\(n): \(rule) from \(start)")
    }
    if occurrences.count >= 2 {
        let i = occurrences.count / 2 - 1
        let next = set.next(after: occurrences[i].instant)
        fuzzCheck(
            next == occurrences[i + 1],
            "next(after: \(occurrences[i])) = \(next.map(String.init(describing:)) ?? "nil"), "
                + "the walk gave \(occurrences[i + 1]) for \(rule) from \(start)")
    }
}

/// `precondition` that reports its message in -O builds too (the fuzz build and `make test` are release
/// builds, where `precondition` traps without saying why).
func fuzzCheck(_ condition: Bool, _ message: @autoclosure () -> String, file: StaticString = #file, line: UInt = #line) {
    if !condition { fatalError(message(), file: file, line: line) }
}

#if FUZZING
    /// libFuzzer entry point. Must not print; returns 0. (Only in the fuzz build, so that other targets can
    /// link this module without a duplicate symbol.)
    @_cdecl("LLVMFuzzerTestOneInput")
    public func rruleFuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
        checkRRule(String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self))
        return 0
    }
#else
    import Foundation

    /// Normal build: replays the files named on the command line (libFuzzer is not linked).
    @main
    enum RRuleFuzzReplay {
        static func main() throws {
            let paths = CommandLine.arguments.dropFirst()
            if paths.isEmpty {
                print("usage: RRuleFuzz FILE... (replays each file through the fuzz checks)")
            }
            for path in paths {
                let data = try Data(contentsOf: URL(fileURLWithPath: path))
                let text = String(decoding: data, as: UTF8.self)
                do {
                    let rule = try RecurrenceRule(parsing: text)
                    print("\(path): \(rule.rfc5545)")
                } catch {
                    print("\(path): rejected: \(error)")
                }
                checkRRule(text)
            }
        }
    }
#endif
