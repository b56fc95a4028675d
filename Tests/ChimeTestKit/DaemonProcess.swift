import Foundation
import Glibc
import Testing

/// A `chime daemon` child process with its output in files (so a test can kill -9 it and still
/// read what it printed).
public final class DaemonProcess {
    public let process = Process()
    public let stdoutPath: String
    public let stderrPath: String

    /// `executable`: run this instead of `chime daemon --store STORE` (a wrapper such as `unshare`),
    /// with `arguments` as they are; `unset`: variables removed from the environment.
    public init(
        store: String, executable: String? = nil, arguments: [String] = ["--notifier", "stdout"],
        environment: [String: String] = [:], unset: [String] = [], folder: String, name: String = "daemon"
    ) throws {
        stdoutPath = folder + "/\(name).out"
        stderrPath = folder + "/\(name).err"
        FileManager.default.createFile(atPath: stdoutPath, contents: nil)
        FileManager.default.createFile(atPath: stderrPath, contents: nil)
        process.executableURL = executable.map { URL(fileURLWithPath: $0) } ?? CLI.binary
        process.arguments = executable == nil ? ["daemon", "--store", store] + arguments : arguments
        var env = ProcessInfo.processInfo.environment
        env["TZ"] = "UTC"
        env["XDG_CONFIG_HOME"] = folder + "/config"  // never the developer's own config
        for (k, v) in environment { env[k] = v }
        for k in unset { env[k] = nil }
        process.environment = env
        process.standardOutput = FileHandle(forWritingAtPath: stdoutPath)
        process.standardError = FileHandle(forWritingAtPath: stderrPath)
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    public var stdoutLines: [String] {
        ((try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    public var stderrText: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

    /// Parsed JSON lines of the stdout sink.
    public var notifications: [[String: Any]] {
        stdoutLines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    /// Polls (every 20 ms, up to `timeout` seconds) until `condition` holds; false on timeout.
    @discardableResult
    public func wait(timeout: Double, until condition: (DaemonProcess) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition(self) { return true }
            if !process.isRunning { return condition(self) }
            usleep(20_000)
        }
        return condition(self)
    }

    public func signal(_ number: Int32) { kill(process.processIdentifier, number) }

    /// Sends `number` and waits for the exit; returns the exit status (or 128+signal).
    @discardableResult
    public func stop(_ number: Int32 = SIGTERM, timeout: Double = 10) -> Int32 {
        if process.isRunning { signal(number) }
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }
        return process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
    }
}
