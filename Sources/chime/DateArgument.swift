import ChimeCore

/// A date or date-time typed on the command line: ISO 8601 (`2026-03-08`, `2026-03-08T02:30`,
/// `2026-03-08T02:30:00Z`, `2026-03-08T02:30:00+01:00`) or the RFC 5545 basic form
/// (`20260308`, `20260308T023000`, `20260308T023000Z`).
enum DateArgument: Equatable {
    case date(CivilDate)
    case local(LocalDateTime)
    case instant(Instant)

    static let accepted = "YYYY-MM-DD[THH:MM[:SS]][Z|±HH:MM] or YYYYMMDD[THHMMSS][Z]"

    init?(_ text: String) {
        if let basic = BasicDateTime.parse(text) {
            switch basic {
            case .date(let d): self = .date(d)
            case .local(let l): self = .local(l)
            case .utc(let l): self = .instant(Instant(secondsSince1970: l.localSeconds))
            }
            return
        }
        guard let parsed = DateArgument.parseISO(Array(text.utf8)) else { return nil }
        self = parsed
    }

    private static func parseISO(_ b: [UInt8]) -> DateArgument? {
        func num(_ at: Int, _ count: Int) -> Int? {
            guard at + count <= b.count else { return nil }
            var v = 0
            for i in at..<(at + count) {
                guard b[i] >= 48 && b[i] <= 57 else { return nil }
                v = v * 10 + Int(b[i] - 48)
            }
            return v
        }
        func char(_ at: Int, _ c: Character) -> Bool { at < b.count && b[at] == c.asciiValue! }
        guard let y = num(0, 4), char(4, "-"), let mo = num(5, 2), char(7, "-"), let d = num(8, 2) else { return nil }
        let date = CivilDate(year: y, month: mo, day: d)
        guard date.isValid else { return nil }
        if b.count == 10 { return .date(date) }
        guard char(10, "T") || char(10, " "), let h = num(11, 2), char(13, ":"), let mi = num(14, 2), h < 24, mi < 60 else { return nil }
        var i = 16
        var s = 0
        if char(16, ":") {
            guard let sec = num(17, 2), sec < 60 else { return nil }
            s = sec
            i = 19
        }
        let local = LocalDateTime(date: date, hour: h, minute: mi, second: s)
        if i == b.count { return .local(local) }
        if char(i, "Z") && i + 1 == b.count { return .instant(Instant(secondsSince1970: local.localSeconds)) }
        guard char(i, "+") || char(i, "-"), let oh = num(i + 1, 2) else { return nil }
        var om = 0
        if char(i + 3, ":"), let m = num(i + 4, 2), i + 6 == b.count { om = m } else if i + 3 != b.count { return nil }
        let sign: Int64 = char(i, "+") ? 1 : -1
        return .instant(Instant(secondsSince1970: local.localSeconds - sign * Int64(oh * 3600 + om * 60)))
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
