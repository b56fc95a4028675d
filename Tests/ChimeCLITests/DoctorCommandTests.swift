import ChimeCore
import ChimeDaemon
import ChimeStore
import Foundation
import GRDB
import Glibc
import ChimeTestKit
import Testing

/// The built `chime doctor`, end to end: against the sandbox's real dunst and GeoClue (started by
/// Tests/harness/with-services.sh, which `make test` runs), without a session bus, on a store
/// others can read, and next to a running daemon.
@Suite("chime doctor, the built binary")
struct DoctorCommandTests {
    let folder: String

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("chime-doctor-cli-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    /// The text line of the check named `name`.
    func line(_ output: String, _ name: String) -> String? {
        output.split(separator: "\n").map(String.init).first { $0.dropFirst(6).hasPrefix(name + " ") }
    }

    func checks(_ json: String) throws -> [String: [String: Any]] {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any], "\(json)")
        let list = try #require(object["checks"] as? [[String: Any]])
        return Dictionary(list.map { ($0["name"] as? String ?? "", $0) }, uniquingKeysWith: { a, _ in a })
    }

    @Test func inTheSandboxTheNotificationServerAndGeoClueAreOK() throws {
        let environment = ProcessInfo.processInfo.environment
        guard environment["CHIME_TEST_SERVICES"] == "1", let run = environment["SVC_RUN"] else {
            Issue.record("needs the desktop-services sandbox: run under Tests/harness/with-services.sh (make test does)")
            return
        }
        let store = folder + "/chime.sqlite"
        _ = try EventStore(path: store, floatingZone: .utc)
        // GeoClue's own config is bind-mounted in its namespace: doctor reads the same file the same way.
        func doctor(_ extra: [String]) throws -> CLIResult {
            try CLI.run(
                [
                    "-m", "sh", "-c", "mount --bind \"$1\" /etc/geoclue/geoclue.conf && shift && exec \"$@\"", "sh",
                    run + "/geoclue.conf", CLI.binary.path, "doctor", "--store", store
                ] + extra,
                executable: "/usr/bin/unshare")
        }
        let text = try doctor([])
        print(text.stdout)
        let json = try doctor(["--json"])
        #expect(json.status == 0, "\(json.stderr)")
        let found = try checks(json.stdout)
        let notifications = try #require(found["notifications"])
        #expect(notifications["status"] as? String == "ok")
        let detail = notifications["detail"] as? String ?? ""
        #expect(detail.hasPrefix("dunst "), "\(detail)")
        // dunst 1.9 says `actions` and `body-hyperlinks` (read as markup), not `persistence` or `sound`.
        #expect(detail.contains(": actions, body markup, no persistence, no sound [actions body body-hyperlinks"), "\(detail)")
        #expect(found["geoclue"]?["status"] as? String == "ok")
        #expect(found["geoclue"]?["detail"] as? String == "GeoClue2 is running on the system bus")
        #expect(found["geoclue permission"]?["status"] as? String == "ok")
        #expect(found["geoclue agent"]?["status"] as? String == "ok")
        #expect(line(text.stdout, "notifications")?.hasPrefix("ok    notifications") == true, "\(text.stdout)")
        #expect(line(text.stdout, "geoclue")?.hasPrefix("ok    geoclue") == true)
    }

    /// A socket file whose bus is gone: connecting is refused at once.
    func deadSocket() -> String {
        let path = folder + "/dead_bus_socket"
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in path.utf8.enumerated() { raw[i] = byte }
        }
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        close(fd)  // the file stays; nobody listens
        return path
    }

    @Test func withADeadSessionBusTheServerIsMissingQuicklyAndNothingFails() throws {
        let socketPath = deadSocket()
        let started = Date()
        let r = try CLI.run(
            ["doctor", "--store", folder + "/chime.sqlite"],
            environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=" + socketPath])
        let elapsed = Date().timeIntervalSince(started)
        #expect(elapsed < 3, "took \(elapsed) s")
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        let notifications = try #require(line(r.stdout, "notifications"), "\(r.stdout)")
        #expect(notifications.hasPrefix("warn  notifications"))
        #expect(notifications.contains("no notification server answers on the session bus"))
        #expect(notifications.contains("the daemon prints alarms on standard output instead"))
        #expect(notifications.contains(" — fix: "))
    }

    @Test func aBusThatNeverAnswersIsGivenUpOnAfterTwoSeconds() throws {
        // Listening, never accepting: the connection is made, the handshake never answered.
        let path = folder + "/silent_bus_socket"
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in for (i, byte) in path.utf8.enumerated() { raw[i] = byte } }
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(listen(fd, 8) == 0)
        let started = Date()
        let r = try CLI.run(
            ["doctor", "--store", folder + "/chime.sqlite", "--json"],
            environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=" + path])
        let elapsed = Date().timeIntervalSince(started)
        #expect(elapsed < 6, "took \(elapsed) s")
        #expect(r.status == 0)
        let notifications = try #require(try checks(r.stdout)["notifications"])
        #expect(notifications["status"] as? String == "warn")
        #expect((notifications["detail"] as? String)?.contains("no answer within 2 s") == true, "\(notifications)")
    }

    /// The fixes name files of an installation, never a template of the source tree: the binary in
    /// its build folder says make install; the same binary in PREFIX/bin (hard-linked, as
    /// /proc/self/exe resolves symbolic links) names the unit and GeoClue section installed beside it.
    @Test func theFixesNameWhatMakeInstallPutsBesideTheBinary() throws {
        let bus = [
            "DBUS_SESSION_BUS_ADDRESS": "unix:path=" + deadSocket(), "HOME": folder, "XDG_CONFIG_HOME": folder + "/config",
            "XDG_DATA_HOME": folder + "/data"
        ]
        let built = try CLI.run(["doctor", "--store", folder + "/chime.sqlite"], environment: bus)
        let unit = try #require(line(built.stdout, "systemd unit"), "\(built.stdout)")
        #expect(!unit.contains("Config/chime.service"), "\(unit)")
        if unit.contains("chime.service is not installed") {
            #expect(unit.contains("make install in chime's source tree, then systemctl --user daemon-reload && systemctl --user enable --now chime"), "\(unit)")
        }
        let snippet = try #require(line(built.stdout, "geoclue permission"), "\(built.stdout)")
        #expect(snippet.hasPrefix("ok") || snippet.contains("from the source tree: sudo "), "\(snippet)")

        let prefix = folder + "/prefix"
        for sub in ["bin", "share/doc/chime", "lib/systemd/user"] {
            try FileManager.default.createDirectory(atPath: prefix + "/" + sub, withIntermediateDirectories: true)
        }
        if link(CLI.binary.path, prefix + "/bin/chime") != 0 { try FileManager.default.copyItem(atPath: CLI.binary.path, toPath: prefix + "/bin/chime") }
        let repository = #filePath.replacingOccurrences(of: "/Tests/ChimeCLITests/DoctorCommandTests.swift", with: "")
        try FileManager.default.copyItem(atPath: repository + "/Config/geoclue-chime.conf", toPath: prefix + "/share/doc/chime/geoclue-chime.conf")
        #expect(FileManager.default.createFile(atPath: prefix + "/lib/systemd/user/chime.service", contents: Data("[Unit]\n".utf8)))
        let installed = try CLI.run(
            ["doctor", "--store", folder + "/chime.sqlite", "--json"], environment: bus,
            executable: prefix + "/bin/chime")
        let found = try checks(installed.stdout)
        let systemd = try #require(found["systemd unit"])
        if systemd["status"] as? String != "ok" {
            #expect((systemd["fix"] as? String)?.hasSuffix("systemctl --user enable --now \(prefix)/lib/systemd/user/chime.service") == true, "\(systemd)")
        }
        let permission = try #require(found["geoclue permission"])
        if permission["status"] as? String != "ok" {
            let fix = permission["fix"] as? String ?? ""
            #expect(fix.contains(prefix + "/share/doc/chime/geoclue-chime.conf") && !fix.contains("source tree"), "\(fix)")
        }
    }

    /// A running system bus on which nothing owns or can start GeoClue2: dbus-daemon with a
    /// permissive policy and no service folders (as the harness's buses). Stopped by the caller.
    func emptySystemBus() throws -> (process: Process, address: String) {
        let socketPath = folder + "/empty_system_bus_socket"
        let config = folder + "/empty-system-bus.conf"
        try """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>system</type>
          <listen>unix:path=\(socketPath)</listen>
          <auth>EXTERNAL</auth>
          <policy context="default">
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
          </policy>
        </busconfig>
        """.write(toFile: config, atomically: true, encoding: .utf8)
        let bus = Process()
        bus.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        bus.arguments = ["--nofork", "--config-file=" + config]
        try bus.run()
        let started = Date()
        while !FileManager.default.fileExists(atPath: socketPath), Date().timeIntervalSince(started) < 10 { usleep(20_000) }
        return (bus, "unix:path=" + socketPath)
    }

    /// GeoClue absent: a warning with its fix, and doctor still exits 0 (only a failed check exits 1),
    /// whether the system bus runs without GeoClue or is not there at all.
    @Test func withoutGeoClueItIsAWarningWithItsFixAndDoctorExitsZero() throws {
        let bus = try emptySystemBus()
        // SIGKILL: a child of the test process inherits its signal mask, which blocks SIGTERM.
        defer { kill(bus.process.processIdentifier, SIGKILL); bus.process.waitUntilExit() }
        let session = "unix:path=" + deadSocket()
        // The fix depends on whether this machine has GeoClue installed (its D-Bus service file).
        let installed = FileManager.default.fileExists(atPath: "/usr/share/dbus-1/system-services/org.freedesktop.GeoClue2.service")
        let fix = installed ? "GeoClue2 is installed but not answering: systemctl status geoclue; journalctl -u geoclue" : "sudo apt install geoclue-2.0"
        for (address, why) in [
            (bus.address, "org.freedesktop.GeoClue2 is not on the system bus (not running, and the bus cannot start it)"),
            ("unix:path=" + folder + "/no_system_bus_socket", "cannot connect to unix:path=" + folder + "/no_system_bus_socket")
        ] {
            let started = Date()
            let text = try CLI.run(
                ["doctor", "--store", folder + "/chime.sqlite"],
                environment: ["DBUS_SESSION_BUS_ADDRESS": session, "DBUS_SYSTEM_BUS_ADDRESS": address])
            #expect(Date().timeIntervalSince(started) < 6)
            #expect(text.status == 0, "\(text.stdout)\(text.stderr)")
            let geoclue = try #require(line(text.stdout, "geoclue"), "\(text.stdout)")
            #expect(geoclue.hasPrefix("warn  geoclue "), "\(geoclue)")
            #expect(geoclue.contains("GeoClue2 does not answer (\(why)"), "\(geoclue)")
            #expect(geoclue.contains("location alarms cannot fire, timed alarms work — fix: \(fix)"), "\(geoclue)")
            let json = try CLI.run(
                ["doctor", "--store", folder + "/chime.sqlite", "--json"],
                environment: ["DBUS_SESSION_BUS_ADDRESS": session, "DBUS_SYSTEM_BUS_ADDRESS": address])
            #expect(json.status == 0)
            let check = try #require(try checks(json.stdout)["geoclue"])
            #expect(check["status"] as? String == "warn")
            #expect(check["fix"] as? String == fix)
        }
        #expect(bus.process.isRunning, "the empty bus stopped early: the first case did not test a running bus")
    }

    @Test func aStoreOthersCanReadGetsTheChmodFix() throws {
        let store = folder + "/chime.sqlite"
        _ = try EventStore(path: store, floatingZone: .utc)
        chmod(store, 0o644)
        let r = try CLI.run(["doctor", "--store", store], environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=" + deadSocket()])
        #expect(r.status == 0)
        let file = try #require(line(r.stdout, "store file"), "\(r.stdout)")
        #expect(file.hasPrefix("warn  store file"))
        #expect(file.contains("mode 0644"))
        #expect(file.contains(" — fix: chmod 600 \(store)"), "\(file)")
    }

    /// 4 KiB of noise in the middle of a store: doctor said "ok" while agenda and export failed.
    @Test func aDamagedStoreFailsTheCheckAndNamesTheRecovery() throws {
        let store = folder + "/chime.sqlite"
        do {
            let opened = try EventStore(path: store, floatingZone: .utc)
            let list = try opened.defaultCalendarForNewReminders().identifier
            for n in 0..<500 { _ = try opened.save(Reminder(title: "Reminder \(n) " + String(repeating: "x", count: 800), calendar: list), commit: false) }
            try opened.commit()
        }
        // Every page in the file itself and the log emptied: a page still in the log would be read
        // from there, and the damage below would go unseen.
        try DatabaseQueue(path: store).writeWithoutTransaction { try $0.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        var info = stat()
        #expect(stat(store, &info) == 0 && info.st_size > 300_000, "a store of many pages")
        let file = try #require(FileHandle(forWritingAtPath: store))
        try file.seek(toOffset: UInt64(info.st_size / 2 / 4096 * 4096))
        file.write(Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 7) }))
        try file.close()
        let r = try CLI.run(["doctor", "--store", store, "--json"], environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=" + deadSocket()])
        let check = try #require(try checks(r.stdout)["store schema"], "\(r.stdout)")
        #expect(check["status"] as? String == "fail", "\(check)")
        #expect((check["detail"] as? String)?.contains("damaged") == true, "\(check)")
        #expect((check["fix"] as? String)?.contains(".recover") == true, "\(check)")
        #expect(r.status != 0)
    }

    @Test func aRunningDaemonIsNamedWithItsPID() throws {
        let store = folder + "/chime.sqlite"
        _ = try EventStore(path: store, floatingZone: .utc)
        let daemon = try DaemonProcess(store: store, folder: folder)
        defer { daemon.stop() }
        let pid = daemon.process.processIdentifier
        let locked = daemon.wait(timeout: 20) { _ in DaemonLock.holder(ofStore: store) == .held(pid: pid) }
        #expect(locked, "the daemon never took the lock: \(daemon.stderrText)")
        let r = try CLI.run(["doctor", "--store", store, "--json"], environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=" + deadSocket()])
        let check = try #require(try checks(r.stdout)["daemon"])
        #expect(check["status"] as? String == "ok")
        #expect(check["detail"] as? String == "a daemon is running (pid \(pid)) for this store")
        #expect(check["fix"] is NSNull)
    }

    @Test func anInvalidTZFailsAndExitsOne() throws {
        let r = try CLI.run(
            ["doctor", "--store", folder + "/chime.sqlite", "--json"],
            environment: ["TZ": "Mars/Olympus", "DBUS_SESSION_BUS_ADDRESS": "unix:path=" + deadSocket()])
        #expect(r.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect(object["status"] as? String == "fail")
        #expect(try checks(r.stdout)["time zone"]?["status"] as? String == "fail")
        #expect(!FileManager.default.fileExists(atPath: folder + "/chime.sqlite"))  // doctor created nothing
    }
}
