import ArgumentParser
import ChimeCore

/// The allowed range of every numeric command-line value, checked in `validate()` before anything
/// runs: a value outside it is a usage error (exit 64) naming the option, the value and the range,
/// e.g. `--days 9223372036854775807: must be 1…3660`. The bounds also keep the arithmetic done
/// with these values (days added to dates, hours to instants, seconds to a sleep) far from overflow.
enum OptionBounds {
    /// Ten years, the longest window, event or alarm offset the command line takes.
    static let tenYearsInDays = 3660
    static let days = 1...tenYearsInDays
    static let hours = 1...(tenYearsInDays * 24)
    static let count = 1...10_000_000
    static let priority = 0...9
    static let timeoutSeconds = 1...86_400
    static let speed = 0.01...1_000_000.0
    static let durationSeconds: ClosedRange<Int64> = 0...Int64(tenYearsInDays) * 86_400
    static let offsetSeconds: ClosedRange<Int64> = -Int64(tenYearsInDays) * 86_400...Int64(tenYearsInDays) * 86_400
    /// How often a subscribed feed is fetched: at least 5 minutes (feeds are not polled faster), at
    /// most a year and a day.
    static let refreshSeconds: ClosedRange<Int64> = 300...366 * 86_400
    /// Dates: the years RFC 5545 and the store can write (``WritableYears``).
    static let instants = Instant(utc: WritableYears.first)...Instant(utc: WritableYears.last)

    static func check<T: Comparable>(_ option: String, _ value: T, _ range: ClosedRange<T>, shown: String? = nil) throws {
        guard !range.contains(value) else { return }
        throw ValidationError("\(option) \(shown ?? "\(value)"): must be \(range.lowerBound)…\(range.upperBound)")
    }

    /// A duration or offset option (`--duration 2h`, `--alarm -15m`) within `range`, as `15m`-style
    /// text: signed when the range reaches below zero (`-3660d…+3660d`), else without signs
    /// (`0…3660d`, `5m…366d`).
    static func check(_ option: String, text: String, seconds: Int64, _ range: ClosedRange<Int64>) throws {
        guard !range.contains(seconds) else { return }
        func shown(_ s: Int64) -> String {
            if s == 0 { return "0" }
            return range.lowerBound < 0 ? DisplayText.offset(s) : String(DisplayText.offset(s).dropFirst())
        }
        throw ValidationError("\(option) \(text): must be \(shown(range.lowerBound))…\(shown(range.upperBound))")
    }

    /// A date option's instant within ``instants``.
    static func check(_ option: String, text: String, instant: Instant) throws {
        guard !instants.contains(instant) else { return }
        throw ValidationError("\(option) \(text): must be between 0000-01-01 and 9999-12-31")
    }
}
