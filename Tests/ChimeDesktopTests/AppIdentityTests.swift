import Foundation
import Testing
@testable import ChimeDesktop

/// How a D-Bus caller becomes the app its access decisions are kept under.
struct AppIdentityTests {
    @Test func aFlatpakAppIsItsAppIDWhateverItsUnitOrExecutable() {
        let info = "[Application]\nname=org.example.Planner\nruntime=runtime/org.gnome.Platform/x86_64/46\n\n[Instance]\ninstance-id=123\n"
        let app = AppIdentity.resolve(flatpakInfo: info, cgroup: "0::/user.slice/user-1000.slice/user@1000.service/app.slice/app-flatpak-org.example.Planner-4711.scope\n",
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
}
