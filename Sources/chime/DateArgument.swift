import ChimeCore

/// A date typed on the command line for `chime expand`: a ``DateValue`` read by
/// ``DateExpression`` (ISO 8601, RFC 5545 basic form, and the relative forms), with civil
/// words such as `today` read on UTC.
typealias DateArgument = DateValue

extension DateValue {
    static let accepted = "YYYY-MM-DD[THH:MM[:SS]][Z|±HH:MM] or YYYYMMDD[THHMMSS][Z]"

    /// Reads `text` on the command line's clock (``CLIContext/now``).
    init?(_ text: String) {
        guard let value = try? DateExpression.parse(text, now: CLIContext.now, zone: .utc),
              OptionBounds.instants.contains(value.instant(in: .utc)) else { return nil }
        self = value
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
