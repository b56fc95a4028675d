import ChimeCore
import ChimeDaemon
import ChimeDesktop
import ChimeStore
import ChimeTestSupport
import Foundation
import Glibc
import Testing

/// `chime doctor`'s check logic in-process, on real temporary files, a real `flock` and real
/// zone files; the D-Bus and systemd answers are given as values.
@Suite("chime doctor: the checks")
struct DoctorCheckTests {
    let folder: String

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("chime-doctor-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    func check(_ checks: [DoctorCheck], _ name: String) throws -> DoctorCheck {
        try #require(checks.first { $0.name == name }, "no \(name) check in \(checks.map(\.name))")
    }

    @Test func aMissingStoreIsFineAndNotCreated() throws {
        let path = folder + "/chime.sqlite"
        let checks = Doctor.storeChecks(path: path, origin: .environment)
        let store = try check(checks, "store")
        #expect(store.status == .ok)
        #expect(store.detail == "\(path) ($CHIME_STORE): not created yet; the first command that saves something creates it (0600, folder 0700)")
        #expect(try check(checks, "store folder").status == .ok)
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func aStoreOfModeSixHundredOpensWithItsSchemaVersion() throws {
        let path = folder + "/chime.sqlite"
        _ = try EventStore(path: path, floatingZone: .utc)
        let checks = Doctor.storeChecks(path: path, origin: .option)
        #expect(checks.allSatisfy { $0.status == .ok }, "\(checks)")
        #expect(try check(checks, "store").detail == "\(path) (--store)")
        #expect(try check(checks, "store file").detail.hasPrefix("mode 0600, owner "))
        #expect(try check(checks, "store file").detail.hasSuffix(", you"))
        let current = try #require(try StoreInspection.inspect(path: path)).currentSchemaVersion
        #expect(try check(checks, "store schema").detail == "a Chime store, schema v\(current) (current)")
    }

    @Test func readableByOthersWarnsWritableFailsWithTheChmod() throws {
        let path = folder + "/chime.sqlite"
        _ = try EventStore(path: path, floatingZone: .utc)
        chmod(path, 0o644)
        let readable = try check(Doctor.storeChecks(path: path, origin: .option), "store file")
        #expect(readable.status == .warn)
        #expect(readable.detail.contains("mode 0644"))
        #expect(readable.fix?.hasPrefix("chmod 600 \(path)") == true, "\(readable)")
        chmod(path, 0o666)
        #expect(try check(Doctor.storeChecks(path: path, origin: .option), "store file").status == .fail)
    }

    @Test func anOpenFolderWarnsWithChmodSevenHundred() throws {
        chmod(folder, 0o755)
        let checks = Doctor.storeChecks(path: folder + "/chime.sqlite", origin: .option)
        let check = try check(checks, "store folder")
        #expect(check.status == .warn)
        #expect(check.fix == "chmod 700 \(folder)")
    }

    @Test func filesThatAreNotStoresFailWithEventStoresOwnError() throws {
        let text = folder + "/notes.sqlite"
        try "not a database".write(toFile: text, atomically: true, encoding: .utf8)
        chmod(text, 0o600)
        let schema = try check(Doctor.storeChecks(path: text, origin: .option), "store schema")
        #expect(schema.status == .fail)
        #expect(schema.detail == StoreError.notADatabase(path: text).description)
        #expect(try Data(contentsOf: URL(fileURLWithPath: text)) == Data("not a database".utf8))

        let link = folder + "/link.sqlite"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: text)
        let linked = try check(Doctor.storeChecks(path: link, origin: .option), "store schema")
        #expect(linked.status == .fail)
        #expect(linked.detail.contains("is a symbolic link to"))
        #expect(linked.fix == "chime doctor --store \(text)")
    }

    @Test func theZoneSaysWhereItCameFrom() throws {
        let berlin = SystemZone.resolve(environment: ["TZ": "Europe/Berlin"], localtime: folder + "/none")
        #expect(berlin.origin == .environment("Europe/Berlin"))
        #expect(Doctor.zoneCheck(berlin).detail == "Europe/Berlin (from $TZ=Europe/Berlin)")

        let invalid = SystemZone.resolve(environment: ["TZ": "Mars/Olympus"], localtime: folder + "/none")
        #expect(invalid.origin == .invalidEnvironment("Mars/Olympus"))
        #expect(invalid.zone.identifier == "UTC")
        #expect(Doctor.zoneCheck(invalid).status == .fail)

        let localtime = folder + "/localtime"
        try FileManager.default.createSymbolicLink(atPath: localtime, withDestinationPath: "/usr/share/zoneinfo/America/New_York")
        let linked = SystemZone.resolve(environment: [:], localtime: localtime)
        #expect(linked.origin == .localtimeLink(path: localtime, target: "/usr/share/zoneinfo/America/New_York"))
        #expect(Doctor.zoneCheck(linked).detail == "America/New_York (from \(localtime) → /usr/share/zoneinfo/America/New_York)")
        // `current` reads the same way.
        #expect(SystemZone.current(environment: [:], localtime: localtime).identifier == "America/New_York")

        let copyFolder = folder + "/etc"
        try FileManager.default.createDirectory(atPath: copyFolder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: "/usr/share/zoneinfo/Asia/Tokyo", toPath: copyFolder + "/localtime")
        try "Asia/Tokyo\n".write(toFile: copyFolder + "/timezone", atomically: true, encoding: .utf8)
        let copied = SystemZone.resolve(environment: [:], localtime: copyFolder + "/localtime")
        #expect(copied.origin == .localtimeCopy(path: copyFolder + "/localtime", namedBy: copyFolder + "/timezone"))

        let none = SystemZone.resolve(environment: ["TZ": ""], localtime: folder + "/none")
        #expect(none.origin == .none)
        #expect(Doctor.zoneCheck(none).status == .warn)
    }

    @Test func theLockHolderIsReadWithoutTakingTheLock() throws {
        let path = folder + "/chime.sqlite"
        #expect(DaemonLock.holder(ofStore: path) == .free)  // no file yet
        _ = try EventStore(path: path, floatingZone: .utc)
        #expect(DaemonLock.holder(ofStore: path) == .free)
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        defer { close(fd) }
        #expect(flock(fd, LOCK_EX | LOCK_NB) == 0)
        #expect(DaemonLock.holder(ofStore: path) == .held(pid: getpid()))
        #expect(Doctor.daemonCheck(store: path, holder: .held(pid: getpid())).detail == "a daemon is running (pid \(getpid())) for this store")
        // Asking twice took nothing: the lock is still ours alone, and it goes with flock(LOCK_UN).
        #expect(flock(fd, LOCK_UN) == 0)
        #expect(DaemonLock.holder(ofStore: path) == .free)
    }

    @Test func notificationServerCapabilitiesAndTheFallback() {
        let dunst = NotificationServerInfo(
            name: "dunst", vendor: "knopwob", version: "1.9.0", specVersion: "1.2",
            capabilities: ["actions", "body", "body-hyperlinks", "persistence"])
        let ok = Doctor.notificationCheck(.success(dunst))
        #expect(ok.status == .ok)
        #expect(ok.detail == "dunst 1.9.0 (knopwob): actions, body markup, persistence, no sound [actions body body-hyperlinks persistence]")
        var plain = dunst
        plain.capabilities = ["body"]
        #expect(Doctor.notificationCheck(.success(plain)).status == .warn)
        let problem = DesktopServiceProbe.notificationServer(environment: [:])  // no session bus at all
        guard case .failure = problem else { Issue.record("expected no session bus, got \(problem)"); return }
        let missing = Doctor.notificationCheck(problem)
        #expect(missing.status == .warn)
        #expect(missing.detail.contains("the daemon prints alarms on standard output instead"))
        #expect(missing.fix != nil)
    }

    /// Doctor says which addresses are "you" in invitations and where each comes from.
    @Test func identitySaysWhichAddressesAreYou() {
        var account = SyncAccount(name: "work", url: "https://dav.example.org", username: "ana")
        let none = Doctor.identityCheck(configured: [], accounts: [account])
        #expect(none.status == .ok && none.detail.contains("declined ones too") && none.detail.contains("[identity] addresses"))
        account.addresses = ["mailto:ana@work.example"]
        let both = Doctor.identityCheck(configured: ["ana@example.org"], accounts: [account])
        #expect(both.detail == "you are ana@example.org (config.toml); mailto:ana@work.example (account work)", "\(both.detail)")
    }

    @Test func geoCluePermissionFromTheConfigFiles() {
        let base = (path: "/etc/geoclue/geoclue.conf", text: "[agent]\nwhitelist=gnome-shell;geoclue-demo-agent\n[wifi]\nenable=true\n")
        let none = Doctor.geoCluePermissionCheck(files: [base], hasDropInFolder: false, installed: Doctor.Installed(executable: nil))
        #expect(none.status == .warn)
        #expect(none.fix == "from the source tree: sudo tee -a /etc/geoclue/geoclue.conf < Config/geoclue-chime.conf > /dev/null (then restart geoclue)")
        let snippet = try! String(
            contentsOfFile: #filePath.replacingOccurrences(of: "Tests/ChimeDaemonTests/DoctorCheckTests.swift", with: "Config/geoclue-chime.conf"),
            encoding: .utf8
        )
        let installed = Doctor.geoCluePermissionCheck(files: [base, ("/etc/geoclue/conf.d/90-chime.conf", snippet)], hasDropInFolder: true)
        #expect(installed.status == .ok)
        #expect(installed.detail == "[chime] allowed=true in /etc/geoclue/conf.d/90-chime.conf")
        let denied = Doctor.geoCluePermissionCheck(files: [base, ("/etc/geoclue/conf.d/99-local.conf", "[chime]\nallowed=false\n")], hasDropInFolder: true)
        #expect(denied.status == .warn)

        #expect(Doctor.geoClueAgentCheck(files: [base], processes: [(7, "/usr/libexec/geoclue-2.0/demos/agent")])?.detail == "geoclue-demo-agent runs (pid 7)")
        #expect(Doctor.geoClueAgentCheck(files: [base], processes: [(8, "/usr/bin/gnome-shell")])?.status == .ok)
        #expect(Doctor.geoClueAgentCheck(files: [base], processes: [(9, "/usr/bin/bash")])?.status == .warn)
    }

    /// A prefix laid out as `make install PREFIX=…` leaves it (the files that matter, empty).
    func installedPrefix(unitFolder: String) throws -> String {
        let prefix = folder + "/prefix"
        for file in ["bin/chime", "share/doc/chime/geoclue-chime.conf", unitFolder + "/chime.service"] {
            try FileManager.default.createDirectory(
                atPath: prefix + "/" + (file as NSString).deletingLastPathComponent,
                withIntermediateDirectories: true)
            #expect(FileManager.default.createFile(atPath: prefix + "/" + file, contents: Data()))
        }
        return prefix
    }

    @Test func fixesNameTheInstalledFilesBesideTheBinaryNotTheSourceTree() throws {
        let prefix = try installedPrefix(unitFolder: "lib/systemd/user")
        let installed = Doctor.Installed(executable: prefix + "/bin/chime")
        #expect(installed.geoClueSnippet == prefix + "/share/doc/chime/geoclue-chime.conf")
        #expect(installed.unit == prefix + "/lib/systemd/user/chime.service")
        let base = (path: "/etc/geoclue/geoclue.conf", text: "[wifi]\nenable=true\n")
        #expect(
            Doctor.geoCluePermissionCheck(files: [base], hasDropInFolder: true, installed: installed).fix
                == "sudo cp \(prefix)/share/doc/chime/geoclue-chime.conf /etc/geoclue/conf.d/90-chime.conf")
        #expect(
            Doctor.geoCluePermissionCheck(files: [base], hasDropInFolder: false, installed: installed).fix
                == "sudo tee -a /etc/geoclue/geoclue.conf < \(prefix)/share/doc/chime/geoclue-chime.conf > /dev/null (then restart geoclue)")
        #expect(
            Doctor.geoCluePermissionCheck(files: [], hasDropInFolder: true, installed: installed).fix
                == "sudo apt install geoclue-2.0, then sudo cp \(prefix)/share/doc/chime/geoclue-chime.conf /etc/geoclue/conf.d/90-chime.conf")

        // systemd: the installed unit, enabled by path (systemctl links a unit outside its folders).
        let home = ["HOME": folder, "XDG_CONFIG_HOME": folder + "/config", "XDG_DATA_HOME": folder + "/data"]
        let answers: [String: (Int32, String)] = ["is-system-running": (0, "running"), "cat chime.service": (1, "No files found for chime.service.")]
        let missing = Doctor.systemdCheck(environment: home, installed: installed) { answers[$0.joined(separator: " ")] }
        #expect(missing.detail == "chime.service is not installed")
        #expect(missing.fix == "systemctl --user enable --now \(prefix)/lib/systemd/user/chime.service")
        let offline = Doctor.systemdCheck(environment: home, installed: installed) { _ in (1, "Failed to connect to bus: No medium found") }
        #expect(
            offline.fix
                == "run chime daemon from your session's autostart, or in a systemd session: systemctl --user enable --now \(prefix)/lib/systemd/user/chime.service"
        )

        // A binary in a build folder: make install, and the GeoClue section from the source tree.
        let build = Doctor.Installed(executable: folder + "/.build/release/chime")
        #expect(build.geoClueSnippet == nil && build.unit == nil)
        let fromBuild = Doctor.systemdCheck(environment: home, installed: build) { answers[$0.joined(separator: " ")] }
        #expect(fromBuild.fix == "make install in chime's source tree, then systemctl --user daemon-reload && systemctl --user enable --now chime")
        #expect(
            Doctor.geoCluePermissionCheck(files: [base], hasDropInFolder: true, installed: build).fix
                == "from the source tree: sudo cp Config/geoclue-chime.conf /etc/geoclue/conf.d/90-chime.conf")
        for fix in [missing.fix, offline.fix, fromBuild.fix] { #expect(fix?.contains("Config/chime.service") == false) }
    }

    @Test func aPrefixUnderHomeHasItsUnitUnderShare() throws {
        let prefix = try installedPrefix(unitFolder: "share/systemd/user")
        #expect(Doctor.Installed(executable: prefix + "/bin/chime").unit == prefix + "/share/systemd/user/chime.service")
    }

    @Test func systemdWithoutAUserManagerIsAWarning() {
        let home = ["HOME": folder, "XDG_CONFIG_HOME": folder + "/config", "XDG_DATA_HOME": folder + "/data"]
        let offline = Doctor.systemdCheck(environment: home) { _ in (1, "Failed to connect to bus: No medium found") }
        #expect(offline.status == .warn)
        #expect(offline.detail == "no systemd user manager in this session; chime.service is not installed")
        let answers: [String: (Int32, String)] = [
            "is-system-running": (0, "running"), "cat chime.service": (0, "# \(folder)/config/systemd/user/chime.service\n[Unit]"),
            "is-enabled chime.service": (0, "enabled"), "is-active chime.service": (0, "active")
        ]
        let running = Doctor.systemdCheck(environment: home) { answers[$0.joined(separator: " ")] }
        #expect(running.status == .ok)
        #expect(running.detail == "\(folder)/config/systemd/user/chime.service: enabled, active")
        let stopped = Doctor.systemdCheck(environment: home) { args in
            args == ["is-active", "chime.service"] ? (3, "inactive") : answers[args.joined(separator: " ")]
        }
        #expect(stopped.status == .warn)
        #expect(stopped.fix?.hasPrefix("systemctl --user start chime") == true)
        let missing = Doctor.systemdCheck(environment: home) { args in
            args.first == "cat" ? (1, "No files found for chime.service.") : answers[args.joined(separator: " ")]
        }
        #expect(missing.detail == "chime.service is not installed")
    }

    @Test func oneListWrittenAsTextAndAsJSON() throws {
        let report = DoctorReport(checks: [
            DoctorCheck(name: "store", status: .ok, detail: "/s (--store)", fix: "ignored when ok"),
            DoctorCheck(name: "daemon", status: .warn, detail: "none", fix: "chime daemon")
        ])
        #expect(report.status == .warn)
        #expect(
            report.text == """
                ok    store   /s (--store)
                warn  daemon  none — fix: chime daemon
                warn: 0 failed, 1 warning, 1 ok

                """)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(report.json.utf8)) as? [String: Any])
        #expect(object["status"] as? String == "warn")
        let checks = try #require(object["checks"] as? [[String: Any]])
        #expect(checks.map { $0["name"] as? String } == ["store", "daemon"])
        #expect(checks[0]["fix"] is NSNull)
        #expect(checks[1]["fix"] as? String == "chime daemon")
        #expect(DoctorReport(checks: report.checks + [DoctorCheck(name: "zone", status: .fail, detail: "x")]).status == .fail)
    }

    /// In a language whose words are wide (Chinese), the status and name columns line up by the
    /// columns a terminal gives them, not by characters; the count line is translated with its plural.
    @Test func aTranslatedReportLinesUpByDisplayWidth() {
        let words: [String: String] = [
            "ok": "正常", "warn": "警告", "fail": "失败", "store": "存储", "daemon": "守护进程",
            "{status}: {failed} failed, {warnings}, {ok} ok": "{status}：{failed} 项失败，{warnings}，{ok} 项正常",
            " — fix: {command}": " — 修复：{command}"
        ]
        let chinese = Messages(
            language: "zh_CN.UTF-8", lookup: { text, _ in words[text] },
            plural: { singular, _, _ in singular == "{count} warning" ? "{count} 项警告" : nil })
        let report = DoctorReport(checks: [
            DoctorCheck(name: chinese("store", context: "doctor check"), status: .ok, detail: "/s (--store)"),
            DoctorCheck(name: chinese("daemon", context: "doctor check"), status: .warn, detail: "无", fix: "chime daemon")
        ])
        #expect(
            report.text(messages: chinese) == """
                正常  存储      /s (--store)
                警告  守护进程  无 — 修复：chime daemon
                警告：0 项失败，1 项警告，1 项正常

                """)
        // English stays as it was, byte for byte.
        #expect(report.text(messages: .english) == report.text)
    }

    @Test func syncAccountsAndSubscriptionsSayHowTheirLastSyncWent() {
        let now = Instant(secondsSince1970: 1_800_000_000)
        var good = SyncAccount(name: "home", url: "https://dav.example.org/", username: "ana", passwordCommand: "pass show dav")
        good.lastSync = now.adding(-300)
        var failing = good
        failing.name = "work"
        failing.lastError = "the server refused the password"
        let prompted = SyncAccount(name: "laptop", url: "https://dav.example.org/", username: "ana")
        var feed = CalendarSubscription(calendarIdentifier: "C", title: "Holidays", url: "webcal://example.org/h.ics", refreshSeconds: 3600)
        feed.lastError = "HTTP 404"
        let checks = Doctor.syncChecks(accounts: [good, failing, prompted], subscriptions: [feed], now: now)
        #expect(checks.map(\.status) == [.ok, .warn, .warn, .warn])
        #expect(checks[0].detail.hasSuffix("last synced 5 min ago"))
        #expect(checks[1].detail.contains("last sync failed: the server refused the password") && checks[1].fix == "chime account sync work")
        #expect(checks[2].detail.contains("daemon cannot sync it") && checks[2].fix?.contains("--password-command") == true)
        #expect(checks[3].fix == "chime calendar refresh \"Holidays\"")
        // A password in the Secret Service is one the daemon can use.
        let kept = Doctor.syncChecks(accounts: [prompted], subscriptions: [], now: now) { $0.name == "laptop" }
        #expect(kept.map(\.status) == [.warn] && kept[0].detail.hasSuffix("never synced"), "\(kept)")
        #expect(Doctor.syncChecks(accounts: [], subscriptions: [], now: now).map(\.status) == [.ok])
    }
}

/// `chime doctor` on the user's language: why Chime may still speak English.
@Suite struct DoctorLanguageTests {
    @Test func theLanguageCheckSaysWhyItIsEnglish() throws {
        let (catalogs, _) = CatalogSandbox.folders
        #expect(Doctor.languageCheck(environment: ["LANG": "C.UTF-8"], folder: catalogs).detail.hasPrefix("English"))
        let russian = Doctor.languageCheck(environment: ["LANG": "ru_RU.UTF-8"], folder: catalogs)
        #expect(russian.status == .ok && russian.detail.hasPrefix("ru_RU.UTF-8: messages and typed dates in this language"), "\(russian)")
        let missing = Doctor.languageCheck(environment: ["LANG": "xx_XX.UTF-8"], folder: catalogs)
        #expect(missing.status == .warn && missing.fix?.contains("dpkg-reconfigure locales") == true, "\(missing)")
        let noCatalog = Doctor.languageCheck(environment: ["LANG": "ru_RU.UTF-8"], folder: nil)
        #expect(noCatalog.status == .warn && noCatalog.fix?.contains("CHIME_LOCALEDIR") == true)
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("chime-no-catalogs-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: empty) }
        #expect(Doctor.languageCheck(environment: ["LANG": "de_DE.UTF-8"], folder: empty).detail.contains("not translated yet"))
    }
}
