/// A problem with what was typed, on the command line or in a D-Bus call's fields: a bad date, an
/// unknown item, a value out of range. The text names what and where, e.g.
/// `--due: "tomorow": unknown word (did you mean "tomorrow"?)`.
///
/// ```swift
/// throw InputError("--days 0: must be 1…3660")
/// ```
public struct InputError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ text: String) { description = text }
}
