import ChimeCore

/// The allowed range of every number and date Chime reads from people and programs (command-line
/// options, the D-Bus service's arguments). The bounds also keep the arithmetic done with these
/// values (days added to dates, hours to instants, seconds to a sleep) far from overflow.
///
/// ```swift
/// try ValueBounds.check("--duration", text: "4000d", seconds: 4000 * 86_400, ValueBounds.durationSeconds)
/// // InputError: --duration 4000d: must be 0…3660d
/// ```
public enum ValueBounds {
    /// Ten years, the longest window, event or alarm offset Chime takes.
    public static let tenYearsInDays = 3660
    public static let days = 1...tenYearsInDays
    public static let hours = 1...(tenYearsInDays * 24)
    public static let count = 1...10_000_000
    public static let priority = 0...9
    public static let timeoutSeconds = 1...86_400
    public static let speed = 0.01...1_000_000.0
    public static let durationSeconds: ClosedRange<Int64> = 0...Int64(tenYearsInDays) * 86_400
    public static let offsetSeconds: ClosedRange<Int64> = -Int64(tenYearsInDays) * 86_400...Int64(tenYearsInDays) * 86_400
    /// How often a subscribed feed is fetched: at least 5 minutes (feeds are not polled faster), at
    /// most a year and a day.
    public static let refreshSeconds: ClosedRange<Int64> = 300...366 * 86_400
    /// Dates: the years RFC 5545 and the store can write (``WritableYears``).
    public static let instants = Instant(utc: WritableYears.first)...Instant(utc: WritableYears.last)

    public static func check<T: Comparable>(_ name: String, _ value: T, _ range: ClosedRange<T>, shown: String? = nil) throws(InputError) {
        guard !range.contains(value) else { return }
        throw InputError(
            translatable: "{option} {value}: must be {low}…{high}",
            ["option": name, "value": shown ?? "\(value)", "low": "\(range.lowerBound)", "high": "\(range.upperBound)"])
    }

    /// A duration or offset (`--duration 2h`, `--alarm -15m`) within `range`, as `15m`-style
    /// text: signed when the range reaches below zero (`-3660d…+3660d`), else without signs
    /// (`0…3660d`, `5m…366d`).
    public static func check(_ name: String, text: String, seconds: Int64, _ range: ClosedRange<Int64>) throws(InputError) {
        guard !range.contains(seconds) else { return }
        func shown(_ s: Int64) -> String {
            if s == 0 { return "0" }
            return range.lowerBound < 0 ? DisplayText.offset(s) : String(DisplayText.offset(s).dropFirst())
        }
        throw InputError(
            translatable: "{option} {value}: must be {low}…{high}",
            ["option": name, "value": text, "low": shown(range.lowerBound), "high": shown(range.upperBound)])
    }

    /// A date's instant within ``instants``.
    public static func check(_ name: String, text: String, instant: Instant) throws(InputError) {
        guard !instants.contains(instant) else { return }
        throw InputError(translatable: "{option} {value}: must be between 0000-01-01 and 9999-12-31", ["option": name, "value": text])
    }
}
