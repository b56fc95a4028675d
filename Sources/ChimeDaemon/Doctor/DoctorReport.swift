import ChimeCore
import ChimeFormat

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
    public var text: String { text(messages: .english) }

    /// ``text`` in the user's language: status words, the fix label and the count translated,
    /// columns lined up by display width (the checks were made with the same `messages`).
    public func text(messages: Messages) -> String {
        let words: [DoctorCheck.Status: String] = [
            .ok: messages("ok", context: "doctor status"), .warn: messages("warn", context: "doctor status"),
            .fail: messages("fail", context: "doctor status")
        ]
        let statusWidth = max(6, (words.values.map(DisplayText.columns).max() ?? 0) + 2)
        let width = (checks.map { DisplayText.columns($0.name) }.max() ?? 0) + 2
        func padded(_ text: String, _ width: Int) -> String { text + String(repeating: " ", count: max(1, width - DisplayText.columns(text))) }
        var lines = checks.map { check in
            padded(words[check.status]!, statusWidth) + padded(check.name, width) + check.detail
                + (check.fix.map { messages(" — fix: {command}", ["command": $0]) } ?? "")
        }
        let failed = checks.filter { $0.status == .fail }.count, warned = checks.filter { $0.status == .warn }.count
        lines.append(
            messages(
                "{status}: {failed} failed, {warnings}, {ok} ok",
                [
                    "status": words[status]!, "failed": "\(failed)", "ok": "\(checks.count - failed - warned)",
                    "warnings": messages.plural("{count} warning", "{count} warnings", count: warned)
                ]))
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
