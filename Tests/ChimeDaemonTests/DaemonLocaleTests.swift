import ChimeDaemon
import Synchronization
import Testing

@testable import ChimeDaemon

/// Which environment decides the daemon's language (the test against a real notification server
/// and a stand-in user manager is in DesktopDaemonTests).
struct DaemonLocaleTests {
    @Test func aDaemonStartedInATerminalKeepsItsOwnLanguageAndNeverAsksTheManager() {
        let asked = Mutex(0)
        let locale = DaemonLocale(environment: ["LANG": "de_DE.UTF-8"]) {
            asked.withLock { $0 += 1 }
            return ["LANG": "ru_RU.UTF-8"]
        }
        _ = locale.messages()
        #expect(asked.withLock { $0 } == 0)
    }

    @Test func aDaemonTheManagerStartedFollowsTheManagersLocaleVariables() {
        let asked = Mutex(0)
        let locale = DaemonLocale(environment: ["LANG": "de_DE.UTF-8", "INVOCATION_ID": "1"]) {
            asked.withLock { $0 += 1 }
            return nil
        }
        _ = locale.messages()
        _ = locale.messages()
        #expect(asked.withLock { $0 } == 2, "asked for each batch of notifications")
        let own = ["LANG": "de_DE.UTF-8", "HOME": "/home/ann", "LC_TIME": "en_GB.UTF-8"]
        #expect(DaemonLocale.variables(own: own, manager: nil) == ["LANG": "de_DE.UTF-8", "LC_TIME": "en_GB.UTF-8"])
        #expect(
            DaemonLocale.variables(own: own, manager: ["LANG": "ru_RU.UTF-8", "PATH": "/usr/bin"]) == ["LANG": "ru_RU.UTF-8"],
            "a variable the manager no longer has is gone here too")
    }
}
