import Foundation
import Glibc

// The soak's hostile D-Bus client. Each round gets a private session bus (dbus-daemon on a socket
// in the round's folder); the daemon takes its name there, and one thread calls the service, for
// as long as the writers run, with what an attacker or a broken app sends: windows no calendar
// holds, arguments that would make an error reply larger than the bus takes, an events-only app
// probing for reminder titles, a flood of access requests from fresh identities. Every call is a
// real `gdbus` process (copies and hard links of it are the apps' identities, as the service
// tells apps by their executable).

/// dbus-daemon on a socket of its own, stopped with ``stop()``.
struct PrivateSessionBus {
    let address: String
    let pid: pid_t

    static func start(folder: String) throws(DaemonBenchError) -> PrivateSessionBus {
        let socket = folder + "/bus"
        let address = "unix:path=" + socket
        unlink(socket)
        let printed = folder + "/bus.address"
        guard
            let pid = spawn(
                "/usr/bin/dbus-daemon",
                [
                    "--session", "--nofork", "--nopidfile", "--address=" + address,
                    "--print-address=1"
                ],
                environment: ProcessInfo.processInfo.environment, stdout: printed, stderr: folder + "/bus.log")
        else {
            throw DaemonBenchError("dbus-daemon could not be started (is the dbus-daemon package installed?)")
        }
        // Ready when it printed its address (it listens before it prints).
        let deadline = realtimeNanos() + 10_000_000_000
        while ((try? String(contentsOfFile: printed, encoding: .utf8)) ?? "").isEmpty {
            guard realtimeNanos() < deadline else {
                kill(pid, SIGTERM)
                _ = wait(pid)
                throw DaemonBenchError("dbus-daemon printed no address within 10 s")
            }
            usleep(10_000)
        }
        return PrivateSessionBus(address: address, pid: pid)
    }

    func stop() {
        kill(pid, SIGTERM)
        _ = wait(pid)
    }
}

enum HostileBusClient {
    static let name = "io.github.chime.Chime", path = "/io/github/chime/Chime1", interface = "io.github.chime.Chime1"

    /// What the client saw.
    struct Tally: Sendable {
        var calls = 0
        /// Refused as they should be (the answer named the reason).
        var refused = 0
        /// Answered, as they should be (the viewer's one-week window).
        var answered = 0
        /// Access requests, each by a new identity (hard links of one binary).
        var accessRequests = 0
        /// Answers that should not have been: a reminder's title to the events-only app, an
        /// error reply longer than 2 KB, a refused window answered, an ordinary call refused.
        var wrong: [String] = []
        var milliseconds: [Double] = []
    }

    /// The apps: `viewer` may read events, `stranger` nothing; `requester` is hard-linked under a
    /// new name for each access request.
    struct Apps {
        let viewer: String, stranger: String, requester: String, folder: String
    }

    static func prepare(folder: String, chime: String, environment: [String: String]) throws(DaemonBenchError) -> Apps {
        let apps = folder + "/apps"
        do {
            try FileManager.default.createDirectory(atPath: apps, withIntermediateDirectories: true)
            for app in ["viewer", "stranger", "requester"] {
                try? FileManager.default.removeItem(atPath: "\(apps)/\(app)")
                try FileManager.default.copyItem(atPath: "/usr/bin/gdbus", toPath: "\(apps)/\(app)")
            }
        } catch {
            throw DaemonBenchError("copying gdbus for the hostile client (is libglib2.0-bin installed?): \(error)")
        }
        let status = SoakBench.runToFiles(
            chime, ["access", "grant", "exe:\(apps)/viewer", "events"], environment: environment,
            stdout: folder + "/out/grant.out", stderr: folder + "/out/grant.err")
        guard status == 0 else { throw DaemonBenchError("chime access grant failed (status \(status))") }
        return Apps(viewer: "\(apps)/viewer", stranger: "\(apps)/stranger", requester: "\(apps)/requester", folder: apps)
    }

    /// Waits until the daemon owns its name on the bus.
    static func waitForName(environment: [String: String], timeout: Int) -> Bool {
        SoakBench.runToFiles(
            "/usr/bin/gdbus", ["wait", "--session", "--timeout", "\(timeout)", name], environment: environment,
            stdout: "/dev/null", stderr: "/dev/null") == 0
    }

    /// Calls until `stop` is set; `secrets` are texts (reminder titles) the events-only app must never read.
    static func run(apps: Apps, environment: [String: String], secrets: [String], stop: Locked<Bool>) -> Tally {
        var tally = Tally()
        let now = Int64(Date().timeIntervalSince1970)
        let huge = "X@" + String(repeating: "A", count: 120_000)
        var round = 0
        while !stop.value {
            let hex = Array("0123456789ABCDEF")[round % 16]
            // (app, method, arguments, expect refused, what a refusal must say)
            let calls: [(String, String, [String], Bool, String)] = [
                (apps.viewer, "Events", ["0", "9223372036854775000"], true, "InvalidArgs"),
                (apps.viewer, "Events", ["--", "-9223372036854775808", "9223372036854775807"], true, "InvalidArgs"),
                (apps.viewer, "Events", ["0", "40000000000"], true, "window too large"),
                (apps.stranger, "Snooze", [huge, "5m"], true, "Error"),
                (apps.stranger, "Item", [huge], true, "Error"),
                (apps.viewer, "Item", [String(hex)], true, "Error"),
                (apps.viewer, "Changes", ["0"], false, ""),
                (apps.viewer, "Dismiss", ["never-shown@20270101T090000Z#0"], true, "Error"),
                (apps.viewer, "Events", ["\(now)", "\(now + 7 * 86_400)"], false, "")
            ]
            for (app, method, arguments, refused, reason) in calls where !stop.value {
                let (ms, status, output) = call(app, method, arguments, environment: environment, folder: apps.folder)
                tally.calls += 1
                tally.milliseconds.append(ms)
                judge(
                    &tally, "\(method)(\(arguments.first.map { String($0.prefix(24)) } ?? ""))", status: status, output: output,
                    refused: refused, reason: reason, secrets: app == apps.viewer ? secrets : [])
            }
            // A fresh identity asks for access: the first few are prompted (no notification
            // server here, so the prompt fails), the rest are refused until the window passes.
            let identity = "\(apps.folder)/requester-\(round)"
            if link(apps.requester, identity) == 0 {
                let (ms, status, output) = call(identity, "RequestAccess", ["event"], environment: environment, folder: apps.folder)
                tally.calls += 1
                tally.accessRequests += 1
                tally.milliseconds.append(ms)
                if output.utf8.count > 2_000 { tally.wrong.append("RequestAccess: a reply of \(output.utf8.count) bytes") }
                if status == 0 && output.contains("authorized") && !output.contains("notDetermined") && !output.contains("denied") {
                    tally.wrong.append("RequestAccess granted without the user: \(output.prefix(120))")
                }
                unlink(identity)
            }
            round += 1
        }
        return tally
    }

    private static func judge(
        _ tally: inout Tally, _ what: String, status: Int32, output: String, refused: Bool, reason: String,
        secrets: [String]
    ) {
        if let secret = secrets.first(where: { output.contains($0) }) {
            tally.wrong.append("\(what): the events-only app read \"\(secret)\"")
        }
        if output.utf8.count > 2_000 && refused { tally.wrong.append("\(what): an error reply of \(output.utf8.count) bytes") }
        if refused {
            if status != 0 && output.contains(reason) {
                tally.refused += 1
            } else {
                tally.wrong.append("\(what): expected a refusal (\(reason)), got status \(status): \(output.prefix(160))")
            }
        } else if status == 0 {
            tally.answered += 1
        } else {
            tally.wrong.append("\(what): refused: \(output.prefix(160))")
        }
    }

    /// One `gdbus call` by the app at `app`: its duration, status and output (stdout and stderr).
    private static func call(
        _ app: String, _ method: String, _ arguments: [String], environment: [String: String],
        folder: String
    ) -> (Double, Int32, String) {
        let out = folder + "/call.out"
        let start = realtimeNanos()
        let status = SoakBench.runToFiles(
            app,
            [
                "call", "--session", "--timeout", "20", "--dest", name, "--object-path", path,
                "--method", "\(interface).\(method)"
            ] + arguments,
            environment: environment, stdout: out, stderr: out + ".err")
        let ms = Double(realtimeNanos() - start) / 1e6
        let output = ((try? String(contentsOfFile: out, encoding: .utf8)) ?? "") + ((try? String(contentsOfFile: out + ".err", encoding: .utf8)) ?? "")
        return (ms, status, output)
    }
}
