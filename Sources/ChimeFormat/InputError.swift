import ChimeCore

/// A problem with what was typed, on the command line or in a D-Bus call's fields: a bad date, an
/// unknown item, a value out of range. The text names what and where, e.g.
/// `--due: "tomorow": unknown word (did you mean "tomorrow"?)`.
///
/// One written for translation (`translatable:`) keeps its template: ``description`` stays
/// English (logs, JSON, the D-Bus interface), and the command line shows ``text(in:)``.
///
/// ```swift
/// throw InputError("--days 0: must be 1…3660")
/// throw InputError(translatable: "no calendar or list \"{name}\" (see `chime calendar list`)", ["name": name])
/// ```
public struct InputError: Error, CustomStringConvertible, Sendable {
    public let description: String
    /// The text for the user's language, when it was written for translation.
    public let message: MessageText?

    public init(_ text: String) {
        description = text
        message = nil
    }

    public init(
        translatable template: StaticString, context: StaticString? = nil, _ values: KeyValuePairs<String, String> = [:],
        parts: [String: MessageText] = [:]
    ) {
        let message = MessageText(template, context: context, values, parts: parts)
        self.message = message
        description = message.english
    }

    /// What the user reads: the translation when there is one, else ``description``.
    public func text(in messages: Messages) -> String { message.map { messages($0) } ?? description }
}
