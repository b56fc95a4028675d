import ChimeCore
import Foundation

/// A date or date-time typed on the command line: ISO 8601 (`2026-03-08`, `2026-03-08T02:30`,
/// `2026-03-08T02:30:00Z`, `2026-03-08T02:30:00+01:00`), the RFC 5545 basic form
/// (`20260308`, `20260308T023000`, `20260308T023000Z`), or the relative forms of
/// ``DateExpression``, which does all the parsing.
enum DateArgument: Equatable {
    case date(CivilDate)
    case local(LocalDateTime)
    case instant(Instant)

    static let accepted = "YYYY-MM-DD[THH:MM[:SS]][Z|±HH:MM] or YYYYMMDD[THHMMSS][Z]"

    /// Reads `text` with ``DateExpression`` (also `now`, `tomorrow 9:00`, `fri`, `+2h`, …).
    init(_ text: String, now: Instant, zone: ZoneRules) throws(DateExpressionError) {
        switch try DateExpression.parse(text, now: now, zone: zone) {
        case .date(let d): self = .date(d)
        case .local(let l): self = .local(l)
        case .instant(let i): self = .instant(i)
        }
    }

    /// Reads `text`, taking `now` from the system clock and civil dates on UTC.
    init?(_ text: String) {
        let now = Instant(secondsSince1970: Int64(Date().timeIntervalSince1970.rounded(.down)))
        guard let value = try? DateArgument(text, now: now, zone: .utc) else { return nil }
        self = value
    }

    /// The instant this value names, reading wall times on `zone`.
    func instant(in zone: ZoneRules) -> Instant {
        switch self {
        case .date(let d): return zone.instant(for: LocalDateTime(date: d))
        case .local(let l): return zone.instant(for: l)
        case .instant(let i): return i
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

/// Reads a `--tz`/`tzid` value: `UTC`, `floating`, or an IANA zone name.
enum ZoneArgument {
    case floating
    case zone(ZoneRules)

    init(_ text: String) throws(TimeZoneError) {
        if text.lowercased() == "floating" { self = .floating } else { self = .zone(try ZoneRules.named(text)) }
    }
}
