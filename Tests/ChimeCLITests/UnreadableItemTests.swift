import ChimeCore
import ChimeStore
import Foundation
import GRDB
import ChimeTestKit
import Testing

/// One stored item that cannot be read back (an older Chime let an event end in the year 10000)
/// must not stop the daemon or any command: it is skipped with one warning that names it, and
/// `chime remove ID` deletes it.
@Suite("Unreadable items", .serialized)
struct UnreadableItemTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chime-poison-\(UUID().uuidString)").path
    var storePath: String { folder + "/chime.sqlite" }

    /// A store with one good event (alarm in 3 s) and one poisoned row; returns the poison's ID.
    func poisonedStore() throws -> String {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let store = try EventStore(path: storePath, floatingZone: .utc)
        let calendar = try store.defaultCalendarForNewEvents().identifier
        let soon = Instant(secondsSince1970: Int64(Date().timeIntervalSince1970) + 3)
        var good = Event(title: "Good", calendar: calendar, start: .utc(soon.utc), duration: 600)
        good.alarms = [.relative(0)]
        try store.save(good)
        var poison = Event(title: "Poison", calendar: calendar, start: .utc(soon.adding(-60).utc), duration: 600)
        poison.alarms = [.relative(0)]
        poison = try store.save(poison)
        let queue = try DatabaseQueue(path: storePath)
        try queue.write { db in
            try db.execute(sql: "UPDATE item SET \"end\" = '100000101T010000Z' WHERE id = ?", arguments: [poison.identifier])
        }
        try queue.close()
        return poison.identifier
    }

    @Test func everyCommandAndTheDaemonSkipItWithAWarningAndRemoveDeletesIt() throws {
        let poison = try poisonedStore()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let warning = "item \(poison) cannot be read"

        let agenda = try CLI.run(["agenda", "--store", storePath, "--from", "today", "--days", "2"])
        #expect(agenda.status == 0, "\(agenda.stderr)")
        #expect(agenda.stdout.contains("Good"))
        #expect(agenda.stderr.contains(warning))
        #expect(agenda.stderr.contains("`chime remove \(poison)` deletes it"))
        #expect(agenda.stderr.components(separatedBy: warning).count == 2, "one warning, not one per query")

        let alarms = try CLI.run(["alarms", "--store", storePath, "--hours", "1"])
        #expect(alarms.status == 0, "\(alarms.stderr)")
        #expect(alarms.stdout.contains("Good"))

        let export = try CLI.run(["export", "--store", storePath])
        #expect(export.status == 0, "\(export.stderr)")
        #expect(export.stdout.contains("SUMMARY:Good"))
        #expect(export.stderr.contains(warning))

        let show = try CLI.run(["show", "--store", storePath, poison])
        #expect(show.status != 0)
        #expect(show.stderr.contains(poison))

        let daemon = try DaemonProcess(store: storePath, folder: folder)
        let fired = daemon.wait(timeout: 20) { $0.notifications.contains { $0["title"] as? String == "Good" } }
        #expect(daemon.stop() == 0)
        #expect(fired, "the daemon did not fire the good alarm: \(daemon.stderrText)")
        #expect(daemon.stderrText.contains("skipped an unreadable item"))

        let remove = try CLI.run(["remove", "--store", storePath, poison])
        #expect(remove.status == 0, "\(remove.stderr)")
        let after = try CLI.run(["export", "--store", storePath])
        #expect(after.status == 0)
        #expect(after.stderr.isEmpty, "\(after.stderr)")
    }

    @Test func anEventEndingAfter9999IsRefusedAndNotStored() throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let add = try CLI.run([
            "add", "event", "poison", "--store", storePath, "--start", "9999-12-31T23:00",
            "--duration", "2h", "--alarm", "-5m"
        ])
        #expect(add.status != 0)
        #expect(add.stderr.contains("end 10000-01-01T01:00 is outside 0000-01-01…9999-12-31"), "\(add.stderr)")
        let export = try CLI.run(["export", "--store", storePath])
        #expect(!export.stdout.contains("poison"))
        #expect(export.stderr.isEmpty, "\(export.stderr)")
    }

    /// Moving an event's start so late that its end (start plus its length) passes 9999 is refused
    /// naming the end, and the stored event is left as it was.
    @Test func anEditThatMovesTheEndPast9999IsRefusedAndChangesNothing() throws {
        let s = StoreSession(zone: "UTC")
        defer { try? FileManager.default.removeItem(atPath: s.folder) }
        let id = try s.add("event", "Late", "--start", "9999-12-31T20:00", "--duration", "2h")
        let before = try s.run("show", id, "--json")
        #expect(before.status == 0, "\(before.stderr)")
        let edit = try s.run("edit", id, "--start", "9999-12-31T23:30")
        #expect(edit.status == 1, "\(edit.stdout)\(edit.stderr)")
        #expect(edit.stderr.hasPrefix("Error: "), "\(edit.stderr)")
        #expect(edit.stderr.contains("end 10000-01-01T01:30 is outside 0000-01-01…9999-12-31"), "\(edit.stderr)")
        let after = try s.run("show", id, "--json")
        #expect(after.status == 0 && after.stdout == before.stdout, "\(before.stdout)\n\(after.stdout)")
    }
}
