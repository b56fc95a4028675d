import Foundation
import Glibc
import Testing

/// What the suites that drive the harness's real services (Tests/harness/with-services.sh, which
/// `make test` runs) share: the sandbox folder, a shell, and polling.
enum ServiceSandbox {
    /// The sandbox folder; records an issue (a failure, not a skip) when the test runs outside it.
    static func folder(sourceLocation: SourceLocation = #_sourceLocation) -> String? {
        let environment = ProcessInfo.processInfo.environment
        guard environment["CHIME_TEST_SERVICES"] == "1", let run = environment["SVC_RUN"] else {
            Issue.record("no services sandbox: run under Tests/harness/with-services.sh (make test does)", sourceLocation: sourceLocation)
            return nil
        }
        return run
    }

    /// `command` through /bin/sh with the test's environment (TZ pinned to UTC), stdout and stderr together.
    static func shell(_ command: String) -> (status: Int32, output: String) {
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
    static func poll(_ timeout: Double, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition() { return true }
            usleep(50_000)
        }
        return condition()
    }
}
