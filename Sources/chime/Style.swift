import ArgumentParser
import Glibc
import Synchronization

/// Colour for people at a terminal: on when standard output is a terminal, off when it is piped,
/// when `NO_COLOR` is set (no-color.org), for `TERM=dumb`, or with `--color never`.
enum Style {
    enum Choice: String, CaseIterable, Sendable { case auto, always, never }

    private static let choice = Mutex<Choice>(.auto)

    /// Set by the `--color` option before anything is printed.
    static func use(_ c: Choice) { choice.withLock { $0 = c } }

    static var enabled: Bool {
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

    static func heading(_ text: String) -> String { wrap(text, "1") }
    static func reference(_ text: String) -> String { wrap(text, "2") }
    static func overdue(_ text: String) -> String { wrap(text, "31") }
    static func calendar(_ text: String) -> String { wrap(text, "36") }
}

/// `--color auto|always|never`, for the commands that print views for people.
struct ColorOption: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Colour: auto (on a terminal, unless NO_COLOR is set), always or never.", valueName: "when"))
    var color: Choice = .auto

    enum Choice: String, ExpressibleByArgument, CaseIterable {
        case auto, always, never
    }

    /// Makes the choice the one ``Style`` follows; call before printing.
    func apply() { Style.use(Style.Choice(rawValue: color.rawValue) ?? .auto) }
}
