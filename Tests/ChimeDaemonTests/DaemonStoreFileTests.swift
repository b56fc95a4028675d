import ChimeCore
import ChimeStore
import Foundation
import GRDB
import Glibc
import ChimeTestKit
import Testing

/// `chime daemon` and the store commands on hostile paths: symbolic links where the old lock
/// file lived or at the store itself, another user's file, a file that is not a store, and a
/// second daemon reaching the same store through a hard link.
@Suite("chime daemon: store files and the one-daemon lock", .serialized)
struct DaemonStoreFileTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chime-files-\(UUID().uuidString)").path
    var storePath: String { folder + "/chime.sqlite" }
    var config: [String: String] { ["XDG_CONFIG_HOME": folder + "/config"] }

    func listing() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: folder).sorted() }

    func makeFolder() throws { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }

    @Test func symbolicLinksPlantedBesideTheStoreAreNeverFollowed() throws {
        _ = try EventStore(path: storePath, floatingZone: .utc)
        let victim = folder + "/victim.txt"
        let content = "precious content\n"
        try content.write(toFile: victim, atomically: true, encoding: .utf8)
        for name in [".daemon.lock", ".daemon.pid", ".lock", ".pid"] {
            try FileManager.default.createSymbolicLink(atPath: storePath + name, withDestinationPath: victim)
        }
        let daemon = try DaemonProcess(store: storePath, folder: folder)
        let started = daemon.wait(timeout: 20) { $0.stderrText.contains("scheduled, sleeping") }
        #expect(daemon.stop() == 0)
        #expect(started, "\(daemon.stderrText)")
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == content)
    }

    @Test func aStoreThroughADanglingSymbolicLinkIsRefusedAndNothingIsCreated() throws {
        try makeFolder()
        let link = folder + "/link.sqlite", target = folder + "/target.sqlite"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        let before = try listing()
        for arguments in [
            ["daemon", "--store", link, "--notifier", "stdout"], ["agenda", "--store", link],
            ["add", "event", "X", "--start", "2026-12-01T09:00", "--store", link]
        ] {
            let r = try CLI.run(arguments, environment: config)
            #expect(r.status == 1, "\(arguments[0]): \(r.stderr)")
            #expect(
                r.stderr
                    == "Error: \(link) is a symbolic link to \(target); Chime opens only a real file, so nothing was written: use --store \(target) (or CHIME_STORE=\(target))\n"
            )
        }
        #expect(!FileManager.default.fileExists(atPath: target))
        #expect(try listing() == before)
    }

    @Test func anotherUsersStoreIsRefusedAndLeftUntouched() throws {
        do {
            let store = try EventStore(path: storePath, floatingZone: .utc)
            var e = Event(
                title: "Theirs", calendar: try store.defaultCalendarForNewEvents().identifier,
                start: .utc(LocalDateTime(year: 2026, month: 12, day: 1, hour: 9)), duration: 600)
            e.alarms = [.relative(0)]
            try store.save(e)
        }
        #expect(chown(storePath, 65534, 65534) == 0, "tests run as root: \(String(cString: strerror(errno)))")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: storePath))
        let before = try listing()
        for arguments in [
            ["daemon", "--store", storePath, "--notifier", "stdout"], ["agenda", "--store", storePath],
            ["add", "event", "X", "--start", "2026-12-01T09:00", "--store", storePath]
        ] {
            let r = try CLI.run(arguments, environment: config)
            #expect(r.status == 1, "\(arguments[0]): \(r.stderr)")
            #expect(r.stderr.contains("\(storePath) belongs to another user (uid 65534)"), "\(r.stderr)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: storePath)) == bytes)
        #expect(try listing() == before)
    }

    @Test func aFileThatIsNotAStoreIsRefusedWithNoStrayFilesBesideIt() throws {
        try makeFolder()
        let path = folder + "/passwd"
        let content = "root:x:0:0:root:/root:/bin/bash\n"
        try content.write(toFile: path, atomically: true, encoding: .utf8)
        let before = try listing()
        let r = try CLI.run(["daemon", "--store", path, "--notifier", "stdout"], environment: config)
        #expect(r.status == 1)
        #expect(r.stderr == "Error: \(path) is not a Chime store (not an SQLite database); it was left untouched\n")
        let viaEnvironment = try CLI.run(["agenda"], environment: config.merging(["CHIME_STORE": path]) { $1 })
        #expect(viaEnvironment.status == 1)
        #expect(try listing() == before, "nothing beside the refused file")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == content)
    }

    /// A hard link made while a daemon runs: a second daemon through it is refused (SQLite keys the
    /// write-ahead log by name, so its writes would be lost), and the first goes on.
    @Test func aSecondDaemonThroughAHardLinkIsRefusedAndTheFirstGoesOn() throws {
        _ = try EventStore(path: storePath, floatingZone: .utc)
        let other = folder + "/other-name.sqlite"
        let first = try DaemonProcess(store: storePath, folder: folder, name: "first")
        defer { first.stop() }
        #expect(first.wait(timeout: 20) { $0.stderrText.contains("scheduled, sleeping") }, "\(first.stderrText)")
        #expect(link(storePath, other) == 0)
        let second = try CLI.run(["daemon", "--store", other, "--notifier", "stdout"], environment: config)
        #expect(second.status != 0)
        #expect(second.stderr.contains("\(other) has 2 names (hard links)"), "\(second.stderr)")
        #expect(first.process.isRunning)
    }

    /// The store deleted under a running daemon: it kept the deleted file, logged nothing, and the
    /// next `chime add` made a new store whose alarm never fired. Now it says so and stops with a
    /// failure, which the unit's Restart=on-failure turns into a start on the new file.
    @Test(arguments: ["delete", "replace"])
    func aStoreDeletedOrReplacedUnderTheDaemonStopsItWithTheReason(how: String) throws {
        _ = try EventStore(path: storePath, floatingZone: .utc)
        let daemon = try DaemonProcess(store: storePath, folder: folder)
        defer { daemon.stop() }
        #expect(daemon.wait(timeout: 20) { $0.stderrText.contains("scheduled, sleeping") }, "\(daemon.stderrText)")
        if how == "delete" {
            #expect(unlink(storePath) == 0)
        } else {
            let other = folder + "/other.sqlite"
            _ = try EventStore(path: other, floatingZone: .utc)
            #expect(rename(other, storePath) == 0)
        }
        let stopped = daemon.wait(timeout: 20) { !$0.process.isRunning }
        #expect(stopped, "the daemon went on with the old file: \(daemon.stderrText)")
        #expect(daemon.process.terminationStatus == 1)
        #expect(
            daemon.stderrText.contains(how == "delete" ? "\(storePath) was deleted" : "\(storePath) was replaced by another file"),
            "\(daemon.stderrText)")
    }

    /// 4 KiB of noise on a page of a store of 500 reminders: the daemon refused to start (every
    /// alarm lost). It starts on the items that can be read, says how many it skipped, and rings
    /// one of the readable ones.
    @Test func aDamagedStoreStartsOnWhatCanBeReadAndSaysWhatNot() throws {
        let due = Instant(secondsSince1970: Int64(Date().timeIntervalSince1970) + 4)
        do {
            let store = try EventStore(path: storePath, floatingZone: .utc)
            let list = try store.defaultCalendarForNewReminders().identifier
            for n in 0..<500 {
                var r = Reminder(title: "Reminder \(n) " + String(repeating: "x", count: 800), calendar: list)
                r.dueDate = .utc(due.adding(Int64(n / 100)).utc)
                _ = try store.save(r, commit: false)
            }
            try store.commit()
        }
        // A page that holds item rows, in the middle (SQLite's dbstat names each page's table).
        let (page, size) = try DatabaseQueue(path: storePath).writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
            let leaves = try Int.fetchAll(db, sql: "SELECT pageno FROM dbstat WHERE name = 'item' AND pagetype = 'leaf' ORDER BY pageno")
            return (leaves[leaves.count / 2], try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 4096)
        }
        let file = try #require(FileHandle(forWritingAtPath: storePath))
        try file.seek(toOffset: UInt64((page - 1) * size))
        file.write(Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 7) }))
        try file.close()
        let daemon = try DaemonProcess(store: storePath, folder: folder)
        defer { daemon.stop() }
        #expect(daemon.wait(timeout: 20) { $0.stderrText.contains("scheduled, sleeping") }, "\(daemon.stderrText)")
        let log = daemon.stderrText
        #expect(log.contains("the store is damaged: read the items that could be read"), "\(log)")
        let skipped = log.split(separator: " ").first { $0.hasPrefix("skipped=") }.flatMap { Int($0.dropFirst(8)) } ?? -1
        #expect((1..<500).contains(skipped), "skipped \(skipped): \(log)")
        // A readable reminder rings (the first one's page is the file's start, far from the damage).
        // (Notification titles are shortened: the start names it.)
        #expect(
            daemon.wait(timeout: 20) { $0.notifications.contains { ($0["title"] as? String)?.hasPrefix("Reminder 0 ") == true } },
            "\(daemon.stdoutLines.prefix(3))")
    }
}
