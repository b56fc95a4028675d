import ChimeCore
import ChimeStore
import Foundation
import Glibc

/// `chime doctor`'s checks, one function per area, each returning its lines of the report.
public enum Doctor {
    /// Where the store path came from.
    public enum StoreOrigin: String, Sendable {
        case option = "--store"
        case environment = "$CHIME_STORE"
        case standard = "default: $XDG_DATA_HOME/chime/chime.sqlite"

        /// Where it came from, as the report says it.
        func text(_ messages: Messages) -> String {
            self == .standard ? messages("default: {path}", ["path": "$XDG_DATA_HOME/chime/chime.sqlite"]) : rawValue
        }
    }

    /// The store path in use and where it came from, `--store` first.
    public static func storePath(option: String?, environment: [String: String] = ProcessInfo.processInfo.environment)
        -> (path: String, origin: StoreOrigin)
    {
        if let option { return (option, .option) }
        if let value = environment["CHIME_STORE"], !value.isEmpty { return (value, .environment) }
        return (StoreLocation.defaultPath(environment: environment), .standard)
    }

    /// The store: path and origin, its file's and folder's mode and owner, whether it opens as a
    /// Chime store and its schema version. Nothing is created or changed.
    public static func storeChecks(path: String, origin: StoreOrigin, messages: Messages = .english) -> [DoctorCheck] {
        let name = messages("store", context: "doctor check")
        let folder = (path as NSString).deletingLastPathComponent
        var info = stat()
        guard lstat(path, &info) == 0 else {
            let missing = errno == ENOENT
            let reason = String(cString: strerror(errno))
            var checks = [
                DoctorCheck(
                    name: name, status: missing ? .ok : .fail,
                    detail: missing
                        ? messages(
                            "{path} ({origin}): not created yet; the first command that saves something creates it (0600, folder 0700)",
                            ["path": path, "origin": origin.text(messages)])
                        : "\(path) (\(origin.text(messages))): \(reason)",
                    fix: "ls -ld \(shellQuoted(folder))")
            ]
            if missing, let folderCheck = folderCheck(folder, messages: messages) { checks.append(folderCheck) }
            return checks
        }
        var checks = [DoctorCheck(name: name, status: .ok, detail: "\(path) (\(origin.text(messages)))")]
        if info.st_mode & S_IFMT == S_IFREG { checks.append(fileCheck(path, info, messages: messages)) }
        if let folderCheck = folderCheck(folder, messages: messages) { checks.append(folderCheck) }
        checks.append(schemaCheck(path, messages: messages))
        return checks
    }

    /// Mode 0600 and owned by the user running Chime. Readable by others is a warning (Chime works;
    /// the calendar is exposed), writable by others a failure (anyone can change what fires).
    static func fileCheck(_ path: String, _ info: stat, messages: Messages = .english) -> DoctorCheck {
        let name = messages("store file", context: "doctor check")
        let values: KeyValuePairs<String, String> = ["mode": octal(info.st_mode & 0o7777), "owner": ownerText(info.st_uid, messages: messages)]
        let mode = info.st_mode & 0o7777
        if info.st_uid != geteuid() {
            return DoctorCheck(
                name: name, status: .fail, detail: messages("mode {mode}, owner {owner}: not yours, Chime refuses it", values),
                fix: messages(
                    "use a store of your own (--store PATH), or as root: {command}",
                    ["command": "chown \(geteuid()) \(shellQuoted(path))"]))
        }
        let companions = [path] + ["-wal", "-shm"].map { path + $0 }.filter { FileManager.default.fileExists(atPath: $0) }
        let fix = "chmod 600 " + companions.map(shellQuoted).joined(separator: " ")
        if mode & 0o022 != 0 {
            return DoctorCheck(name: name, status: .fail, detail: messages("mode {mode}, owner {owner}: others can change your alarms", values), fix: fix)
        }
        if mode & 0o077 != 0 {
            return DoctorCheck(name: name, status: .warn, detail: messages("mode {mode}, owner {owner}: others can read your calendar", values), fix: fix)
        }
        return DoctorCheck(name: name, status: .ok, detail: messages("mode {mode}, owner {owner}", values))
    }

    /// The folder Chime creates 0700; an existing one is left as it is, so only a warning.
    static func folderCheck(_ folder: String, messages: Messages = .english) -> DoctorCheck? {
        var info = stat()
        guard !folder.isEmpty, stat(folder, &info) == 0 else { return nil }
        let name = messages("store folder", context: "doctor check")
        let mode = info.st_mode & 0o7777
        let values: KeyValuePairs<String, String> = ["folder": folder, "mode": octal(mode), "owner": ownerText(info.st_uid, messages: messages)]
        guard mode & 0o077 != 0 else {
            return DoctorCheck(name: name, status: .ok, detail: messages("{folder}: mode {mode}, owner {owner}", values))
        }
        let shared = ["/tmp", "/var/tmp", "/dev/shm"].contains((folder as NSString).standardizingPath)
        return DoctorCheck(
            name: name, status: .warn,
            detail: messages("{folder}: mode {mode}, owner {owner}: others can list it", values),
            fix: shared
                ? messages("keep the store in a folder of your own ({option})", ["option": "--store ~/.local/share/chime/chime.sqlite"])
                : "chmod 700 \(shellQuoted(folder))")
    }

    /// Opens it read-only as ``EventStore`` would (the same refusals), never migrating it.
    static func schemaCheck(_ path: String, messages: Messages = .english) -> DoctorCheck {
        let name = messages("store schema", context: "doctor check")
        do {
            guard let found = try StoreInspection.inspect(path: path) else {
                return DoctorCheck(name: name, status: .ok, detail: messages("not created yet"))
            }
            let versions: KeyValuePairs<String, String> = ["version": "v\(found.schemaVersion)", "current": "v\(found.currentSchemaVersion)"]
            if let first = found.damage.first {
                let recovered = path + ".recovered"
                return DoctorCheck(
                    name: name, status: .fail,
                    detail: messages(
                        "the file is damaged (SQLite's quick_check: {damage}); queries that meet the damaged part fail, and the daemon skips what it cannot read",
                        ["damage": first + (found.damage.count > 1 ? ", …" : "")]),
                    fix: messages(
                        "{recover} (then use it: mv it over the old file with no daemon running); or rebuild from an export: {import}",
                        [
                            "recover": "sqlite3 \(shellQuoted(path)) .recover | sqlite3 \(shellQuoted(recovered)) "
                                + "&& chime agenda --store \(shellQuoted(recovered))",
                            "import": "chime import FILE.ics --store NEW"
                        ]))
            }
            if found.schemaVersion == 0 {
                return DoctorCheck(
                    name: name, status: .ok,
                    detail: messages("an empty file; the first command that opens it makes it a Chime store (schema {current})", versions))
            }
            if found.schemaVersion < found.currentSchemaVersion {
                return DoctorCheck(
                    name: name, status: .ok, detail: messages("a Chime store, schema {version}; upgraded to {current} when next opened", versions))
            }
            return DoctorCheck(name: name, status: .ok, detail: messages("a Chime store, schema {version} (current)", versions))
        } catch {
            let fix: String =
                switch error {
                case .symbolicLink(_, let target): "chime doctor --store \(shellQuoted(target))"
                case .newerSchema: messages("install the newer Chime that wrote it")
                default:
                    messages(
                        "move it away ({command}) or use another store (--store PATH)",
                        ["command": "mv \(shellQuoted(path)) \(shellQuoted(path + ".bad"))"])
                }
            return DoctorCheck(name: name, status: .fail, detail: error.description, fix: fix)
        }
    }

    static func octal(_ mode: mode_t) -> String {
        let digits = String(mode, radix: 8)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    static func ownerText(_ uid: uid_t, messages: Messages = .english) -> String {
        var name = "uid \(uid)"
        if let entry = getpwuid(uid), let login = entry.pointee.pw_name { name = String(cString: login) + " (uid \(uid))" }
        return uid == geteuid() ? messages("{owner}, you", ["owner": name]) : name
    }

    /// `text` as one shell word: as it is when it is plain, else in single quotes.
    static func shellQuoted(_ text: String) -> String {
        let plain = text.allSatisfy { $0.isLetter || $0.isNumber || "/._-+:=@,%".contains($0) }
        return plain && !text.isEmpty ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
