import ChimeCore

/// One finding of `chime doctor`: what was checked, how it stands, and the command that fixes it.
///
/// ```swift
/// DoctorCheck(name: "store file", status: .warn, detail: "mode 0644: others can read it",
///             fix: "chmod 600 /home/me/.local/share/chime/chime.sqlite")
/// ```
public struct DoctorCheck: Hashable, Sendable {
    public enum Status: String, Hashable, Sendable, Comparable {
        case ok, warn, fail

        public static func < (a: Status, b: Status) -> Bool { a.rank < b.rank }
        private var rank: Int { self == .ok ? 0 : self == .warn ? 1 : 2 }
    }

    public var name: String
    public var status: Status
    public var detail: String
    /// What to type to put it right; nil when the check is ok.
    public var fix: String?

    public init(name: String, status: Status, detail: String, fix: String? = nil) {
        self.name = name
        self.status = status
        self.detail = detail
        self.fix = status == .ok ? nil : fix
    }
}

/// All of `chime doctor`'s findings, written as text or as JSON from the same list.
///
/// ```
/// ok    store            /home/me/.local/share/chime/chime.sqlite (default: $XDG_DATA_HOME/chime/chime.sqlite)
/// warn  store file       mode 0644, others can read it; owner you (uid 1000) — fix: chmod 600 …
/// ```
public struct DoctorReport: Hashable, Sendable {
    public var checks: [DoctorCheck]

    public init(checks: [DoctorCheck]) { self.checks = checks }

    /// The worst status of any check: `fail` makes `chime doctor` exit 1, warnings do not.
    public var status: DoctorCheck.Status { checks.map(\.status).max() ?? .ok }

    /// One line per check, status word first; the fix after " — fix: ". Then a count.
    public var text: String {
        let width = (checks.map(\.name.count).max() ?? 0) + 2
        var lines = checks.map { check in
            let name = check.name + String(repeating: " ", count: width - check.name.count)
            let status = check.status.rawValue + String(repeating: " ", count: 6 - check.status.rawValue.count)
            return status + name + check.detail + (check.fix.map { " — fix: " + $0 } ?? "")
        }
        let failed = checks.filter { $0.status == .fail }.count, warned = checks.filter { $0.status == .warn }.count
        lines.append("\(status.rawValue): \(failed) failed, \(warned) \(warned == 1 ? "warning" : "warnings"), \(checks.count - failed - warned) ok")
        return lines.joined(separator: "\n") + "\n"
    }

    /// `{"status": …, "checks": [{"name", "status", "detail", "fix"}]}`, `fix` null when ok.
    public var json: String {
        let items = checks.map { check in
            JSONText.object([
                ("name", JSONText.string(check.name)), ("status", JSONText.string(check.status.rawValue)),
                ("detail", JSONText.string(check.detail)), ("fix", check.fix.map(JSONText.string) ?? "null")
            ])
        }
        return JSONText.document([("status", JSONText.string(status.rawValue)), ("checks", JSONText.array(items))]) + "\n"
    }
}
