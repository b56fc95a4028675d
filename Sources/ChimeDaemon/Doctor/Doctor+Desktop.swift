import ChimeCore
import ChimeDesktop
import Foundation
import Glibc

extension Doctor {
    /// The notification server on the session bus, its version and capabilities. None answering is
    /// a warning: the daemon then prints alarms on standard output.
    public static func notificationCheck(
        _ answer: Result<NotificationServerInfo, DesktopServiceProbe.Problem>, messages: Messages = .english
    ) -> DoctorCheck {
        let name = messages("notifications", context: "doctor check")
        switch answer {
        case .failure(let problem):
            return DoctorCheck(
                name: name, status: .warn,
                detail: messages(
                    "no notification server answers on the session bus ({problem}); the daemon prints alarms on standard output instead",
                    ["problem": problem.message.map { messages($0) } ?? problem.description]),
                fix: messages(
                    "run chime in your desktop session, where its notification server runs (or start one: {servers})",
                    ["servers": "dunst, mako, xfce4-notifyd"]))
        case .success(let server):
            let caps = Set(server.capabilities)
            let features = [
                caps.contains("actions") ? messages("actions", context: "server feature") : messages("no actions", context: "server feature"),
                server.supportsBodyMarkup
                    ? messages("body markup", context: "server feature") : messages("plain-text body", context: "server feature"),
                caps.contains("persistence")
                    ? messages("persistence", context: "server feature") : messages("no persistence", context: "server feature"),
                caps.contains("sound") ? messages("sound", context: "server feature") : messages("no sound", context: "server feature")
            ].joined(separator: ", ")
            let title = "\(server.name) \(server.version)" + (server.vendor.isEmpty ? "" : " (\(server.vendor))")
            let detail = "\(title): \(features) [\(server.capabilities.joined(separator: " "))]"
            guard server.supportsActions else {
                return DoctorCheck(
                    name: name, status: .warn,
                    detail: messages("{server}; without actions alarms show no Complete/Snooze buttons", ["server": detail]),
                    fix: messages("use a notification server with actions ({servers})", ["servers": "dunst, mako, GNOME Shell, KDE Plasma"]))
            }
            return DoctorCheck(name: name, status: .ok, detail: detail)
        }
    }

    /// GeoClue2 on the system bus. Absent is a warning: timed alarms work, location alarms do not.
    /// `installed`: whether the system bus knows how to start GeoClue (its D-Bus service file),
    /// so a silence says "installed but not answering", not "install it".
    public static func geoClueCheck(
        _ answer: Result<DesktopServiceProbe.GeoCluePresence, DesktopServiceProbe.Problem>,
        installed: Bool = FileManager.default.fileExists(
            atPath: "/usr/share/dbus-1/system-services/org.freedesktop.GeoClue2.service"),
        messages: Messages = .english
    ) -> DoctorCheck {
        let name = messages("geoclue", context: "doctor check")
        switch answer {
        case .success(.running):
            return DoctorCheck(name: name, status: .ok, detail: messages("GeoClue2 is running on the system bus"))
        case .success(.activatable):
            return DoctorCheck(name: name, status: .ok, detail: messages("GeoClue2 is installed; the system bus starts it when asked"))
        case .failure(let problem):
            return DoctorCheck(
                name: name, status: .warn,
                detail: messages(
                    "GeoClue2 does not answer ({problem}); location alarms cannot fire, timed alarms work",
                    ["problem": problem.message.map { messages($0) } ?? problem.description]),
                fix: installed
                    ? messages("GeoClue2 is installed but not answering: {commands}", ["commands": "systemctl status geoclue; journalctl -u geoclue"])
                    : "sudo apt install geoclue-2.0")
        }
    }

    /// GeoClue's configuration files: `/etc/geoclue/geoclue.conf`, then the drop-ins of 2.7 and later.
    public static func geoClueConfigFiles(folder: String = "/etc/geoclue") -> [(path: String, text: String)] {
        let dropIns = ((try? FileManager.default.contentsOfDirectory(atPath: folder + "/conf.d")) ?? [])
            .filter { $0.hasSuffix(".conf") }.sorted().map { folder + "/conf.d/" + $0 }
        return ([folder + "/geoclue.conf"] + dropIns).compactMap { path in
            (try? String(contentsOfFile: path, encoding: .utf8)).map { (path, $0) }
        }
    }

    /// Whether GeoClue lets the app `chime` locate: a `[chime]` section with `allowed=true`
    /// (Config/geoclue-chime.conf); a later file overrides an earlier one, as in GeoClue. The fix
    /// copies the section from where `make install` put it (`installed`), else from the source tree.
    public static func geoCluePermissionCheck(
        files: [(path: String, text: String)], hasDropInFolder: Bool,
        installed: Installed = .running(), messages: Messages = .english
    ) -> DoctorCheck {
        let name = messages("geoclue permission", context: "doctor check")
        let install = geoClueSnippetInstall(installed, hasDropInFolder: hasDropInFolder, messages: messages)
        guard !files.isEmpty else {
            return DoctorCheck(
                name: name, status: .warn,
                detail: messages("no GeoClue configuration ({file} is missing)", ["file": "/etc/geoclue/geoclue.conf"]),
                fix: messages("{first}, then {second}", ["first": "sudo apt install geoclue-2.0", "second": install]))
        }
        var found: (path: String, allowed: String?)?
        for file in files {
            if let section = INIText.sections(file.text)["chime"] { found = (file.path, section["allowed"]) }
        }
        guard let found else {
            return DoctorCheck(
                name: name, status: .warn,
                detail: messages(
                    "no [chime] section in {files}: GeoClue treats chime as an unknown app", ["files": files.map(\.path).joined(separator: ", ")]),
                fix: install)
        }
        guard found.allowed == "true" else {
            return DoctorCheck(
                name: name, status: .warn,
                detail: messages(
                    "[chime] in {file} has allowed={value}: GeoClue refuses chime",
                    ["file": found.path, "value": found.allowed ?? messages("(unset)")]),
                fix: messages("set allowed=true in the [chime] section of {file}", ["file": found.path]))
        }
        return DoctorCheck(name: name, status: .ok, detail: messages("[chime] allowed=true in {file}", ["file": found.path]))
    }

    /// GeoClue 2.6 answers no app until a location agent listed in `[agent] whitelist=` runs for the
    /// user (the desktop shell, or the demo agent). Agents are not listed on the bus: a process of
    /// this user whose name is a whitelisted id (or the demo agent's binary) counts as one.
    public static func geoClueAgentCheck(
        files: [(path: String, text: String)], processes: [(pid: Int32, name: String)], messages: Messages = .english
    ) -> DoctorCheck? {
        let name = messages("geoclue agent", context: "doctor check")
        var whitelist: [String]?
        for file in files {
            if let list = INIText.sections(file.text)["agent"]?["whitelist"] {
                whitelist = list.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            }
        }
        guard let whitelist else { return nil }
        let demo = "/usr/libexec/geoclue-2.0/demos/agent"
        func matches(_ process: (pid: Int32, name: String), _ id: String) -> Bool {
            process.name == id || (process.name as NSString).lastPathComponent == id
                || (id == "geoclue-demo-agent" && process.name == demo)
        }
        for id in whitelist {
            if let running = processes.first(where: { matches($0, id) }) {
                return DoctorCheck(name: name, status: .ok, detail: messages("{agent} runs (pid {pid})", ["agent": id, "pid": "\(running.pid)"]))
            }
        }
        let listed =
            whitelist.isEmpty
            ? messages("no agent is whitelisted") : messages("whitelist: {agents}", ["agents": whitelist.joined(separator: ", ")])
        return DoctorCheck(
            name: name, status: .warn,
            detail: messages("no GeoClue agent of yours seems to run ({whitelist}); GeoClue 2.6 answers no app without one", ["whitelist": listed]),
            fix: messages(
                "log in to a desktop whose shell is a GeoClue agent (GNOME, KDE), or run {agent} (whitelisted as geoclue-demo-agent)",
                ["agent": demo]))
    }

    /// This user's processes: PID and `argv[0]`.
    public static func userProcesses() -> [(pid: Int32, name: String)] {
        let uid = geteuid()
        return ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { entry in
            guard let pid = Int32(entry) else { return nil }
            var info = stat()
            guard stat("/proc/\(entry)", &info) == 0, info.st_uid == uid,
                let cmdline = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline"),
                let first = cmdline.split(separator: 0, omittingEmptySubsequences: false).first, !first.isEmpty
            else { return nil }
            return (pid, String(decoding: first, as: UTF8.self))
        }
    }
}

/// The key files GeoClue reads: `[section]`, `key=value`, `#` comments.
enum INIText {
    static func sections(_ text: String) -> [String: [String: String]] {
        var sections: [String: [String: String]] = [:]
        var current: String?
        for raw in text.split(whereSeparator: \.isNewline) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("["), line.hasSuffix("]") {
                current = String(line.dropFirst().dropLast()).trimmingCharacters(in: .whitespaces)
                if let current, sections[current] == nil { sections[current] = [:] }
            } else if let current, let equals = line.firstIndex(of: "=") {
                let key = line[..<equals].trimmingCharacters(in: .whitespaces)
                sections[current, default: [:]][key] = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            }
        }
        return sections
    }
}
