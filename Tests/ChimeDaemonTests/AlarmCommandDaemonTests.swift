import ChimeCore
import ChimeDaemon
import ChimeScheduler
import Foundation
import Glibc
import Logging
import Synchronization
import ChimeTestKit
import Testing

/// Command alarms end to end: `chime add --alarm-command`, the `[commands]` allow-list in the
/// user's config, and a real `chime daemon` that runs the allowed command (no shell of its own,
/// `CHIME_*` in its environment, output in the log) at the alarm time and refuses the other.
@Suite("alarm commands", .serialized)
struct AlarmCommandDaemonTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chime-command-\(UUID().uuidString)").path
    var storePath: String { folder + "/chime.sqlite" }
    var environment: [String: String] { ["XDG_CONFIG_HOME": folder + "/config"] }

    func writeConfig(_ text: String) throws {
        try FileManager.default.createDirectory(atPath: folder + "/config/chime", withIntermediateDirectories: true)
        try text.write(toFile: folder + "/config/chime/config.toml", atomically: true, encoding: .utf8)
    }

    @Test func theDaemonRunsAnAllowedCommandAtTheAlarmTimeAndRefusesAnother() throws {
        let out = folder + "/ran.txt"
        // The user's own config: /bin/sh here is the user's choice of program, given its arguments as written.
        try writeConfig(
            """
            [commands]
            write-file = ["/bin/sh", "-c", "date +%s.%N > '\(out).time'; printf '%s|%s|%s' \\"$CHIME_TITLE\\" \\"$CHIME_ITEM\\" \\"$CHIME_START\\" > '\(out)'; echo hello from the command"]
            """)
        let fire = DaemonTests.inSeconds(4)
        let allowed = try CLI.run(
            [
                "add", "event", "Back up; rm -rf ~", "--store", storePath, "--start", fire.description,
                "--alarm", fire.description, "--alarm-command", "write-file"
            ], environment: environment)
        #expect(allowed.status == 0, "\(allowed.stderr)")
        #expect(allowed.stderr.isEmpty, "the name is in the config: no note")
        let id = try #require(allowed.stdout.split(separator: "\n").last { $0.hasPrefix("ID ") }.map { String($0.dropFirst(3)) })
        let refused = try CLI.run(
            [
                "add", "event", "Wipe", "--store", storePath, "--start", fire.description,
                "--alarm", fire.description, "--alarm-command", "wipe"
            ], environment: environment)
        #expect(refused.status == 0, "\(refused.stderr)")
        #expect(refused.stderr.contains("the daemon will refuse --alarm-command wipe until"), "\(refused.stderr)")
        let shown = try CLI.run(["show", id, "--store", storePath], environment: environment)
        #expect(shown.stdout.contains("Command:   write-file (from [commands] in config.toml"), "\(shown.stdout)")
        // The command is the user's local choice: export never writes it out.
        let exported = try CLI.run(["export", "--store", storePath], environment: environment)
        #expect(exported.status == 0 && !exported.stdout.contains("write-file") && !exported.stdout.contains("PROCEDURE"))

        let daemon = try DaemonProcess(store: storePath, environment: environment, folder: folder)
        let done = daemon.wait(timeout: 30) {
            $0.notifications.count >= 2 && $0.stderrText.contains("the alarm's command finished")
                && $0.stderrText.contains("refused to run the alarm's command")
        }
        #expect(daemon.stop() == 0)
        #expect(done, "daemon output: \(daemon.stdoutLines)\n\(daemon.stderrText)")
        #expect(Set(daemon.notifications.compactMap { $0["title"] as? String }) == ["Back up; rm -rf ~", "Wipe"])
        #expect((try? String(contentsOfFile: out, encoding: .utf8)) == "Back up; rm -rf ~|\(id)|\(fire)")
        // The command's own clock reading (a file's mtime comes from the kernel's coarse clock, a few ms behind).
        let ranAtSeconds =
            Double(
                ((try? String(contentsOfFile: out + ".time", encoding: .utf8)) ?? "0")
                    .trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        #expect(
            ranAtSeconds >= Double(fire.secondsSince1970) && ranAtSeconds < Double(fire.secondsSince1970) + 2,
            "ran at \(ranAtSeconds), alarm at \(fire.secondsSince1970)")
        #expect(daemon.stderrText.contains("hello from the command"), "output goes to the log: \(daemon.stderrText)")
        #expect(daemon.stderrText.contains("no command \"wipe\" in [commands] of config.toml (allowed: write-file)"), "\(daemon.stderrText)")
    }

    @Test func badCommandTablesStopTheStartNamingTheKey() throws {
        let cases: [(String, String)] = [
            ("[commands]\nx = \"/bin/true\"", "commands.x: must be a list"),
            ("[commands]\nx = []", "commands.x: must be a list"),
            ("[commands]\nx = [\"true\"]", "commands.x[0]: must be an absolute path (no PATH search), not \"true\""),
            ("[commands]\nx = [\"/bin/echo\", 3]", "commands.x[1]: must be a string"),
            ("[commands]\n\"a b\" = [\"/bin/true\"]", "commands.a b: a command name is letters, digits, - and _"),
            ("commands = 3", "commands must be a section"),
            ("[notifications]\nsound = \"../../x\"", "notifications.sound: must be a sound-theme name"),
            ("[alarms]\ncommand_timeout_seconds = 0", "alarms.command_timeout_seconds: must be 1…86400, not 0")
        ]
        for (text, message) in cases {
            #expect(throws: ConfigurationError.self) { try DaemonConfiguration.parse(text, file: "c.toml") }
            do { _ = try DaemonConfiguration.parse(text, file: "c.toml") } catch {
                #expect(error.description.contains(message), "\(text): \(error)")
            }
        }
        let good = try DaemonConfiguration.parse(
            """
            [alarms]
            command_timeout_seconds = 5
            [notifications]
            sound = "bell"
            sound_always = true
            [commands]
            backup = ["/usr/bin/rsync", "-a", "/home/me/", "/mnt/b/"]
            """, file: "c.toml")
        #expect(good.scheduler.commands == AlarmCommands(commands: ["backup": ["/usr/bin/rsync", "-a", "/home/me/", "/mnt/b/"]], timeoutSeconds: 5))
        #expect(good.scheduler.sounds == AlarmSounds(name: "bell", always: true))
    }

    @Test func theCLIRefusesBadNames() throws {
        let bad = try CLI.run(
            ["add", "event", "X", "--store", storePath, "--start", "tomorrow 9:00", "--alarm-command", "/bin/rm"],
            environment: environment)
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("--alarm-command: \"/bin/rm\" is not a command name"), "\(bad.stderr)")
        let sound = try CLI.run(
            ["add", "event", "X", "--store", storePath, "--start", "tomorrow 9:00", "--sound", "/etc/passwd"],
            environment: environment)
        #expect(sound.status != 0)
        #expect(sound.stderr.contains("--sound: \"/etc/passwd\" is not a sound-theme name"), "\(sound.stderr)")
    }
}

/// The runner itself: a time limit that stops the command and its children, and exit statuses.
@Suite struct SpawnedCommandRunnerTests {
    final class Outcomes: Sendable {
        let list = Mutex<[SpawnedCommandRunner.Outcome]>([])
        func wait(for count: Int, timeout: Double) -> [SpawnedCommandRunner.Outcome] {
            let deadline = Date().addingTimeInterval(timeout)
            while Date() < deadline && list.withLock({ $0.count }) < count { usleep(20_000) }
            return list.withLock { $0 }
        }
    }

    func runner(_ outcomes: Outcomes) -> SpawnedCommandRunner {
        SpawnedCommandRunner(logger: Logger(label: "test")) { _, outcome in outcomes.list.withLock { $0.append(outcome) } }
    }

    @Test func aCommandPastItsTimeLimitIsStoppedWithItsChildren() throws {
        let outcomes = Outcomes()
        let started = Date()
        try runner(outcomes).start(
            CommandRequest(
                name: "slow", argv: ["/bin/sh", "-c", "sleep 30 & sleep 30"],
                environment: [:], timeoutSeconds: 1))
        #expect(outcomes.wait(for: 1, timeout: 10) == [.timedOut])
        #expect(Date().timeIntervalSince(started) < 5)
    }

    @Test func exitStatusesAreReported() throws {
        let outcomes = Outcomes()
        let r = runner(outcomes)
        try r.start(CommandRequest(name: "fails", argv: ["/bin/sh", "-c", "exit 3"], environment: [:], timeoutSeconds: 10))
        #expect(outcomes.wait(for: 1, timeout: 10) == [.exited(3)])
        try r.start(CommandRequest(name: "ok", argv: ["/bin/true"], environment: [:], timeoutSeconds: 10))
        #expect(outcomes.wait(for: 2, timeout: 10) == [.exited(3), .exited(0)])
    }

    @Test func aMissingProgramIsAnErrorAtOnce() {
        #expect(throws: CommandError.self) {
            try runner(Outcomes()).start(CommandRequest(name: "gone", argv: ["/nonexistent/tool"], environment: [:], timeoutSeconds: 1))
        }
        #expect(throws: CommandError.self) {
            try runner(Outcomes()).start(CommandRequest(name: "relative", argv: ["true"], environment: [:], timeoutSeconds: 1))
        }
    }
}
