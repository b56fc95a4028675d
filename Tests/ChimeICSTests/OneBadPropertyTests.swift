import ChimeCore
import ChimeICS
import ChimeStore
import ChimeTestSupport
import Foundation
import Testing

/// Never drop a whole file for one bad property: each client fixture, with one property line
/// mangled at a time (a garbage value, a lost colon, an unknown TZID, a bad date, a truncated
/// line), still imports by default and keeps every other component. Only the component whose
/// DTSTART, UID or RECURRENCE-ID was hit may go, alone. The seed is printed on failure;
/// `CHIME_SEED=n` replays one.
@Suite struct OneBadPropertyTests {
    static let seed: UInt64 = ProcessInfo.processInfo.environment["CHIME_SEED"].flatMap { UInt64($0) } ?? 20_261_102
    static let rounds = 60

    enum Mangle: CaseIterable { case garbage, lostColon, unknownZone, badDate, truncated }

    /// Items, overrides and cancelled occurrences an import keeps: every component it read.
    static func kept(_ r: ImportReport) -> Int {
        r.eventsAdded + r.remindersAdded + r.overrides + r.cancelledOccurrences
    }

    static func mangle(_ line: String, _ how: Mangle, _ random: inout SeededRandom) -> String {
        guard let colon = line.firstIndex(of: ":") else { return line + "\u{1}" }
        let head = line[..<colon], value = line[line.index(after: colon)...]
        switch how {
        case .garbage: return head + ":" + random.pick(["", "???", "-1", "NaN", "99999999T999999", String(repeating: "x", count: 300), "\\", ";;;", "é\u{0}"])
        case .lostColon: return head + " " + value
        case .unknownZone:
            let name = head.split(separator: ";")[0]
            return name + ";TZID=Nowhere/Atlantis" + ":" + value
        case .badDate:
            var v = Array(value)
            for i in v.indices where v[i].isNumber && random.chance(0.5) { v[i] = random.pick(["9", "0", "X"]) }
            return head + ":" + String(v)
        case .truncated: return String(line.prefix(random.int(in: 1...max(1, line.count - 1))))
        }
    }

    /// The UID of the component holding line `index`.
    static func uid(around index: Int, _ lines: [String]) -> String? {
        guard let begin = lines[...index].lastIndex(where: { $0.hasPrefix("BEGIN:VEVENT") || $0.hasPrefix("BEGIN:VTODO") }),
            let end = lines[begin...].firstIndex(where: { $0.hasPrefix("END:VEVENT") || $0.hasPrefix("END:VTODO") })
        else { return nil }
        return lines[begin...end].first { $0.hasPrefix("UID:") }.map { String($0.dropFirst(4)) }
    }

    /// Components with this UID, a RECURRENCE-ID and STATUS:CANCELLED.
    static func cancellations(of uid: String?, in lines: [String]) -> Int {
        guard let uid else { return 0 }
        return lines.joined(separator: "\n").components(separatedBy: "BEGIN:VEVENT").filter {
            $0.contains("UID:\(uid)") && $0.contains("RECURRENCE-ID") && $0.contains("STATUS:CANCELLED")
        }.count
    }

    @Test(arguments: Fixture.all)
    func oneMangledPropertyNeverDropsTheFile(_ name: String) throws {
        let original = String(decoding: try Fixture.bytes(name), as: UTF8.self)
        let lines = original.components(separatedBy: "\r\n")
        let t = try TemporaryStore()
        let baseline = Self.kept(try t.store.importICS(Array(original.utf8), file: name, dryRun: true))
        #expect(baseline > 0)
        // Property lines only: not BEGIN/END, not continuation lines, not empty.
        let candidates = lines.indices.filter { i in
            let l = lines[i]
            return !l.isEmpty && !l.hasPrefix(" ") && !l.hasPrefix("\t") && !l.hasPrefix("BEGIN:") && !l.hasPrefix("END:")
        }
        var random = SeededRandom(seed: Self.seed ^ UInt64(name.utf8.reduce(0) { $0 &* 31 &+ Int($1) } & 0xFFFF))
        for round in 0..<Self.rounds {
            let index = random.pick(candidates)
            let how = random.pick(Mangle.allCases)
            var mangled = lines
            mangled[index] = Self.mangle(lines[index], how, &random)
            let property = lines[index].prefix { $0 != ":" && $0 != ";" }
            let before = index > 0 ? lines[index - 1].prefix { $0 != ":" && $0 != ";" } : ""
            let context = "seed \(Self.seed) round \(round): \(name) line \(index + 1) \(how): \(mangled[index].prefix(80))"
            do {
                let report = try t.store.importICS(Array(mangled.joined(separator: "\r\n").utf8), file: name, dryRun: true)
                // A truncated line that no longer looks like one is joined to the line before it.
                let identifying: Set<Substring> = ["DTSTART", "UID", "RECURRENCE-ID"]
                let mayDrop = identifying.contains(property) || (how == .truncated && identifying.contains(before))
                let kept = Self.kept(report)
                // With a series go the cancellations of its occurrences (nothing left to cancel).
                let cancellations = Self.cancellations(of: Self.uid(around: index, lines), in: lines)
                #expect(kept == baseline || (mayDrop && kept >= baseline - 1 - cancellations), "\(context): kept \(kept) of \(baseline); \(report.skipped)")
            } catch {
                Issue.record("\(context): the import failed: \(error)")
            }
        }
    }
}
