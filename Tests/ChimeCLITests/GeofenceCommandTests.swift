import ChimeCore
import ChimeDaemon
import ChimeTestSupport
import Foundation
import ChimeTestKit
import Testing

/// `chime geofence simulate|list`, `chime where`, `chime daemon --location replay:…` on the
/// Examples (no services needed: replayed and fixed positions).
@Suite("chime geofence / where / daemon --location")
struct GeofenceCommandTests {
    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Examples").path

    func session() throws -> StoreSession {
        let s = StoreSession(zone: "Europe/Berlin", now: "2026-11-23T07:00:00Z")
        let r = try s.run("import", Self.examples + "/location-reminders.ics", "--new-calendar", "Errands")
        #expect(r.status == 0, "\(r.stderr)")
        return s
    }

    @Test func simulateListsTheCrossingsAlongTheCommute() throws {
        let s = try session()
        let r = try s.run("geofence", "simulate", "--track", Self.examples + "/commute.gpx")
        #expect(r.status == 0, "\(r.stderr)")
        try Snapshot.check(redactIDs(r.stdout).replacingOccurrences(of: Self.examples, with: "Examples"), named: "geofence-simulate.txt")

        let json =
            try JSONSerialization.jsonObject(
                with: Data(
                    try s.run(
                        "geofence", "simulate", "--track",
                        Self.examples + "/commute.gpx", "--from", "2026-11-24 08:00", "--json"
                    ).stdout.utf8)) as? [String: Any]
        let firings = json?["firings"] as? [[String: Any]] ?? []
        #expect(firings.map { ($0["place"] as? [String: Any])?["title"] as? String } == ["Home", "Grocery store", "Office"])
        #expect(firings.map { $0["proximity"] as? String } == ["leave", "enter", "enter"])
        // --from moves the whole track: it starts 2026-11-24 08:00 Berlin = 07:00Z, the first crossing 80 s later.
        #expect(firings.first?["at"] as? String == "2026-11-24T07:01:20Z")
        #expect(json?["armed_fences"] as? Int == 4)
    }

    @Test func simulateUsesTheConfiguredSettings() throws {
        let s = try session()
        let config = s.folder + "/dwell.toml"
        try FileManager.default.createDirectory(atPath: s.folder, withIntermediateDirectories: true)
        // A dwell of 10 minutes: the ride passes the grocery store and ends at the office after ~4 minutes there;
        // only leaving home lasts that long.
        try "[geofence]\ndwell_seconds = 600\n".write(toFile: config, atomically: true, encoding: .utf8)
        let r = try s.run("geofence", "simulate", "--track", Self.examples + "/commute.gpx", "--config", config)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("Left     Home"))
        #expect(!r.stdout.contains("Grocery store"))
        #expect(r.stdout.hasSuffix("1 alarm would fire.\n"))
    }

    @Test func badTracksAndSourcesAreClearErrors() throws {
        let s = try session()
        try FileManager.default.createDirectory(atPath: s.folder, withIntermediateDirectories: true)
        let broken = s.folder + "/broken.gpx"
        try """
        <gpx version="1.1"><trk><trkseg>
        <trkpt lat="52.5" lon="13.4"><time>2026-11-23T07:30:00Z</time></trkpt>
        <trkpt lat="95.2" lon="13.4"><time>2026-11-23T07:30:10Z</time></trkpt>
        </trkseg></trk></gpx>
        """.write(toFile: broken, atomically: true, encoding: .utf8)
        var r = try s.run("geofence", "simulate", "--track", broken)
        #expect(r.status == 1)
        #expect(r.stderr.hasPrefix("Error: \(broken):3: "), "\(r.stderr)")
        #expect(r.stderr.contains("95.2"))
        r = try s.run("geofence", "simulate", "--track", s.folder + "/missing.csv")
        #expect(r.status == 1)
        #expect(r.stderr.contains("missing.csv: cannot read"), "\(r.stderr)")
        r = try s.run("daemon", "--location", "fixed:91,0")
        #expect(r.status != 0)
        #expect(r.stderr.contains("latitude"), "\(r.stderr)")
        r = try s.run("daemon", "--location", "replay:x.gpx", "--speed", "0")
        #expect(r.status != 0)
        #expect(r.stderr.contains("--speed"), "\(r.stderr)")
        r = try s.run("where", "--location", "none")
        #expect(r.status == 1)
        #expect(r.stderr.contains("none"), "\(r.stderr)")
    }

    /// The simulation and the fence list in the user's language: crossings and states lined up by
    /// display width, a plural for the alarms; LANG=C is the snapshot's English, byte for byte.
    @Test func simulateAndListInTheUsersLanguage() throws {
        let s = try session()
        func run(_ lang: String?, _ arguments: [String]) throws -> String {
            let env = CatalogSandbox.environment(s.environment, language: lang)
            let r = try CLI.run(arguments, environment: env)
            #expect(r.status == 0, "\(r.stderr)")
            return r.stdout
        }
        let simulate = ["geofence", "simulate", "--track", Self.examples + "/commute.gpx"]
        #expect(try run("C", simulate) == run(nil, simulate))
        #expect(try run("C", ["geofence", "list"]) == run(nil, ["geofence", "list"]))
        for lang in ["de_DE.UTF-8", "zh_CN.UTF-8", "ru_RU.UTF-8"] {
            let text = try run(lang, simulate)
            #expect(!text.contains("Fences armed") && !text.contains("would fire") && !text.contains("from the centre"), "\(lang): \(text)")
            // The item's kind beside its reference is in the language too.
            #expect(!text.contains("[reminder ") && !text.contains("[event "), "\(lang): \(text)")
            // The place names start in one terminal column after the time and the crossing word.
            let crossings = text.split(separator: "\n").filter { $0.first?.isNumber == true && $0.dropFirst(8).hasPrefix("  ") }
            #expect(crossings.count == 3, "\(lang): \(text)")
            let starts = Set(
                crossings.map { line -> Int in
                    let rest = line.dropFirst(10)
                    let word = rest.prefix { $0 != " " }
                    return DisplayText.columns(String(word)) + rest.dropFirst(word.count).prefix { $0 == " " }.count
                })
            #expect(starts.count == 1, "\(lang): \(crossings)")
            let list = try run(lang, ["geofence", "list"])
            #expect(!list.contains("Armed fences") && !list.contains("Last position"), "\(lang): \(list)")
            #expect(!list.contains("[reminder ") && !list.contains("[event "), "\(lang): \(list)")
        }
    }

    @Test func whereReportsAFixedPosition() throws {
        let s = try session()
        let r = try s.run("where", "--location", "fixed:52.52,13.405,20", "--json")
        #expect(r.status == 0, "\(r.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
        #expect(json?["latitude"] as? Double == 52.52)
        #expect(json?["longitude"] as? Double == 13.405)
        #expect(json?["accuracy_m"] as? Double == 20)
        #expect(json?["provider"] as? String == "fixed:52.52000,13.40500,20")
    }

    @Test func theConfigFileReadsEveryGeofenceKey() throws {
        let config = try DaemonConfiguration.parse(
            """
            [geofence]
            location = "fixed:48.85,2.35,30"
            default_radius_m = 200
            minimum_radius_m = 25
            hysteresis_m = 40
            max_accuracy_m = 100
            dwell_seconds = 60
            initial_state = "fire"
            event_arming_hours = 3
            adaptive_tracking = false
            """, file: "x.toml")
        #expect(config.location == .fixed(Coordinate(latitude: 48.85, longitude: 2.35), accuracy: 30))
        var expected = GeofenceSettings()
        expected.defaultRadius = 200
        expected.minimumRadius = 25
        expected.hysteresisMetres = 40
        expected.maximumAccuracy = 100
        expected.dwellSeconds = 60
        expected.initialState = .fire
        expected.eventArmingHours = 3
        expected.adaptiveTracking = false
        #expect(config.geofence == expected)
        for bad in ["location = \"gps\"", "initial_state = \"maybe\"", "adaptive_tracking = \"yes\"", "dwell_seconds = -1"] {
            #expect(throws: ConfigurationError.self, "\(bad)") { try DaemonConfiguration.parse("[geofence]\n\(bad)\n", file: "x.toml") }
        }
    }

    /// The daemon with a replayed track as its position source delivers each crossing once, and
    /// `chime geofence list` reads the states and the last position it saved.
    @Test func daemonWithAReplayedTrackDeliversTheCrossings() throws {
        let s = try session()
        let daemon = try DaemonProcess(
            store: s.path,
            arguments: [
                "--notifier", "stdout", "--location",
                "replay:\(Self.examples)/commute.gpx", "--speed", "max"
            ],
            folder: s.folder)
        defer { daemon.stop() }
        let delivered = daemon.wait(timeout: 30) { $0.notifications.count >= 3 }
        #expect(delivered, "daemon: \(daemon.stderrText)")
        #expect(
            daemon.notifications.compactMap { $0["title"] as? String } == [
                "Left: Home — Take out the bins", "Arrived: Grocery store — Buy milk", "Arrived: Office — Water the office plants"
            ])
        #expect(daemon.stop() == 0)
        let list = try s.run("geofence", "list")
        #expect(list.status == 0)
        #expect(list.stdout.contains("inside   arrive  Office"), "\(list.stdout)")
        #expect(list.stdout.split(separator: "\n").filter { $0.contains("(delivered ") }.count == 3, "\(list.stdout)")
        #expect(list.stdout.split(separator: "\n").first { $0.contains("Pharmacy") }?.contains("delivered") == false)
        #expect(list.stdout.contains("(replay:"), "\(list.stdout)")
    }
}

/// GeoClue missing: the daemon says so once and keeps firing timed alarms.
@Suite("chime daemon without GeoClue")
struct DaemonWithoutGeoClueTests {
    @Test func saysSoOnceAndTimedAlarmsStillFire() throws {
        let s = StoreSession(zone: "UTC", now: "2026-11-23T07:00:00Z")
        _ = try s.add("reminder", "Buy milk", "--at", "Shop@52.5,13.4", "--on", "arrive")
        let due = ISO8601DateFormatter().string(from: Date().addingTimeInterval(3))
        var env = s.environment
        env["CHIME_NOW"] = nil
        let added = try CLI.run(["add", "reminder", "Stretch", "--due", due, "--alarm", "0m"], environment: env)
        #expect(added.status == 0, "\(added.stderr)")
        let daemon = try DaemonProcess(
            store: s.path, arguments: ["--notifier", "stdout", "--location", "geoclue"],
            environment: ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=\(s.folder)/no-such-bus"],
            folder: s.folder)
        defer { daemon.stop() }
        let fired = daemon.wait(timeout: 20) { $0.notifications.contains { $0["title"] as? String == "Stretch" } }
        #expect(fired, "daemon: \(daemon.stderrText)")
        #expect(daemon.stop() == 0)
        let said = daemon.stderrText.components(separatedBy: "no location: geofence alarms wait for a position").count - 1
        #expect(said == 1, "daemon: \(daemon.stderrText)")
    }
}
