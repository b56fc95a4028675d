import Foundation
import Glibc
import ChimeTestKit
import Testing

/// gnome-keyring-daemon's Secret Service on a private bus, its login keyring created and unlocked
/// with a password given on standard input (as a desktop login does), in the bus's folder.
final class GnomeKeyring: @unchecked Sendable {
    let bus: PrivateSessionBus
    private let daemon = Process()
    let log: String

    init(on bus: PrivateSessionBus) throws {
        self.bus = bus
        log = bus.folder + "/gnome-keyring.log"
        FileManager.default.createFile(atPath: log, contents: nil)
        try FileManager.default.createDirectory(atPath: bus.folder + "/data", withIntermediateDirectories: true)
        daemon.executableURL = URL(fileURLWithPath: "/usr/bin/gnome-keyring-daemon")
        daemon.arguments = ["--unlock", "--components=secrets", "--foreground"]
        daemon.environment = ProcessInfo.processInfo.environment.merging(bus.environment) { $1 }
        let input = Pipe()
        daemon.standardInput = input
        daemon.standardOutput = FileHandle(forWritingAtPath: log)
        daemon.standardError = FileHandle(forWritingAtPath: log)
        try daemon.run()
        input.fileHandleForWriting.write(Data("keyring-unlock-password".utf8))
        try input.fileHandleForWriting.close()
        guard ServiceSandbox.poll(20, { bus.hasOwner("org.freedesktop.secrets") }) else {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            throw CLIFailure("gnome-keyring-daemon did not come up on the bus: \(text)")
        }
    }

    /// `secret-tool lookup` of Chime's entry for `account`: the password, or nil (exit 1).
    func lookup(account: String) -> String? {
        let r = ServiceSandbox.shell(environment + " secret-tool lookup xdg:schema io.github.chime.CalDAV account '\(account)'")
        return r.status == 0 ? r.output : nil
    }

    private var environment: String { "env " + bus.environment.map { "\($0.key)='\($0.value)'" }.joined(separator: " ") }

    deinit {
        if daemon.isRunning { kill(daemon.processIdentifier, SIGKILL); daemon.waitUntilExit() }
    }
}

/// `chime account add` keeps a password typed (or given on standard input) in the desktop's
/// Secret Service (a real gnome-keyring on a bus of the test's own), `account sync` finds it
/// there, `account remove` clears it; with no Secret Service, add refuses plain text, quickly.
/// Under `make test` (CHIME_TEST_SERVICES) these run, and fail without gnome-keyring or Radicale.
@Suite("Secret Service (gnome-keyring) for CalDAV passwords", .enabled(if: CalDAVHome.available))
struct SecretServiceTests {
    func session(on bus: PrivateSessionBus) -> (StoreSession, [String: String]) {
        let s = StoreSession()
        return (s, s.environment.merging(bus.environment) { $1 })
    }

    @Test func aPasswordGivenToAddIsKeptInTheKeyringUsedBySyncAndClearedByRemove() throws {
        let bus = try PrivateSessionBus()
        let keyring = try GnomeKeyring(on: bus)
        let home = try CalDAVHome.claim()
        let (s, env) = session(on: bus)
        // No terminal to ask on (standard input is a pipe) and no --password-stdin: nothing is read.
        let unasked = try CLI.run(
            ["account", "add", "home", "--url", home.url, "--user", home.user],
            stdin: home.password + "\n", environment: env)
        #expect(unasked.status != 0 && unasked.stderr.contains("--password-stdin"), "\(unasked.stderr)")
        let added = try CLI.run(
            ["account", "add", "home", "--url", home.url, "--user", home.user, "--password-stdin"],
            stdin: home.password + "\n", environment: env)
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout.contains("Password stored in the Secret Service (schema io.github.chime.CalDAV, account home)"), "\(added.stdout)")
        #expect(keyring.lookup(account: "home") == home.password)
        // Nowhere in the store's files (the database, its WAL, the journal).
        let folder = (s.path as NSString).deletingLastPathComponent
        for file in try FileManager.default.contentsOfDirectory(atPath: folder) {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + file))
            #expect(bytes.range(of: Data(home.password.utf8)) == nil, "the password is in \(file)")
        }

        // No password command, no terminal (standard input is a pipe): only the keyring has it.
        let synced = try CLI.run(["account", "sync"], environment: env)
        #expect(synced.status == 0, "\(synced.stderr)")
        #expect(synced.stdout.contains("home: "), "\(synced.stdout)")

        let removed = try CLI.run(["account", "remove", "home"], environment: env)
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(removed.stdout.contains("Its password was cleared from the Secret Service."), "\(removed.stdout)")
        #expect(keyring.lookup(account: "home") == nil)
    }

    @Test func aSyncWithoutTheKeyringEntrySaysSoAndNeverPrompts() throws {
        let bus = try PrivateSessionBus()
        let keyring = try GnomeKeyring(on: bus)
        let home = try CalDAVHome.claim()
        let (_, env) = session(on: bus)
        let added = try CLI.run(
            ["account", "add", "home", "--url", home.url, "--user", home.user, "--password-stdin"],
            stdin: home.password + "\n", environment: env)
        #expect(added.status == 0, "\(added.stderr)")
        // The entry removed behind Chime's back (as a keyring manager would).
        let cleared = ServiceSandbox.shell("env DBUS_SESSION_BUS_ADDRESS='\(bus.address)' secret-tool clear xdg:schema io.github.chime.CalDAV account home")
        #expect(cleared.status == 0, "\(cleared.output)")
        #expect(keyring.lookup(account: "home") == nil)
        let synced = try CLI.run(["account", "sync", "home"], environment: env)
        #expect(synced.status != 0)
        #expect(synced.stderr.contains("no password for it in the Secret Service"), "\(synced.stderr)")
    }

    @Test func aPasswordCommandIsRunAndNothingIsKeptInTheKeyring() throws {
        let bus = try PrivateSessionBus()
        let keyring = try GnomeKeyring(on: bus)
        let home = try CalDAVHome.claim()
        let (_, env) = session(on: bus)
        let added = try CLI.run(
            [
                "account", "add", "home", "--url", home.url, "--user", home.user,
                "--password-command", "echo \(home.password)"
            ], environment: env)
        #expect(added.status == 0, "\(added.stderr)")
        #expect(!added.stdout.contains("Secret Service"), "\(added.stdout)")
        #expect(keyring.lookup(account: "home") == nil)
    }

    /// `account add` with the password on stdin, and how long it took.
    private func timedAdd(_ home: CalDAVHome, environment: [String: String]) throws -> (CLIResult, seconds: Double) {
        let started = Date()
        let added = try CLI.run(
            ["account", "add", "home", "--url", home.url, "--user", home.user, "--password-stdin"],
            stdin: home.password + "\n", environment: environment)
        return (added, Date().timeIntervalSince(started))
    }

    /// With nothing on the bus, dbus-daemon answers at once that no one provides the name.
    @Test func withNoSecretServiceAddRefusesPlainTextAtOnceAndKeepsNothing() throws {
        let bus = try PrivateSessionBus()
        let home = try CalDAVHome.claim()
        let (s, env) = session(on: bus)
        let (added, seconds) = try timedAdd(home, environment: env)
        #expect(added.status != 0)
        #expect(added.stderr.contains("no Secret Service"), "\(added.stderr)")
        #expect(added.stderr.contains("does not keep passwords in plain text"), "\(added.stderr)")
        #expect(added.stderr.contains("--password-command"), "\(added.stderr)")
        // 0.04–0.09 s when measured on an idle machine; the bound leaves room for a loaded one.
        #expect(seconds < 3, "took \(seconds) s")
        let list = try s.run("account", "list")
        #expect(!list.stdout.contains("home"), "\(list.stdout)")
    }

    /// A Secret Service that is activatable but never comes up (here `sleep`): dbus-daemon would
    /// wait 25 s for it; Chime gives up after its own 5 s bound.
    @Test func aSecretServiceThatNeverStartsIsGivenUpOnWithinTheBound() throws {
        let bus = try PrivateSessionBus(activatable: ["org.freedesktop.secrets": "/bin/sleep 60"])
        let home = try CalDAVHome.claim()
        let (_, env) = session(on: bus)
        let (added, seconds) = try timedAdd(home, environment: env)
        #expect(added.status != 0)
        #expect(added.stderr.contains("no Secret Service: Timeout was reached"), "\(added.stderr)")
        // 5.06 s when measured (the start bound); well under dbus-daemon's 25 s.
        #expect(seconds >= 4.5 && seconds < 12, "took \(seconds) s")
    }
}
