import Foundation
import Testing

/// Runs the built `chime` binary end to end, as users and scripts do.
public struct CLIResult: Sendable {
    public let status: Int32
    public let stdout: String
    public let stderr: String

    public init(status: Int32, stdout: String, stderr: String) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
    }
}

public enum CLI {
    /// Splits a line the way a POSIX shell does for the quoting help examples and the README use
    /// (single and double quotes, spaces between words).
    public static func shellWords(_ line: String) -> [String] {
        var words: [String] = [], word = "", quote: Character?, inWord = false
        for c in line {
            if let q = quote {
                if c == q { quote = nil } else { word.append(c) }
            } else if c == "\"" || c == "'" {
                quote = c
                inWord = true
            } else if c == " " {
                if inWord { words.append(word); word = ""; inWord = false }
            } else {
                word.append(c)
                inWord = true
            }
        }
        if inWord { words.append(word) }
        return words
    }

    /// The `chime` built next to this test bundle (or `$CHIME_BIN`).
    public static var binary: URL {
        if let path = ProcessInfo.processInfo.environment["CHIME_BIN"] { return URL(fileURLWithPath: path) }
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        if dir.pathExtension == "xctest" { dir = dir.deletingLastPathComponent() }
        return dir.appendingPathComponent("chime")
    }

    /// `executable`: run this instead of `chime` (a wrapper such as `unshare`), with `arguments` as they are.
    public static func run(
        _ arguments: [String], stdin: String? = nil, environment: [String: String] = [:],
        executable: String? = nil
    ) throws -> CLIResult {
        let process = Process()
        process.executableURL = executable.map { URL(fileURLWithPath: $0) } ?? binary
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["TZ"] = "UTC"  // floating times follow the system zone: pin it
        env["COLUMNS"] = "100"
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        let stdoutData = out.fileHandleForReading.readDataToEndOfFile()
        let stderrData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CLIResult(
            status: process.terminationStatus, stdout: String(decoding: stdoutData, as: UTF8.self),
            stderr: String(decoding: stderrData, as: UTF8.self))
    }
}
