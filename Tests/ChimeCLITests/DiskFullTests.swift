import Foundation
import Glibc
import ChimeTestKit
import Testing

/// The store on a real, tiny, full disk (a 2 MiB tmpfs; tests run as root): reads keep working
/// or say the disk is full, writes say the disk is full and change nothing, and once space is
/// freed the store is whole. Mounting is required, not optional: if it fails the test fails.
@Suite("chime on a full disk", .serialized)
struct DiskFullTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chime-full-\(UUID().uuidString)").path
    var disk: String { folder + "/disk" }
    var store: String { disk + "/chime.sqlite" }

    static func shell(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = arguments
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = pipe
        try p.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// Writes until the file system says ENOSPC.
    static func fill(_ path: String) -> Int {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return -1 }
        defer { close(fd) }
        let block = [UInt8](repeating: 0x55, count: 4096)
        var total = 0
        while true {
            let n = block.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            total += n
        }
        // Byte-sized leftovers too, so not even a partial page fits.
        var one: UInt8 = 0x55
        while write(fd, &one, 1) == 1 { total += 1 }
        return total
    }

    func agenda() throws -> CLIResult {
        try CLI.run(["agenda", "--store", store, "--from", "2026-12-01", "--days", "7"])
    }

    @Test func aFullDiskIsNamedAndTheStoreStaysWhole() throws {
        try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
        let mounted = try Self.shell(["mount", "-t", "tmpfs", "-o", "size=2m,mode=0700", "tmpfs", disk])
        try #require(mounted.status == 0, "mounting a tmpfs (tests run as root): \(mounted.output)")
        defer { _ = try? Self.shell(["umount", "-l", disk]) }

        for (i, title) in ["Breakfast", "Meeting", "Dinner"].enumerated() {
            let r = try CLI.run(["add", "event", title, "--store", store, "--start", "2026-12-0\(i + 1)T09:00"])
            #expect(r.status == 0, "\(r.stderr)")
        }
        let filler = disk + "/filler"
        #expect(Self.fill(filler) > 0)

        let read = try agenda()
        if read.status == 0 {
            #expect(read.stdout.contains("Breakfast") && read.stdout.contains("Dinner"), "\(read.stdout)")
        } else {
            #expect(read.stderr.hasPrefix("Error: the disk holding \(store) is full ("), "\(read.stderr)")
        }
        #expect(!read.stderr.contains("disk I/O error"), "\(read.stderr)")

        let write = try CLI.run(["add", "event", "Lost", "--store", store, "--start", "2026-12-04T09:00"])
        #expect(write.status == 1)
        #expect(write.stderr.hasPrefix("Error: the disk holding \(store) is full ("), "\(write.stderr)")
        #expect(write.stderr.hasSuffix("bytes free): free some space; nothing was changed\n"), "\(write.stderr)")

        // An import stores as it reads: the disk fills part-way, and nothing of it is kept.
        let file = folder + "/many.ics"
        var events = ""
        for i in 0..<2_000 { events += "BEGIN:VEVENT\r\nUID:many-\(i)\r\nDTSTART:20261202T1\(i % 10)0000Z\r\nSUMMARY:Imported \(i)\r\nEND:VEVENT\r\n" }
        try ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n" + events + "END:VCALENDAR\r\n").write(toFile: file, atomically: true, encoding: .utf8)
        let imported = try CLI.run(["import", file, "--store", store])
        #expect(imported.status == 1)
        #expect(imported.stderr.hasPrefix("Error: the disk holding \(store) is full ("), "\(imported.stderr)")

        try FileManager.default.removeItem(atPath: filler)
        let after = try agenda()
        #expect(after.status == 0, "\(after.stderr)")
        for title in ["Breakfast", "Meeting", "Dinner"] { #expect(after.stdout.contains(title), "\(after.stdout)") }
        #expect(!after.stdout.contains("Lost") && !after.stdout.contains("Imported"))
        let again = try CLI.run(["add", "event", "Later", "--store", store, "--start", "2026-12-05T09:00"])
        #expect(again.status == 0, "writes work again once there is room: \(again.stderr)")
    }
}
