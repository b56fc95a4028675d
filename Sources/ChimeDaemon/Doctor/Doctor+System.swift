import ChimeCore
import ChimeStore
import Foundation
import Glibc

extension Doctor {
    /// Where systemd looks for a user unit named chime.service, besides what `systemctl --user cat` finds.
    static func unitFolders(environment: [String: String]) -> [String] {
        let home = environment["HOME"] ?? NSHomeDirectory()
        let config = environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? home + "/.config"
        let data = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? home + "/.local/share"
        return [
            config + "/systemd/user", data + "/systemd/user", "/etc/systemd/user", "/usr/lib/systemd/user",
            "/usr/local/lib/systemd/user"
        ]
    }

    /// The systemd user unit: installed, enabled, running. `run` runs `systemctl --user ARGS`
    /// (status and output, nil when it could not run or timed out); `installed` says where
    /// `make install` put the unit, which the fix names when systemd does not know it.
    public static func systemdCheck(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        installed: Installed = .running(), messages: Messages = .english,
        run: (_ arguments: [String]) -> (status: Int32, output: String)?
    ) -> DoctorCheck {
        let name = messages("systemd unit", context: "doctor check")
        let unitInstall = unitInstall(installed, messages: messages)
        let file = unitFolders(environment: environment).map { $0 + "/chime.service" }
            .first { FileManager.default.fileExists(atPath: $0) }
        // `is-system-running` names a state whenever a user manager answers ("running", "degraded", …);
        // without one it fails ("Failed to connect to bus: No medium found").
        let states: Set<String> = ["initializing", "starting", "running", "degraded", "maintenance", "stopping"]
        guard let manager = run(["is-system-running"]), states.contains(manager.output) else {
            return DoctorCheck(
                name: name, status: .warn,
                detail: file.map { messages("no systemd user manager in this session; chime.service is installed ({file})", ["file": $0]) }
                    ?? messages("no systemd user manager in this session; chime.service is not installed"),
                fix: file == nil
                    ? messages("run chime daemon from your session's autostart, or in a systemd session: {command}", ["command": unitInstall])
                    : messages("run chime daemon from your session's autostart, or log in to a systemd session"))
        }
        let found = run(["cat", "chime.service"])
        let source =
            found.flatMap { $0.status == 0 ? $0.output.split(separator: "\n").first.map { $0.hasPrefix("# ") ? String($0.dropFirst(2)) : String($0) } : nil }
            ?? file
        guard let source else {
            return DoctorCheck(name: name, status: .warn, detail: messages("chime.service is not installed"), fix: unitInstall)
        }
        let enabled = run(["is-enabled", "chime.service"])?.output ?? "unknown"
        let active = run(["is-active", "chime.service"])?.output ?? "unknown"
        // systemd's own state words (enabled, active, …) stay as systemctl prints them.
        let detail = "\(source): \(enabled), \(active)"
        if active != "active" {
            return DoctorCheck(
                name: name, status: .warn, detail: messages("{unit}; alarms fire only while it runs", ["unit": detail]),
                fix: enabled == "enabled"
                    ? messages("{command}; {log} says why it stopped", ["command": "systemctl --user start chime", "log": "journalctl --user -u chime"])
                    : "systemctl --user enable --now chime")
        }
        if enabled != "enabled" {
            return DoctorCheck(
                name: name, status: .warn, detail: messages("{unit}; it will not start at your next login", ["unit": detail]),
                fix: "systemctl --user enable chime")
        }
        return DoctorCheck(name: name, status: .ok, detail: detail)
    }

    /// Which calendar addresses are "you" in invitations, and where each comes from: the
    /// configuration's `[identity] addresses` and each CalDAV account's server; when neither
    /// names one, the calendars named after an address (a Google export's). None known is a
    /// note, not a fault: invitations then ring as any event does, declined ones too.
    ///
    /// ```swift
    /// Doctor.identityCheck(configured: ["ana@example.org"], accounts: accounts)
    /// ```
    public static func identityCheck(
        configured: [String], accounts: [SyncAccount], calendarNames: [String] = [], messages: Messages = .english
    ) -> DoctorCheck {
        let name = messages("identity", context: "doctor check")
        var sources = configured.isEmpty ? [] : ["\(configured.sorted().joined(separator: ", ")) (config.toml)"]
        for account in accounts where !(account.addresses ?? []).isEmpty {
            sources.append(
                messages("{addresses} (account {account})", ["addresses": account.addresses!.joined(separator: ", "), "account": account.name]))
        }
        if sources.isEmpty && !calendarNames.isEmpty {
            sources.append(messages("{addresses} (the name of a calendar of yours)", ["addresses": calendarNames.joined(separator: ", ")]))
        }
        guard !sources.isEmpty else {
            return DoctorCheck(
                name: name, status: .ok,
                detail: messages(
                    "no calendar address of yours is known, so invitations ring as any event, declined ones too (set {setting} in config.toml, or add a CalDAV account whose server names them)",
                    ["setting": "[identity] addresses = [\"you@example.org\"]"]))
        }
        return DoctorCheck(name: name, status: .ok, detail: messages("you are {addresses}", ["addresses": sources.joined(separator: "; ")]))
    }

    /// The zone floating times and all-day dates follow, and where it came from.
    public static func zoneCheck(_ resolved: (zone: ZoneRules, origin: SystemZone.Origin), messages: Messages = .english) -> DoctorCheck {
        let check = messages("time zone", context: "doctor check")
        let name = resolved.zone.identifier
        switch resolved.origin {
        case .environment(let value):
            return DoctorCheck(name: check, status: .ok, detail: messages("{zone} (from {source})", ["zone": name, "source": "$TZ=\(value)"]))
        case .invalidEnvironment(let value):
            return DoctorCheck(
                name: check, status: .fail,
                detail: messages(
                    "{setting} names no time zone Chime knows: UTC is used, so floating and all-day times are off", ["setting": "$TZ=\(value)"]),
                fix: messages("unset TZ, or set it to a zone such as Europe/Berlin ({command})", ["command": "timedatectl list-timezones"]))
        case .localtimeLink(let path, let target):
            return DoctorCheck(name: check, status: .ok, detail: messages("{zone} (from {source})", ["zone": name, "source": "\(path) → \(target)"]))
        case .localtimeCopy(let path, let namedBy):
            return DoctorCheck(
                name: check, status: .ok, detail: messages("{zone} (from {file}, named by {source})", ["zone": name, "file": path, "source": namedBy]))
        case .localtimeFile(let path):
            return DoctorCheck(
                name: check, status: .warn,
                detail: messages("rules read from {file}, a copy no tzdata name matches: shown as \"{zone}\"", ["file": path, "zone": name]),
                fix: messages("{command} (links /etc/localtime into tzdata)", ["command": "sudo timedatectl set-timezone REGION/CITY"]))
        case .none:
            return DoctorCheck(
                name: check, status: .warn, detail: messages("UTC: $TZ is unset and /etc/localtime cannot be read"),
                fix: "sudo timedatectl set-timezone REGION/CITY")
        }
    }

    /// Whether a daemon holds the store's lock. None is a warning: alarms fire only while one runs.
    public static func daemonCheck(store: String, holder: DaemonLock.Holder, messages: Messages = .english) -> DoctorCheck {
        let name = messages("daemon", context: "doctor check")
        switch holder {
        case .held(let pid):
            return DoctorCheck(name: name, status: .ok, detail: messages("a daemon is running (pid {pid}) for this store", ["pid": "\(pid)"]))
        case .free:
            return DoctorCheck(
                name: name, status: .warn, detail: messages("no daemon is running for this store: alarms fire only while one runs"),
                fix: messages(
                    "{command} (or {daemon})",
                    [
                        "command": "systemctl --user enable --now chime",
                        "daemon": "chime daemon" + (store == StoreLocation.defaultPath() ? "" : " --store \(shellQuoted(store))")
                    ]))
        case .unknown(let reason):
            return DoctorCheck(
                name: name, status: .warn, detail: messages("cannot tell whether a daemon is running: {reason}", ["reason": reason]),
                fix: "pgrep -a chime")
        }
    }

    /// Runs `executable ARGS` with no input and gives up after `timeout` (killing it): its exit
    /// status and trimmed standard output and error, nil when it could not be started or timed out.
    public static func runBounded(_ executable: String, _ arguments: [String], timeout: Double = 2) -> (status: Int32, output: String)? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        do { try process.run() } catch { return nil }
        // Read while it runs (a full pipe would block it); the read ends when it exits or is killed.
        let reader = ReadBox()
        let handle = output.fileHandleForReading
        let done = DispatchSemaphore(value: 0)
        Thread {
            reader.data = handle.readDataToEndOfFile(); done.signal()
        }.start()
        guard exited.wait(timeout: .now() + timeout) == .success else {
            kill(process.processIdentifier, SIGKILL)
            return nil
        }
        _ = done.wait(timeout: .now() + 0.5)
        return (process.terminationStatus, String(decoding: reader.data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }
}

private final class ReadBox: @unchecked Sendable { var data = Data() }
