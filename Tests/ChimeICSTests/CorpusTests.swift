import ChimeCore
import ChimeICS
import ChimeStore
import Foundation
import Testing

/// Other projects' test calendars (Corpus/README.md): every file is imported the default way and
/// counted as read clean, repaired or refused; files the Python peer reads are compared with it
/// over 2000–2030. Fails only on a refusal of a real calendar (or a crash); the numbers are in
/// docs/ics-reading.md.
@Suite struct CorpusTests {
    /// Files that are refused, and rightly: they hold no calendar at all.
    static let rightlyRefused: [String: String] = [:]
    /// Real calendars refused because of a known reader bug (recorded as known issues).
    /// Real calendars Chime refuses because of a known reader bug (none at the moment).
    static let knownBugs: [String: String] = [:]

    @Test func everyCorpusFileIsReadOrRightlyRefused() throws {
        let root = Wild.corpus.path
        let files = (FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? [])
            .filter { $0.hasSuffix(".ics") }.sorted()
        #expect(files.count >= 20)
        var clean = 0, repaired = 0, refused: [String] = [], agree = 0, disagree: [String] = [], peerRefused = 0
        let (from, to) = ("2000-01-01T00:00:00Z", "2030-01-01T00:00:00Z")
        for file in files {
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: root + "/" + file)))
            let ours: Wild.Imported
            do {
                ours = try Wild.importAndList(bytes, file: file, from: from, to: to)
            } catch {
                refused.append("\(file): \(error)")
                if let bug = Self.knownBugs[file] {
                    withKnownIssue(Comment(rawValue: bug)) { Issue.record("\(file): \(error)") }
                } else {
                    #expect(Self.rightlyRefused[file] != nil, "refused a real calendar: \(file): \(error)")
                }
                continue
            }
            if ours.report.repairs.isEmpty && ours.report.skipped.isEmpty { clean += 1 } else { repaired += 1 }
            switch Wild.peer(root + "/" + file, from: from, to: to) {
            case .occurrences(let theirs):
                // Instants only: titles differ in escaping between the two readers' outputs.
                let a = theirs.map { $0.prefix(20) }, b = ours.occurrences.map { $0.prefix(20) }
                if a == b { agree += 1 } else { disagree.append("\(file): peer \(a.count), Chime \(b.count)") }
            case .failed: peerRefused += 1
            case .unavailable: break
            }
        }
        let summary = """
            corpus: \(files.count) files: \(clean) read clean, \(repaired) repaired, \(refused.count) refused
            peer: \(agree) agree, \(disagree.count) differ, \(peerRefused) refused by the peer
            refused: \(refused)
            differ: \(disagree)
            """
        print(summary)
        if let out = ProcessInfo.processInfo.environment["CHIME_CORPUS_REPORT"] { try summary.write(toFile: out, atomically: true, encoding: .utf8) }
    }
}
