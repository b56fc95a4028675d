import ArgumentParser
import ChimeCore
import ChimeFormat

/// Every numeric command-line value is checked in `validate()` before anything runs against
/// ``ValueBounds``: a value outside it is a usage error (exit 64) naming the option, the value and
/// the range, e.g. `--days 9223372036854775807: must be 1…3660`.
enum OptionBounds {
    static func check<T: Comparable>(_ option: String, _ value: T, _ range: ClosedRange<T>, shown: String? = nil) throws {
        do { try ValueBounds.check(option, value, range, shown: shown) } catch { throw Self.usageError(error) }
    }

    /// A duration or offset option (``ValueBounds/check(_:text:seconds:_:)``).
    static func check(_ option: String, text: String, seconds: Int64, _ range: ClosedRange<Int64>) throws {
        do { try ValueBounds.check(option, text: text, seconds: seconds, range) } catch { throw Self.usageError(error) }
    }

    /// A date option's instant within ``ValueBounds/instants``.
    static func check(_ option: String, text: String, instant: Instant) throws {
        do { try ValueBounds.check(option, text: text, instant: instant) } catch { throw Self.usageError(error) }
    }

    /// The bound's message in the user's language, as a usage error.
    private static func usageError(_ error: InputError) -> ValidationError {
        ValidationError(error.text(in: CLIContext.messages))
    }
}
