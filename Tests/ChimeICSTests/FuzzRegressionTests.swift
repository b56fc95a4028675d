import ChimeCore
import ChimeICS
import ICSFuzz
import RRuleFuzz
import Foundation
import Testing

// Replays the fuzzers' committed inputs in `make test`: every seed in Tests/Fuzz/Corpus/<target>/ and
// every crash, timeout or leak kept in Tests/Fuzz/Crashes/<target>/ (Tests/Fuzz/README.md) goes through
// the checks of the harnesses Sources/RRuleFuzz/FuzzRRule.swift and Sources/ICSFuzz/FuzzICS.swift, in
// process. A failed check traps, as in the fuzzer: it ends the test process, and `make test` fails.
//
// The checks are the harnesses' own `checkRRule` / `checkICS` (this target depends on the two executable
// targets; their libFuzzer entry points exist only in the -DFUZZING build).

@Suite("Fuzz regression inputs")
struct FuzzRegressionTests {
    @Test("RRULE corpus and crashers", arguments: FuzzReplay.inputs("RRuleFuzz"))
    func rrule(input: FuzzReplay.Input) throws {
        checkRRule(String(decoding: try input.bytes(), as: UTF8.self))
    }

    @Test(".ics corpus and crashers", arguments: FuzzReplay.inputs("ICSFuzz"))
    func ics(input: FuzzReplay.Input) throws {
        checkICS(try input.bytes())
    }

    @Test("Both targets have seeds")
    func seedsExist() {
        #expect(FuzzReplay.inputs("RRuleFuzz").count(where: { $0.path.hasPrefix("Corpus/") }) >= 10)
        #expect(FuzzReplay.inputs("ICSFuzz").count(where: { $0.path.hasPrefix("Corpus/") }) >= 5)
    }
}

enum FuzzReplay {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz")

    /// One file, named by its path under Tests/Fuzz (so a failing case says which input it was).
    struct Input: Sendable, CustomTestStringConvertible {
        let path: String
        var testDescription: String { path }
        func bytes() throws -> [UInt8] { Array(try Data(contentsOf: FuzzReplay.folder.appendingPathComponent(path))) }
    }

    /// Corpus/<target>/* and Crashes/<target>/*, sorted; README and dot files are not inputs.
    static func inputs(_ target: String) -> [Input] {
        ["Corpus", "Crashes"].flatMap { kind -> [Input] in
            let dir = folder.appendingPathComponent(kind).appendingPathComponent(target)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
            return names.filter { !$0.hasPrefix(".") && !$0.hasSuffix(".md") }.sorted()
                .map { Input(path: "\(kind)/\(target)/\($0)") }
        }
    }

    /// `precondition` that reports its message in -O builds too (`make test` is a release build).
    static func fuzzCheck(_ condition: Bool, _ message: @autoclosure () -> String, file: StaticString = #file, line: UInt = #line) {
        if !condition { fatalError(message(), file: file, line: line) }
    }
}
