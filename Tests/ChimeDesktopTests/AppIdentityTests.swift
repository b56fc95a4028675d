import Foundation
import Testing
@testable import ChimeDesktop

/// How a D-Bus caller becomes the app its access decisions are kept under.
struct AppIdentityTests {
    @Test func aFlatpakAppIsItsAppIDWhateverItsUnitOrExecutable() {
        let info = "[Application]\nname=org.example.Planner\nruntime=runtime/org.gnome.Platform/x86_64/46\n\n[Instance]\ninstance-id=123\n"
        let app = AppIdentity.resolve(
            flatpakInfo: info, cgroup: "0::/user.slice/user-1000.slice/user@1000.service/app.slice/app-flatpak-org.example.Planner-4711.scope\n",
            executable: "/app/bin/planner")
        #expect(app?.id == "flatpak:org.example.Planner")
        #expect(app?.displayName == "org.example.Planner")
        // A [Runtime] group's name is not the app's.
        #expect(AppIdentity.flatpakAppID(fromInfo: "[Runtime]\nname=org.gnome.Platform\n") == nil)
    }

    @Test func anAppUnitLosesItsLaunchSpecificPart() {
        let base = "0::/user.slice/user-1000.slice/user@1000.service/app.slice/"
        #expect(AppIdentity.appUnit(fromCgroup: base + "app-gnome-org.gnome.Maps-4711.scope") == "app-gnome-org.gnome.Maps")
        #expect(AppIdentity.appUnit(fromCgroup: base + "app-org.example.Mail@8f3a2c.service") == "app-org.example.Mail")
        #expect(AppIdentity.appUnit(fromCgroup: base + "app-gnome-my\\x2dtool-99.scope") == "app-gnome-my-tool")
        // Units that say nothing about the app: a login session, a terminal's service, cgroup v1 only.
        #expect(AppIdentity.appUnit(fromCgroup: "0::/user.slice/user-1000.slice/session-3.scope") == nil)
        #expect(AppIdentity.appUnit(fromCgroup: base + "vte-spawn-1234.scope") == nil)
        #expect(AppIdentity.appUnit(fromCgroup: "12:pids:/user.slice\n") == nil)
    }

    @Test func otherwiseTheExecutableEvenAfterAnUpgradeReplacedIt() {
        #expect(AppIdentity.resolve(flatpakInfo: nil, cgroup: "0::/\n", executable: "/usr/bin/python3.11")?.id == "exe:/usr/bin/python3.11")
        #expect(AppIdentity.resolve(flatpakInfo: nil, cgroup: nil, executable: "/usr/bin/planner (deleted)")?.id == "exe:/usr/bin/planner")
        #expect(AppIdentity.resolve(flatpakInfo: nil, cgroup: nil, executable: nil) == nil)
        #expect(AppIdentity.resolve(flatpakInfo: nil, cgroup: nil, executable: "relative/path") == nil)
    }

    @Test func idsReadBackAsTheyArePrinted() {
        for text in ["flatpak:org.example.Planner", "unit:app-gnome-org.gnome.Maps", "exe:/usr/bin/python3.11"] {
            #expect(AppIdentity(id: text)?.id == text)
        }
        #expect(AppIdentity(id: "python3") == nil)
        #expect(AppIdentity(id: "exe:") == nil)
        #expect(AppIdentity(id: "snap:foo") == nil)
    }

    @Test func thisProcessIsKnownByItsExecutable() throws {
        let app = try #require(AppIdentity.ofProcess(UInt32(getpid())))
        #expect(app.source == .exe || app.source == .unit)
        if app.source == .exe { #expect(app.name == (try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))) }
    }

    /// A `/.flatpak-info` forged under a chroot in a user namespace of one's own was taken for
    /// `flatpak:org.gnome.Calendar`, and that name reached the consent prompt. It counts now only
    /// when the host's record of the instance (`$XDG_RUNTIME_DIR/.flatpak/ID/`) holds the same file;
    /// else the caller is its executable. (A fake `/proc` and runtime folder.)
    @Test func aFlatpakInfoCountsOnlyWhenTheHostsRecordOfTheInstanceHoldsIt() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("chime-identity-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let proc = root + "/proc", runtime = root + "/run", fm = FileManager.default
        try fm.createDirectory(atPath: proc + "/100/root", withIntermediateDirectories: true)
        try fm.createSymbolicLink(atPath: proc + "/100/exe", withDestinationPath: "/usr/bin/forger")
        let info = "[Application]\nname=org.gnome.Calendar\n\n[Instance]\ninstance-id=1234567\n"
        try info.write(toFile: proc + "/100/root/.flatpak-info", atomically: true, encoding: .utf8)
        func identity() -> String? { AppIdentity.ofProcess(100, proc: proc, runtimeDirectory: runtime)?.id }
        // No record of instance 1234567 on the host: forged.
        #expect(identity() == "exe:/usr/bin/forger")
        let record = runtime + "/.flatpak/1234567"
        try fm.createDirectory(atPath: record, withIntermediateDirectories: true)
        try #"{"child-pid": 200}"#.write(toFile: record + "/bwrapinfo.json", atomically: true, encoding: .utf8)
        // The host's record holds another app's file: forged too.
        try info.replacingOccurrences(of: "org.gnome.Calendar", with: "org.example.Other")
            .write(toFile: record + "/info", atomically: true, encoding: .utf8)
        #expect(identity() == "exe:/usr/bin/forger")
        // The same file: the sandbox Flatpak made.
        try info.write(toFile: record + "/info", atomically: true, encoding: .utf8)
        #expect(identity() == "flatpak:org.gnome.Calendar")
        // An instance ID that climbs out of the runtime folder is no instance.
        try info.replacingOccurrences(of: "1234567", with: "../../x").write(toFile: proc + "/100/root/.flatpak-info", atomically: true, encoding: .utf8)
        #expect(identity() == "exe:/usr/bin/forger")
        // A FIFO planted as the info file is not read (it would block the bus thread).
        try fm.removeItem(atPath: proc + "/100/root/.flatpak-info")
        #expect(mkfifo(proc + "/100/root/.flatpak-info", 0o600) == 0)
        #expect(identity() == "exe:/usr/bin/forger")
    }
}
