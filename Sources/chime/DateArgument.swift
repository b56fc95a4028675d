import ChimeCore

/// A date typed on the command line for `chime expand`: a ``DateValue`` read by
/// ``DateExpression`` (ISO 8601, RFC 5545 basic form, and the relative forms), with civil
/// words such as `today` read on UTC.
typealias DateArgument = DateValue

extension DateValue {
    /// Reads a date option of `chime expand` with the one date reader every command uses (the
    /// same forms, the same message for the same mistake); civil words are read on UTC.
    static func argument(_ text: String, option: String) throws -> DateValue {
        try CLIContext.date(text, option: option, on: .utc)
    }

    /// A value of `chime expand --batch` (RFC 5545 basic form) as the value the typed options give.
    init(_ basic: BasicDateTime) {
        switch basic {
        case .date(let d): self = .date(d)
        case .local(let l): self = .local(l)
        case .utc(let l): self = .instant(Instant(utc: l))
        }
    }

    var recurrenceDate: RecurrenceDate {
        switch self {
        case .date(let d): return .date(d)
        case .local(let l): return .local(l)
        case .instant(let i): return .instant(i)
        }
    }
}
