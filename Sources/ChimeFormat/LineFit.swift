import Glibc

/// Long titles in the views people read (`agenda`, `alarms`, `reminders`, `find`): on a terminal
/// a title is cut with "…" so its line fits the terminal's width (`$COLUMNS`, else the terminal's
/// own, else 80), keeping the time, calendar and reference whole. Piped output keeps every
/// title whole, for grep and scripts; `show` and `--json` always do.
///
/// Widths count characters: a wide (CJK) character or an emoji counts as one column, so such a
/// line may still run a little over.
public enum LineFit {
    /// The width lines are fitted to; nil when standard output is not a terminal.
    public static let width: Int? = {
        guard isatty(STDOUT_FILENO) == 1 else { return nil }
        if let text = getenv("COLUMNS"), let n = Int(String(cString: text)), n > 0 { return n }
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return 80
    }()

    /// The fewest characters of a title kept, however narrow the terminal.
    static let shortestTitle = 12

    /// `title`, cut to end in "…" when a line whose other parts take `rest` columns would not fit.
    /// `rest` is counted only on a terminal: piped output (a year's agenda) pays nothing for it.
    public static func title(_ title: String, rest: @autoclosure () -> Int) -> String {
        guard let width else { return title }
        let room = max(shortestTitle, width - rest())
        guard title.count > room else { return title }
        return String(title.prefix(room - 1)) + "…"
    }
}
