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
    public static func storeChecks(path: String, origin: StoreOrigin) -> [DoctorCheck] {
        let folder = (path as NSString).deletingLastPathComponent
        var info = stat()
        guard lstat(path, &info) == 0 else {
            let missing = errno == ENOENT
            var checks = [
                DoctorCheck(
                    name: "store", status: missing ? .ok : .fail,
                    detail: "\(path) (\(origin.rawValue)): "
                        + (missing
                            ? "not created yet; the first command that saves something creates it (0600, folder 0700)"
                            : String(cString: strerror(errno))),
                    fix: "ls -ld \(shellQuoted(folder))")
            ]
            if missing, let folderCheck = folderCheck(folder) { checks.append(folderCheck) }
            return checks
        }
        var checks = [DoctorCheck(name: "store", status: .ok, detail: "\(path) (\(origin.rawValue))")]
        if info.st_mode & S_IFMT == S_IFREG { checks.append(fileCheck(path, info)) }
        if let folderCheck = folderCheck(folder) { checks.append(folderCheck) }
        checks.append(schemaCheck(path))
        return checks
    }

    /// Mode 0600 and owned by the user running Chime. Readable by others is a warning (Chime works;
    /// the calendar is exposed), writable by others a failure (anyone can change what fires).
    static func fileCheck(_ path: String, _ info: stat) -> DoctorCheck {
        let mode = info.st_mode & 0o7777
        let owner = ownerText(info.st_uid)
        if info.st_uid != geteuid() {
            return DoctorCheck(
                name: "store file", status: .fail, detail: "mode \(octal(mode)), owner \(owner): not yours, Chime refuses it",
                fix: "use a store of your own (--store PATH), or as root: chown \(geteuid()) \(shellQuoted(path))")
        }
        let companions = [path] + ["-wal", "-shm"].map { path + $0 }.filter { FileManager.default.fileExists(atPath: $0) }
        let fix = "chmod 600 " + companions.map(shellQuoted).joined(separator: " ")
        if mode & 0o022 != 0 {
            return DoctorCheck(name: "store file", status: .fail, detail: "mode \(octal(mode)), owner \(owner): others can change your alarms", fix: fix)
        }
        if mode & 0o077 != 0 {
            return DoctorCheck(name: "store file", status: .warn, detail: "mode \(octal(mode)), owner \(owner): others can read your calendar", fix: fix)
        }
        return DoctorCheck(name: "store file", status: .ok, detail: "mode \(octal(mode)), owner \(owner)")
    }

    /// The folder Chime creates 0700; an existing one is left as it is, so only a warning.
    static func folderCheck(_ folder: String) -> DoctorCheck? {
        var info = stat()
        guard !folder.isEmpty, stat(folder, &info) == 0 else { return nil }
        let mode = info.st_mode & 0o7777
        guard mode & 0o077 != 0 else {
            return DoctorCheck(name: "store folder", status: .ok, detail: "\(folder): mode \(octal(mode)), owner \(ownerText(info.st_uid))")
        }
        let shared = ["/tmp", "/var/tmp", "/dev/shm"].contains((folder as NSString).standardizingPath)
        return DoctorCheck(
            name: "store folder", status: .warn,
            detail: "\(folder): mode \(octal(mode)), owner \(ownerText(info.st_uid)): others can list it",
            fix: shared
                ? "keep the store in a folder of your own (--store ~/.local/share/chime/chime.sqlite)"
                : "chmod 700 \(shellQuoted(folder))")
    }

    /// Opens it read-only as ``EventStore`` would (the same refusals), never migrating it.
    static func schemaCheck(_ path: String) -> DoctorCheck {
        do {
            guard let found = try StoreInspection.inspect(path: path) else {
                return DoctorCheck(name: "store schema", status: .ok, detail: "not created yet")
            }
            if let first = found.damage.first {
                let recovered = path + ".recovered"
                return DoctorCheck(
                    name: "store schema", status: .fail,
                    detail: "the file is damaged (SQLite's quick_check: \(first)\(found.damage.count > 1 ? ", …" : "")); "
                        + "queries that meet the damaged part fail, and the daemon skips what it cannot read",
                    fix: "sqlite3 \(shellQuoted(path)) .recover | sqlite3 \(shellQuoted(recovered)) "
                        + "&& chime agenda --store \(shellQuoted(recovered)) (then use it: mv it over the old file with no daemon running); "
                        + "or rebuild from an export: chime import FILE.ics --store NEW")
            }
            if found.schemaVersion == 0 {
                return DoctorCheck(
                    name: "store schema", status: .ok,
                    detail: "an empty file; the first command that opens it makes it a Chime store (schema v\(found.currentSchemaVersion))")
            }
            if found.schemaVersion < found.currentSchemaVersion {
                return DoctorCheck(
                    name: "store schema", status: .ok,
                    detail: "a Chime store, schema v\(found.schemaVersion); upgraded to v\(found.currentSchemaVersion) when next opened")
            }
            return DoctorCheck(name: "store schema", status: .ok, detail: "a Chime store, schema v\(found.schemaVersion) (current)")
        } catch {
            let fix: String =
                switch error {
                case .symbolicLink(_, let target): "chime doctor --store \(shellQuoted(target))"
                case .newerSchema: "install the newer Chime that wrote it"
                default: "move it away (mv \(shellQuoted(path)) \(shellQuoted(path + ".bad"))) or use another store (--store PATH)"
                }
            return DoctorCheck(name: "store schema", status: .fail, detail: error.description, fix: fix)
        }
    }

    static func octal(_ mode: mode_t) -> String {
        let digits = String(mode, radix: 8)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    static func ownerText(_ uid: uid_t) -> String {
        var name = "uid \(uid)"
        if let entry = getpwuid(uid), let login = entry.pointee.pw_name { name = String(cString: login) + " (uid \(uid))" }
        return uid == geteuid() ? name + ", you" : name
    }

    /// `text` as one shell word: as it is when it is plain, else in single quotes.
    static func shellQuoted(_ text: String) -> String {
        let plain = text.allSatisfy { $0.isLetter || $0.isNumber || "/._-+:=@,%".contains($0) }
        return plain && !text.isEmpty ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
