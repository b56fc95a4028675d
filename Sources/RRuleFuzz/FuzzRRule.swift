// libFuzzer harness for the RRULE parser and the expansion engine (`make fuzz`, Tests/Fuzz/README.md).
//
// Fuzz build (Tests/Fuzz/fuzz.sh): `-sanitize=fuzzer,address -DFUZZING`; libFuzzer supplies main() and calls
// LLVMFuzzerTestOneInput once per generated input. Normal build: the `@main` below replays the files
// given as arguments through the same checks, with a readable Swift backtrace:
//     swift run --scratch-path .build-fuzzcheck RRuleFuzz Tests/Fuzz/Crashes/RRuleFuzz/*
//
// Every trap is a finding: a parser that traps on bad text instead of throwing, an expansion that traps,
// or one of the preconditions below (round trip, order, COUNT, next(after:)).
// Tests/ChimeICSTests/FuzzRegressionTests.swift replays the corpus and the crashers through the same
// checks in `make test`; keep the two in step.

import ChimeCore

/// DTSTART for the expansion check: a UTC start, so no zone data is involved.
let fuzzStart = LocalDateTime(year: 2026, month: 1, day: 1, hour: 9)

/// The checks one input goes through. Returns normally for text the parser rejects (a thrown
/// `RecurrenceRuleError` is the right answer to bad text); traps on any finding.
public func checkRRule(_ text: String) {
    guard let rule = try? RecurrenceRule(parsing: text) else { return }

    // Round trip: the canonical text parses back to the same rule, and is a fixed point.
    let canonical = rule.rfc5545
    let again: RecurrenceRule
    do { again = try RecurrenceRule(parsing: canonical) } catch {
        preconditionFailure("canonical text does not parse: \(canonical) (from \(text)): \(error)")
    }
    precondition(again == rule, "round trip mismatch: \(text) -> \(canonical) -> \(again.rfc5545)")
    precondition(again.rfc5545 == canonical, "canonical text is not a fixed point: \(canonical) -> \(again.rfc5545)")

    // Expansion: the first 20 occurrences (the engine gives up after its search horizon, so this ends).
    let set = RecurrenceSet(start: .utc(fuzzStart), rules: [rule])
    let occurrences = set.first(20)
    precondition(occurrences.first?.nominal == fuzzStart, "DTSTART is not the first occurrence: \(canonical)")
    for (a, b) in zip(occurrences, occurrences.dropFirst()) {
        precondition(a.instant < b.instant, "occurrences out of order or repeated: \(a), \(b) for \(canonical)")
    }
    if case .count(let n) = rule.end {
        precondition(occurrences.count <= n, "\(occurrences.count) occurrences for COUNT=\(n): \(canonical)")
    }
    // next(after:) jumps straight to the period for rules without COUNT; it must agree with the walk.
    if occurrences.count >= 2 {
        let i = occurrences.count / 2 - 1
        let next = set.next(after: occurrences[i].instant)
        precondition(next == occurrences[i + 1],
                     "next(after: \(occurrences[i])) = \(next.map(String.init(describing:)) ?? "nil"), "
                         + "the walk gave \(occurrences[i + 1]) for \(canonical)")
    }
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
