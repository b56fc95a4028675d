import ChimeCore
import ChimeStore
import Foundation
import Glibc
import ChimeTestKit
import Testing

/// A real time-zone change under a running daemon: `/etc/localtime` replaced the way
/// `timedatectl set-timezone` does it (a new link renamed over the old one), in a private mount
/// namespace whose `/etc` is a copy, so the machine's own zone is never touched.
@Suite("chime daemon and /etc/localtime", .serialized)
struct ZoneChangeDaemonTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chime-zone-\(UUID().uuidString)").path

    @Test func aFloatingAlarmFiresOnTheNewZonesWallClockAfterLocaltimeChanges() throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let etc = folder + "/etc"
        let copy = Process()
        copy.executableURL = URL(fileURLWithPath: "/bin/sh")
        copy.arguments = ["-c", "cp -a /etc \(etc) 2>/dev/null; rm -f \(etc)/localtime \(etc)/timezone"]
        try copy.run()
        copy.waitUntilExit()
        let zoneinfo = ZoneRules.zoneInfoDirectory
        // Start 12 hours behind UTC; move to 14 hours ahead: the same wall time is 26 hours apart.
        try FileManager.default.createSymbolicLink(atPath: etc + "/localtime", withDestinationPath: zoneinfo + "/Etc/GMT+12")

        let store = folder + "/chime.sqlite"
        let fireAt = Instant(secondsSince1970: Int64(Date().timeIntervalSince1970) + 8)
        let wallTimeInNewZone = Instant(secondsSince1970: fireAt.secondsSince1970 + 14 * 3600).utc
        do {
            let s = try EventStore(path: store, floatingZone: .utc)
            var e = Event(
                title: "Floating", calendar: try s.defaultCalendarForNewEvents().identifier,
                start: .floating(wallTimeInNewZone), duration: 600)
            e.alarms = [.relative(0)]
            try s.save(e)
        }

        let script = "mount --bind \(etc) /etc && exec \(CLI.binary.path) daemon --store \(store) --notifier stdout --location none"
        let daemon = try DaemonProcess(
            store: store, executable: "/usr/bin/unshare", arguments: ["-m", "sh", "-c", script],
            unset: ["TZ"], folder: folder)
        defer { daemon.stop() }
        let sleeping = daemon.wait(timeout: 20) { $0.stderrText.contains("scheduled, sleeping") }
        try #require(sleeping, "the daemon did not start in its namespace: \(daemon.stderrText)")

        let replacement = etc + "/localtime.new"
        try FileManager.default.createSymbolicLink(atPath: replacement, withDestinationPath: zoneinfo + "/Etc/GMT-14")
        #expect(rename(replacement, etc + "/localtime") == 0)

        let fired = daemon.wait(timeout: 20) { $0.notifications.contains { $0["title"] as? String == "Floating" } }
        #expect(fired, "no alarm on the new zone's wall clock; daemon said: \(daemon.stderrText)")
        #expect(daemon.stderrText.contains("time zone changed"))
        let late = Int64(Date().timeIntervalSince1970) - fireAt.secondsSince1970
        #expect(late < 5, "fired \(late) s late")
    }
}
