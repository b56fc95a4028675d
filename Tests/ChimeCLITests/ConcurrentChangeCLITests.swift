import ChimeCore
import ChimeStore
import Foundation
import ChimeTestKit
import Testing

/// `chime complete` and `chime edit` of one reminder run by several processes at the same moment:
/// no completion or field change is lost, and no instance is completed twice.
@Suite("Concurrent complete and edit from several processes", .serialized)
struct ConcurrentChangeCLITests {
    static let writers = Int(ProcessInfo.processInfo.environment["CHIME_RACE_WRITERS"] ?? "") ?? 4
    static let rounds = Int(ProcessInfo.processInfo.environment["CHIME_RACE_ROUNDS"] ?? "") ?? 5

    /// Starts every command before waiting for any, so that they race.
    static func runAtOnce(_ commands: [[String]], environment: [String: String]) throws -> [CLIResult] {
        var env = ProcessInfo.processInfo.environment
        env["COLUMNS"] = "100"
        for (k, v) in environment { env[k] = v }
        var running: [(Process, Pipe, Pipe)] = []
        for arguments in commands {
            let p = Process()
            p.executableURL = CLI.binary
            p.arguments = arguments
            p.environment = env
            let out = Pipe(), err = Pipe()
            p.standardOutput = out
            p.standardError = err
            p.standardInput = FileHandle.nullDevice
            running.append((p, out, err))
        }
        for (p, _, _) in running { try p.run() }
        return running.map { p, out, err in
            let stdout = out.fileHandleForReading.readDataToEndOfFile()
            let stderr = err.fileHandleForReading.readDataToEndOfFile()
            p.waitUntilExit()
            return CLIResult(
                status: p.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                stderr: String(decoding: stderr, as: UTF8.self))
        }
    }

    func dailyReminder(_ s: StoreSession) throws -> String {
        let id = try s.add("reminder", "Pills", "--due", "2026-12-01T09:00", "--repeat", "FREQ=DAILY")
        #expect(!id.isEmpty)
        return id
    }

    func completedCopies(_ s: StoreSession, of series: String) throws -> [Reminder] {
        let store = try EventStore(path: s.path, floatingZone: .utc)
        return try store.reminders(matching: store.predicateForCompletedReminders(completionStart: nil, completionEnd: nil, calendars: nil))
            .filter { $0.seriesIdentifier == series }
    }

    /// N processes run `chime complete ID` at once, round after round. Every run that says
    /// "Completed" completed its own instance: one completed copy per instance, and the series
    /// moved on by exactly the number of successful runs. (Before the fix: runs completed the
    /// same instance twice, stored two copies of it and lost an advance.)
    @Test func concurrentCompletesAdvanceOncePerCompletion() throws {
        let s = StoreSession(zone: "UTC")
        let id = try dailyReminder(s)
        var succeeded = 0
        for round in 1...Self.rounds {
            let results = try Self.runAtOnce(Array(repeating: ["complete", id], count: Self.writers), environment: s.environment)
            for r in results {
                #expect(r.status == 0 && r.stdout.hasPrefix("Completed \"Pills\""), "round \(round): \(r.stdout) \(r.stderr)")
                if r.status == 0 { succeeded += 1 }
            }
            let said = results.compactMap { $0.stdout.split(separator: "\n").first }.filter { $0.hasPrefix("Completed") }
            #expect(Set(said).count == said.count, "round \(round): two runs completed the same instance: \(said)")
        }
        let copies = try completedCopies(s, of: id)
        #expect(copies.count == succeeded)
        #expect(Set(copies.compactMap(\.dueDate)).count == copies.count, "two completed copies of one instance")
        let store = try EventStore(path: s.path, floatingZone: .utc)
        let series = try #require(try store.reminder(withIdentifier: id))
        #expect(series.dueDate == .floating(LocalDateTime(year: 2026, month: 12, day: 1 + succeeded, hour: 9)))
    }

    /// N processes complete the same instance (`chime complete ID@INSTANCE`) at once: one says
    /// "Completed", the others that it is already completed, and the series moves on one day.
    @Test func completingOneInstanceAtOnceCompletesItOnce() throws {
        let s = StoreSession(zone: "UTC")
        let id = try dailyReminder(s)
        for round in 0..<Self.rounds {
            let instance = "\(id)@202612\(String(format: "%02d", 1 + round))T090000Z"
            let results = try Self.runAtOnce(Array(repeating: ["complete", instance], count: Self.writers), environment: s.environment)
            let done = results.filter { $0.status == 0 }
            #expect(done.count == 1, "round \(round): \(results.map { $0.stdout + $0.stderr })")
            for r in results where r.status != 0 {
                #expect(r.stderr.contains("is already completed"), "round \(round): \(r.stderr)")
            }
        }
        #expect(try completedCopies(s, of: id).count == Self.rounds)
        let store = try EventStore(path: s.path, floatingZone: .utc)
        #expect(try store.reminder(withIdentifier: id)?.dueDate == .floating(LocalDateTime(year: 2026, month: 12, day: 1 + Self.rounds, hour: 9)))
    }

    /// Each round, at once: one process completes the reminder while others change its title,
    /// priority and notes, and two change an event's location and notes. Every change stays.
    @Test func concurrentEditsOfDifferentFieldsLoseNothing() throws {
        let s = StoreSession(zone: "UTC")
        let id = try dailyReminder(s)
        let event = try s.add("event", "Review", "--start", "2026-12-01T09:00", "--duration", "1h")
        for round in 1...Self.rounds {
            let results = try Self.runAtOnce(
                [
                    ["complete", id],
                    ["edit", id, "--title", "Pills \(round)"],
                    ["edit", id, "--priority", "\(round % 9 + 1)"],
                    ["edit", id, "--notes", "note \(round)"],
                    ["edit", event, "--location", "Room \(round)"],
                    ["edit", event, "--notes", "agenda \(round)"]
                ], environment: s.environment)
            for r in results { #expect(r.status == 0, "round \(round): \(r.stderr)") }
            let store = try EventStore(path: s.path, floatingZone: .utc)
            let series = try #require(try store.reminder(withIdentifier: id))
            #expect(series.title == "Pills \(round)")
            #expect(series.priority == round % 9 + 1)
            #expect(series.notes == "note \(round)")
            #expect(series.dueDate == .floating(LocalDateTime(year: 2026, month: 12, day: 1 + round, hour: 9)), "round \(round): a completion was lost")
            let e = try #require(try store.event(withIdentifier: event))
            #expect(e.location == "Room \(round)" && e.notes == "agenda \(round)", "round \(round): \(e.location ?? "-") / \(e.notes ?? "-")")
        }
        #expect(try completedCopies(s, of: id).count == Self.rounds)
    }
}
