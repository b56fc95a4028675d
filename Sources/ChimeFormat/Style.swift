import Glibc
import Synchronization

/// Colour for people at a terminal: on when standard output is a terminal, off when it is piped,
/// when `NO_COLOR` is set (no-color.org), for `TERM=dumb`, or with `--color never`.
public enum Style {
    public enum Choice: String, CaseIterable, Sendable { case auto, always, never }

    private static let choice = Mutex<Choice>(.auto)

    /// Set by the `--color` option before anything is printed.
    public static func use(_ c: Choice) { choice.withLock { $0 = c } }

    public static var enabled: Bool {
        switch choice.withLock({ $0 }) {
        case .always: return true
        case .never: return false
        case .auto:
            if let noColor = getenv("NO_COLOR"), noColor.pointee != 0 { return false }
            if let term = getenv("TERM"), String(cString: term) == "dumb" { return false }
            return isatty(STDOUT_FILENO) == 1
        }
    }

    private static func wrap(_ text: String, _ code: String) -> String {
        enabled ? "\u{1b}[\(code)m\(text)\u{1b}[0m" : text
    }

    public static func heading(_ text: String) -> String { wrap(text, "1") }
    public static func reference(_ text: String) -> String { wrap(text, "2") }
    public static func overdue(_ text: String) -> String { wrap(text, "31") }
    public static func calendar(_ text: String) -> String { wrap(text, "36") }
}
