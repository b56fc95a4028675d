import Foundation
import ChimeTestKit
import Testing

/// README.md's command-line transcripts, run as written on a fresh store with the clock and zone
/// the README names, compared line for line with what the README shows, so the README cannot
/// drift from the program.
///
/// A transcript is a fenced block whose lines start `$ chime …` (the command) followed by what
/// it printed, stdout and stderr together, and `(exit status N)` when N is neither 0 nor 1.
/// IDs are random: each full ID the README shows is matched with the one printed in its place,
/// and the README's IDs (or their starts, in any case) in later commands are replaced by the real
/// ones before running them. The first block (what `make demo` printed) fires alarms in real
/// time and is not checked here.
@Suite("README transcripts")
struct ReadmeTranscriptTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    struct Step {
        let command: String
        var expected: [String] = []
    }

    /// The transcripts from the one that starts with `chime calendar add` on.
    static func transcripts() throws -> [[Step]] {
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        var blocks: [[Step]] = [], current: [Step]?, inFence = false
        for line in readme.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("```") {
                if inFence, let steps = current, !steps.isEmpty { blocks.append(steps) }
                inFence.toggle()
                current = inFence ? [] : nil
                continue
            }
            guard inFence else { continue }
            if line.hasPrefix("$ chime ") {
                current?.append(Step(command: String(line.dropFirst(2))))
            } else if current?.isEmpty == false {
                current![current!.count - 1].expected.append(line)
            } else {
                current = nil  // a block that does not start with a command (sh, config…)
            }
        }
        guard let first = blocks.firstIndex(where: { $0.first?.command.hasPrefix("chime calendar add") == true }) else { return [] }
        return Array(blocks[first...])
    }

    static let uuid = try! NSRegularExpression(pattern: "[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}")

    static func uuids(_ line: String) -> [String] {
        uuid.matches(in: line, range: NSRange(line.startIndex..., in: line)).map { String(line[Range($0.range, in: line)!]) }
    }

    @Test func theREADMEsTranscriptsAreWhatChimePrints() throws {
        let blocks = try Self.transcripts()
        #expect(blocks.count >= 2, "README transcripts not found")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chime-readme-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let environment = ["CHIME_STORE": folder + "/chime.sqlite", "TZ": "Europe/Berlin", "CHIME_NOW": "2026-11-23T07:00:00Z"]
        var ids: [String: String] = [:]  // README's ID → this run's
        var checked = 0
        for step in blocks.joined() {
            var command = step.command
            for (shown, real) in ids {
                // The full ID, or its first 8 characters in either case, as the README types them.
                command = command.replacingOccurrences(of: shown, with: real)
                command = command.replacingOccurrences(of: String(shown.prefix(8)), with: String(real.prefix(8)))
                command = command.replacingOccurrences(of: String(shown.prefix(8)).lowercased(), with: String(real.prefix(8)).lowercased())
            }
            var words = CLI.shellWords(String(command.dropFirst("chime ".count)))
            words = words.map { $0.hasPrefix("Examples/") ? Self.root.appendingPathComponent($0).path : $0 }
            let r = try CLI.run(words, environment: environment)
            var actual = (r.stdout + r.stderr).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if actual.last == "" { actual.removeLast() }
            if r.status != 0 && r.status != 1 { actual.append("(exit status \(r.status))") }
            // Pair the IDs the README shows with the ones printed in their place.
            for (shownLine, actualLine) in zip(step.expected, actual) {
                for (shown, real) in zip(Self.uuids(shownLine), Self.uuids(actualLine)) { ids[shown] = real }
            }
            let unmap = { (line: String) in
                ids.reduce(line) { text, pair in
                    text.replacingOccurrences(of: pair.value, with: pair.key)
                        .replacingOccurrences(of: String(pair.value.prefix(8)), with: String(pair.key.prefix(8)))
                }
            }
            #expect(actual.map(unmap) == step.expected, "README: $ \(step.command)\nprinted:\n\(actual.map(unmap).joined(separator: "\n"))")
            checked += 1
        }
        #expect(checked >= 15)
    }

}
