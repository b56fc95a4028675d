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

    var recurrenceDate: RecurrenceDate {
        switch self {
        case .date(let d): return .date(d)
        case .local(let l): return .local(l)
        case .instant(let i): return .instant(i)
        }
    }
}

/// Reads a `--tz`/`tzid` value: `UTC`, `floating`, or an IANA zone name.
enum ZoneArgument {
    case floating
    case zone(ZoneRules)

    init(_ text: String) throws(TimeZoneError) {
        if text.lowercased() == "floating" { self = .floating } else { self = .zone(try ZoneRules.named(text)) }
    }
}
