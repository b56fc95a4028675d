import ChimeCore

/// Reads a `--tz`/`tzid` value: `UTC`, `floating`, or an IANA zone name.
public enum ZoneArgument {
    case floating
    case zone(ZoneRules)

    public init(_ text: String) throws(TimeZoneError) {
        if text.lowercased() == "floating" { self = .floating } else { self = .zone(try ZoneRules.named(text)) }
    }
}

extension ZoneArgument {
    /// The recurrence set's start for a DTSTART read in this zone, the one mapping `chime expand`
    /// and `chime expand --batch` share: a date is all day; a wall time is floating, or on the
    /// zone's clock; a UTC instant stays UTC when floating, else becomes the zone's wall time at
    /// that instant.
    public func recurrenceStart(_ start: DateValue) -> RecurrenceStart {
        switch (start, self) {
        case (.date(let d), _): return .allDay(d)
        case (.local(let l), .floating): return .floating(l)
        case (.local(let l), .zone(let z)): return .wallTime(l, in: z)
        case (.instant(let i), .floating): return .utc(i.utc)
        case (.instant(let i), .zone(let z)): return .wallTime(at: i, in: z)
        }
    }
}
