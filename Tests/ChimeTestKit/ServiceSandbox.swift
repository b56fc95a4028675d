import Foundation
import Glibc
import Testing

/// The desktop-services sandbox started by `Tests/harness/with-services.sh` (`make test` runs every
/// test inside it): dunst under Xvfb on a private session bus, GeoClue2 on a private system bus,
/// the CalDAV servers. Seen from a test: its run directory, a shell, `dunstctl`, the log dunst's
/// rule script writes for every notification, and polling.
///
/// ```swift
/// guard let sandbox = ServiceSandbox.current() else { return }   // records an issue outside the sandbox
/// try sandbox.dunstctl("close-all")
/// let fields = try await sandbox.loggedNotification(summary: "Dentist")   // ["urgency": "CRITICAL", …]
/// ```
public struct ServiceSandbox: Sendable {
    public let runDirectory: String

    /// The sandbox of this test run, or nil after recording an issue (a failure, not a skip):
    /// without the services these tests cannot check anything, and a skipped check must not pass
    /// silently.
    public static func current(sourceLocation: SourceLocation = #_sourceLocation) -> ServiceSandbox? {
        let environment = ProcessInfo.processInfo.environment
        guard environment["CHIME_TEST_SERVICES"] == "1", let run = environment["SVC_RUN"], !run.isEmpty else {
            Issue.record(
                """
                needs the desktop-services sandbox (dunst on a private session bus): \
                run under Tests/harness/with-services.sh (make test does this)
                """, sourceLocation: sourceLocation)
            return nil
        }
        return ServiceSandbox(runDirectory: run)
    }

    /// The sandbox's run directory, or nil after recording an issue (see ``current(sourceLocation:)``).
    public static func folder(sourceLocation: SourceLocation = #_sourceLocation) -> String? {
        current(sourceLocation: sourceLocation)?.runDirectory
    }

    /// `command` through /bin/sh with the test's environment (TZ pinned to UTC), stdout and stderr together.
    public static func shell(_ command: String) -> (status: Int32, output: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", command]
        var env = ProcessInfo.processInfo.environment
        env["TZ"] = "UTC"
        p.environment = env
        let out = Pipe()
        p.standardOutput = out
        p.standardError = out
        try? p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// Polls every 50 ms until `condition` holds or `timeout` seconds pass.
    public static func poll(_ timeout: Double, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition() { return true }
            usleep(50_000)
        }
        return condition()
    }

    /// Picks the line containing `text` (e.g. `[3,complete]`) in dunst's context menu: asks the fake
    /// dmenu for it, then opens the menu until one has picked it, since dunst lists a notification only
    /// once it is on screen and opens the menu on its own thread after `dunstctl context` returns. The
    /// choice is made once (see Tests/harness/fake-dmenu.sh): a menu still opening afterwards picks
    /// nothing. Returns whether a menu picked it within `timeout` seconds.
    public static func pickInContextMenu(_ text: String, run: String, timeout: Double = 20) -> Bool {
        let menuLog = run + "/dmenu-input.log", choice = run + "/dmenu-choice"
        let before = (try? Data(contentsOf: URL(fileURLWithPath: menuLog)))?.count ?? 0
        func picked() -> Bool {
            let log = (try? Data(contentsOf: URL(fileURLWithPath: menuLog))) ?? Data()
            return String(decoding: log.dropFirst(before), as: UTF8.self).split(separator: "\n").contains {
                $0.hasPrefix("=> ") && $0.contains(text)
            }
        }
        guard (try? text.write(toFile: choice, atomically: true, encoding: .utf8)) != nil else { return false }
        defer {
            // Withdrawn: first a copy a menu holds (so that it cannot put it back), then the choice.
            let folder = (choice as NSString).deletingLastPathComponent
            for held in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where held.hasPrefix("dmenu-choice.") {
                try? FileManager.default.removeItem(atPath: folder + "/" + held)
            }
            try? FileManager.default.removeItem(atPath: choice)
        }
        return poll(timeout) {
            if picked() { return true }
            if FileManager.default.fileExists(atPath: choice) { _ = shell("dunstctl context") }
            return poll(1, picked)
        }
    }

    /// Runs `dunstctl ARGS…` and returns its standard output; throws when it exits non-zero.
    @discardableResult
    public func dunstctl(_ arguments: String...) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["dunstctl"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard process.terminationStatus == 0 else {
            throw SandboxError("dunstctl \(arguments.joined(separator: " ")) exited \(process.terminationStatus): \(text)")
        }
        return text
    }

    /// How many notifications dunst shows now.
    public func displayedCount() throws -> Int {
        let text = try dunstctl("count", "displayed").trimmingCharacters(in: .whitespacesAndNewlines)
        guard let count = Int(text) else { throw SandboxError("dunstctl count displayed printed \(text)") }
        return count
    }

    /// The fields dunst's rule script logged for the notification with this summary (`app`,
    /// `urgency`, `summary`, `body`, `category`, `timeout`, `desktop_entry`, `icon` (the file dunst
    /// found for the icon name); newlines in texts as `\n`), polled until `timeout` because dunst
    /// runs the script asynchronously.
    public func loggedNotification(summary: String, timeout: Duration = .seconds(10)) async throws -> [String: String]? {
        var found: [String: String]?
        _ = try await ChimeTestKit.poll(timeout: timeout) {
            let log = (try? String(contentsOfFile: runDirectory + "/notifications.log", encoding: .utf8)) ?? ""
            found = log.split(separator: "\n").lazy.map(Self.fields).first { $0["summary"] == summary }
            return found != nil
        }
        return found
    }

    private static func fields(_ line: Substring) -> [String: String] {
        var fields: [String: String] = [:]
        for field in line.split(separator: "\t", omittingEmptySubsequences: false) {
            guard let equals = field.firstIndex(of: "=") else { continue }
            fields[String(field[..<equals])] = String(field[field.index(after: equals)...])
        }
        return fields
    }
}

public struct SandboxError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// Checks `condition` every 50 ms until it holds or `timeout` passes; returns whether it held.
/// Generous timeouts: the machine running the tests may be busy.
public func poll(timeout: Duration = .seconds(10), _ condition: () throws -> Bool) async throws -> Bool {
    let deadline = ContinuousClock.now + timeout
    while true {
        if try condition() { return true }
        if ContinuousClock.now >= deadline { return false }
        try await Task.sleep(for: .milliseconds(50))
    }
}
