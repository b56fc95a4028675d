import ChimeCore
import ChimeStore
import Foundation
import Glibc
import ChimeTestKit
import Testing

/// `chime daemon --location geoclue --notifier libnotify` against a real GeoClue2 daemon on the
/// sandbox's private system bus, fed positions through its NMEA socket, and a real notification
/// server (both started by Tests/harness/with-services.sh, which `make test` runs): a track that
/// crosses a fence makes the daemon deliver "Arrived: …" to the server.
@Suite("chime daemon with a real GeoClue2", .serialized)
struct GeoClueDaemonTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chime-geoclue-\(UUID().uuidString)").path
    let environment = ProcessInfo.processInfo.environment

    func sandbox() -> String? {
        guard environment["CHIME_TEST_SERVICES"] == "1", let run = environment["SVC_RUN"] else {
            Issue.record("no GeoClue sandbox: run under Tests/harness/with-services.sh (make test does)")
            return nil
        }
        return run
    }

    func poll(_ timeout: Double, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition() { return true }
            usleep(100_000)
        }
        return condition()
    }

    /// Moves the fake GPS: the feeder reads this file on every tick.
    func moveTo(_ c: Coordinate, run: String) throws {
        try "\(c.latitude) \(c.longitude)\n".write(toFile: run + "/pos", atomically: true, encoding: .utf8)
    }

    @Test func crossingAFenceFedByGeoClueDeliversArrivedToTheNotificationServer() throws {
        guard let run = sandbox() else { return }
        let start = Coordinate(latitude: 48.8584, longitude: 2.2945)
        try moveTo(start, run: run)
        defer { try? moveTo(start, run: run) }
        // A café 180 m north of the start, radius 100 m.
        let cafe = StructuredLocation(title: "Café", latitude: 48.8600, longitude: 2.2945, radius: 100)
        let storePath = folder + "/chime.sqlite"
        let store = try EventStore(path: storePath, floatingZone: .utc)
        let title = "Buy croissants \(UUID().uuidString.prefix(6))"
        var reminder = Reminder(title: title, calendar: try store.defaultCalendarForNewReminders().identifier)
        reminder.alarms = [.location(cafe, .enter)]
        reminder = try store.save(reminder)

        let daemon = try DaemonProcess(store: storePath, arguments: ["--notifier", "libnotify", "--location", "geoclue"], folder: folder)
        defer { daemon.stop() }
        // The first fix settles the fence as outside (no notification), saved in the store.
        let settled = poll(30) { (try? store.geofences.statuses().values.map(\.state)) == [.outside] }
        #expect(settled, "fence never settled; daemon: \(daemon.stderrText)")
        #expect(try store.geofences.lastFix()?.provider == "geoclue")
        let first = try #require(try store.geofences.lastFix()?.fix)
        #expect(abs(first.latitude - start.latitude) < 1e-4 && abs(first.longitude - start.longitude) < 1e-4)

        try moveTo(Coordinate(latitude: 48.8600, longitude: 2.2946), run: run)
        let log = run + "/notifications.log"
        let shown = poll(20) { ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").contains("summary=Arrived: Café — \(title)") }
        #expect(shown, "no Arrived notification; daemon: \(daemon.stderrText)")
        let line = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").last { $0.contains(title) } ?? ""
        #expect(line.contains("app=Chime"))
        #expect(line.contains("category=x-chime.reminder"))
        #expect(try store.geofences.statuses().values.map(\.state) == [.inside])

        // `chime geofence list` reads what the daemon saved.
        let list = try CLI.run(["geofence", "list", "--store", storePath])
        #expect(list.status == 0)
        #expect(list.stdout.contains("inside "), "\(list.stdout)")
        #expect(list.stdout.contains("(geoclue,"), "\(list.stdout)")
        #expect(daemon.stop() == 0)
    }

    @Test func whereAsksGeoClueForThePosition() throws {
        guard let run = sandbox() else { return }
        let start = Coordinate(latitude: 48.8584, longitude: 2.2945)
        try moveTo(start, run: run)
        let r = try CLI.run(
            ["where", "--location", "geoclue", "--json", "--timeout", "20"],
            environment: ["XDG_CONFIG_HOME": folder + "/config"])
        #expect(r.status == 0, "\(r.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
        #expect(json?["provider"] as? String == "geoclue")
        #expect(abs((json?["latitude"] as? Double ?? 0) - start.latitude) < 1e-4)
        #expect(abs((json?["longitude"] as? Double ?? 0) - start.longitude) < 1e-4)
    }
}
