import Foundation

/// An app as the desktop knows it, which is what access decisions are kept under: its Flatpak
/// app ID (from `/.flatpak-info` in its sandbox), else the systemd unit a desktop launcher put it
/// in (`app-…` scopes and services, the launch's random part left out), else its executable.
///
/// ```swift
/// let app = AppIdentity.ofProcess(pid)       // flatpak:org.gnome.Calendar, unit:app-gnome-org.gnome.Maps, exe:/usr/bin/python3.11
/// print(app?.id, app?.displayName)
/// ```
public struct AppIdentity: Hashable, Sendable, CustomStringConvertible {
    public enum Source: String, Hashable, Sendable { case flatpak, unit, exe }

    public var source: Source
    /// The app ID, unit name or executable path.
    public var name: String

    public init(source: Source, name: String) {
        self.source = source
        self.name = name
    }

    /// `flatpak:org.gnome.Calendar`, `unit:app-gnome-org.gnome.Maps`, `exe:/usr/bin/foo`: the key decisions are kept under.
    public var id: String { "\(source.rawValue):\(name)" }
    public var description: String { id }

    /// The name a person recognises: the app ID, the unit, or the executable's file name with its path.
    public var displayName: String {
        switch source {
        case .flatpak, .unit: name
        case .exe: "\((name as NSString).lastPathComponent) (\(name))"
        }
    }

    /// Parses `flatpak:ID`, `unit:NAME` or `exe:PATH` (what ``id`` gives and `chime access` takes).
    public init?(id: String) {
        guard let colon = id.firstIndex(of: ":"), let source = Source(rawValue: String(id[..<colon])) else { return nil }
        let name = String(id[id.index(after: colon)...])
        guard !name.isEmpty else { return nil }
        self.init(source: source, name: name)
    }

    /// The identity of a running process, from `/proc`; nil when nothing could be read (it exited,
    /// or belongs to another user): such a caller is refused, not guessed.
    ///
    /// A `/.flatpak-info` counts only as the host's own record confirms it (as xdg-desktop-portal
    /// requires): Flatpak keeps each running sandbox's info file and `bwrapinfo.json` in
    /// `$XDG_RUNTIME_DIR/.flatpak/INSTANCE/`, and the caller's file must be that instance's, byte for
    /// byte. A file forged under a chroot in a user namespace of one's own has no such record: that
    /// caller is known by its executable. (No mount-namespace comparison: a Flatpak app reaches the
    /// bus through xdg-dbus-proxy, which runs in a sandbox of its own with the same info file.)
    public static func ofProcess(
        _ pid: UInt32, proc: String = "/proc",
        runtimeDirectory: String? = AppIdentity.runtimeDirectory()
    ) -> AppIdentity? {
        let base = "\(proc)/\(pid)"
        // The process's own root: for a Flatpak app, its sandbox, where Flatpak puts the app's ID.
        let processRoot = "\(base)/root"
        var flatpakInfo = regularFileText(processRoot + "/.flatpak-info")
        if let info = flatpakInfo, !isRealFlatpakInstance(info: info, runtimeDirectory: runtimeDirectory) { flatpakInfo = nil }
        let cgroup = try? String(contentsOfFile: "\(base)/cgroup", encoding: .utf8)
        let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "\(base)/exe")
        return resolve(flatpakInfo: flatpakInfo, cgroup: cgroup, executable: executable)
    }

    /// The identity from what `/proc` holds for a process (pure, for tests).
    public static func resolve(flatpakInfo: String?, cgroup: String?, executable: String?) -> AppIdentity? {
        if let id = flatpakInfo.flatMap(flatpakAppID(fromInfo:)) { return AppIdentity(source: .flatpak, name: id) }
        if let unit = cgroup.flatMap(appUnit(fromCgroup:)) { return AppIdentity(source: .unit, name: unit) }
        guard var path = executable, path.hasPrefix("/") else { return nil }
        // A binary replaced on disk (an upgrade, a rebuild) reads as "PATH (deleted)": the same app.
        if path.hasSuffix(" (deleted)") { path.removeLast(" (deleted)".count) }
        return AppIdentity(source: .exe, name: path)
    }

    /// `$XDG_RUNTIME_DIR`, else the folder systemd-logind makes for this user (a daemon started
    /// without the variable still finds Flatpak's records there).
    public static func runtimeDirectory() -> String {
        if let given = ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"], !given.isEmpty { return given }
        return "/run/user/\(getuid())"
    }

    /// The text of a regular file (not a device, FIFO or folder that would block or mislead), at most
    /// 64 KiB. A symbolic link as the last component is not followed: under `/proc/PID/root` an
    /// absolute link would resolve against this process's root, not the caller's.
    static func regularFileText(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK | O_NOFOLLOW)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size <= 65_536 else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        let count = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard count >= 0 else { return nil }
        return String(decoding: bytes.prefix(count), as: UTF8.self)
    }

    /// Whether a `.flatpak-info` is the one Flatpak on this host keeps for a running sandbox: its
    /// `[Instance] instance-id` names a folder of `$XDG_RUNTIME_DIR/.flatpak/` holding
    /// `bwrapinfo.json` and an `info` file with the same bytes.
    static func isRealFlatpakInstance(info: String, runtimeDirectory: String?) -> Bool {
        guard let instance = iniValue(info, group: "Instance", key: "instance-id"),
            !instance.isEmpty, !instance.contains("/"), instance != "..", instance != ".",
            let runtimeDirectory
        else { return false }
        let folder = runtimeDirectory + "/.flatpak/" + instance
        return regularFileText(folder + "/bwrapinfo.json") != nil && regularFileText(folder + "/info") == info
    }

    /// `key=` of `[group]` in an INI-style text.
    static func iniValue(_ text: String, group: String, key: String) -> String? {
        var inGroup = false
        for raw in text.split(whereSeparator: \.isNewline) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("[") { inGroup = line == "[\(group)]"; continue }
            if inGroup, line.hasPrefix(key + "=") { return String(line.dropFirst(key.count + 1)) }
        }
        return nil
    }

    /// `name=` of the `[Application]` group of a `.flatpak-info` file.
    static func flatpakAppID(fromInfo text: String) -> String? {
        iniValue(text, group: "Application", key: "name").flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The app unit of the unified (`0::`) cgroup line, as systemd's desktop convention names them:
    /// `app[-LAUNCHER]-APPID[@RANDOM].service` or `app[-LAUNCHER]-APPID-RANDOM.scope`, with the
    /// random part (which changes at every launch) left out and `\x2d` escapes decoded. Anything
    /// else (a login session scope, a terminal's unit) says nothing about the app: nil.
    static func appUnit(fromCgroup text: String) -> String? {
        guard let line = text.split(whereSeparator: \.isNewline).first(where: { $0.hasPrefix("0::") }),
            let last = line.split(separator: "/").last
        else { return nil }
        var unit = String(last)
        guard unit.hasPrefix("app-") else { return nil }
        if unit.hasSuffix(".service") {
            unit.removeLast(".service".count)
            if let at = unit.firstIndex(of: "@") { unit = String(unit[..<at]) }
        } else if unit.hasSuffix(".scope") {
            unit.removeLast(".scope".count)
            if let dash = unit.lastIndex(of: "-"), unit.distance(from: unit.startIndex, to: dash) > 4 {
                unit = String(unit[..<dash])
            }
        } else {
            return nil
        }
        unit = unit.replacingOccurrences(of: "\\x2d", with: "-")
        return unit.count > "app-".count ? unit : nil
    }
}
