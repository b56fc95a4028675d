import ChimeCore
import ChimeICS
import ChimeStore
import Foundation

/// Files as real clients write them, faults included (Fixtures/wild), and the Python peer that
/// reads them independently (Python/occurrences.py: `icalendar` + `recurring-ical-events`).
enum Wild {
    static let folder = Fixture.folder.appendingPathComponent("wild")
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Corpus")
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Python/occurrences.py").path

    static func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    static func bytes(_ name: String) throws -> [UInt8] { Array(try Data(contentsOf: folder.appendingPathComponent(name))) }

    /// `2026-11-02T08:00:00Z` → an instant (the test's own notation, always with Z).
    static func instant(_ text: String) -> Instant {
        let n = text.split(whereSeparator: { "-T:Z".contains($0) }).compactMap { Int($0) }
        return Instant(secondsSince1970: LocalDateTime(year: n[0], month: n[1], day: n[2], hour: n[3], minute: n[4], second: n[5]).localSeconds)
    }

    /// One imported file: the report and the occurrences starting in a window.
    struct Imported {
        let store: TemporaryStore
        let report: ImportReport
        /// `START<TAB>title` per occurrence starting in the window (UTC, `Z`), sorted.
        let occurrences: [String]
        /// `START/END<TAB>title`, the same occurrences with their ends.
        let spans: [String]
        var repairs: [String] { report.repairs.map(\.description) }
        var skipped: [String] { report.skipped.map(\.description) }
    }

    /// Imports `bytes` (default reading) into a fresh store whose floating zone is UTC and lists
    /// the occurrences that start in [from, to).
    static func importAndList(_ bytes: [UInt8], file: String, from: String, to: String) throws -> Imported {
        let t = try TemporaryStore()
        let report = try t.store.importICS(bytes, file: file)
        let (start, end) = (instant(from), instant(to))
        let events = try t.store.events(matching: t.store.predicateForEvents(start: start, end: end))
            .filter { $0.start.instant(floatingZone: .utc) >= start }  // the peer lists occurrences starting in the window
        let occurrences = events.map { "\($0.start.instant(floatingZone: .utc))\t\($0.title)" }.sorted()
        let spans = events.map { "\($0.start.instant(floatingZone: .utc))/\($0.end.instant(floatingZone: .utc))\t\($0.title)" }.sorted()
        return Imported(store: t, report: report, occurrences: occurrences, spans: spans)
    }

    static func importAndList(_ name: String, from: String, to: String) throws -> Imported {
        try importAndList(try bytes(name), file: name, from: from, to: to)
    }

    /// What a strict import says (nil when it accepts the file).
    static func strictRefusal(_ name: String) throws -> ICSError? {
        let t = try TemporaryStore()
        do {
            _ = try t.store.importICS(try bytes(name), file: name, dryRun: true, strict: true)
            return nil
        } catch let error as ICSError {
            return error
        }
    }

    enum Peer: Equatable {
        /// python3 or its packages are missing: the comparison cannot be made here.
        case unavailable(String)
        /// The peer refused or crashed on the file (its message's last line).
        case failed(String)
        case occurrences([String])
    }

    static let peerAvailable: Bool = (try? run(["-c", "import icalendar, recurring_ical_events"]).status == 0) ?? false

    /// The peer's occurrences (`START<TAB>summary`, sorted) of the file at `path` in [from, to).
    static func peer(_ path: String, from: String, to: String) -> Peer {
        guard peerAvailable else { return .unavailable("python3 lacks icalendar / recurring-ical-events") }
        guard let result = try? run([script, path, from, to]) else { return .unavailable("python3 did not start") }
        guard result.status == 0 else {
            return .failed(result.error.split(separator: "\n").last.map(String.init) ?? "exit \(result.status)")
        }
        return .occurrences(result.output.split(separator: "\n").map(String.init))
    }

    static func run(_ arguments: [String]) throws -> (status: Int32, output: String, error: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3"] + arguments
        var env = ProcessInfo.processInfo.environment
        env["TZ"] = "UTC"
        p.environment = env
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        // stderr is read after stdout: the peer writes at most a short traceback there.
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let errors = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self), String(decoding: errors, as: UTF8.self))
    }
}
