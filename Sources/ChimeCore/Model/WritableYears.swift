/// The years a stored or exported date can have: iCalendar writes four-digit years (RFC 5545
/// §3.3.4), so 0000-01-01 … 9999-12-31, and Chime's store uses the same text. A value outside
/// (an event starting on 9999-12-31 at 23:00 that lasts two hours) could be saved but never read
/// back; ``Event/validate()`` and ``Reminder/validate()`` refuse it instead.
///
/// ```swift
/// WritableYears.contains(LocalDateTime(year: 9999, month: 12, day: 31, hour: 23))   // true
/// WritableYears.contains(LocalDateTime(year: 10000, month: 1, day: 1))              // false
/// ```
public enum WritableYears {
    public static let first = LocalDateTime(year: 0, month: 1, day: 1)
    public static let last = LocalDateTime(year: 9999, month: 12, day: 31, hour: 23, minute: 59, second: 59)

    public static func contains(_ local: LocalDateTime) -> Bool {
        local.localSeconds >= first.localSeconds && local.localSeconds <= last.localSeconds
    }

    public static func contains(_ instant: Instant) -> Bool {
        instant.secondsSince1970 >= first.localSeconds && instant.secondsSince1970 <= last.localSeconds
    }

    /// Throws ``ItemValidationError/outsideWritableYears(field:value:)`` naming `field` when the
    /// value, or the instant it names (floating and all-day values read as UTC, ±14 h), is outside.
    static func check(_ date: CalendarDate, field: String) throws(ItemValidationError) {
        let local = date.local
        var ok = contains(local)
        if ok, case .zoned(_, let zone) = date { ok = contains(zone.instant(for: local)) }
        // A floating or all-day value is read in whatever zone the system has: keep 14 hours of margin.
        if ok, date.isFloating {
            ok =
                contains(Instant(secondsSince1970: local.localSeconds - 14 * 3600))
                && contains(Instant(secondsSince1970: local.localSeconds + 14 * 3600))
        }
        guard ok else { throw .outsideWritableYears(field: field, value: Self.text(local)) }
    }

    static func check(_ date: RecurrenceDate, field: String) throws(ItemValidationError) {
        switch date {
        case .date(let d): guard contains(LocalDateTime(date: d)) else { throw .outsideWritableYears(field: field, value: text(LocalDateTime(date: d))) }
        case .local(let l): guard contains(l) else { throw .outsideWritableYears(field: field, value: text(l)) }
        case .instant(let i): guard contains(i) else { throw .outsideWritableYears(field: field, value: text(i.utc) + "Z") }
        }
    }

    /// Readable even for years that have more than four digits or are negative.
    static func text(_ l: LocalDateTime) -> String {
        let d = l.date
        return "\(d.year)-\(pad(d.month, 2))-\(pad(d.day, 2))T\(pad(l.hour, 2)):\(pad(l.minute, 2))"
    }
}

extension RecurrenceRule {
    /// Throws when UNTIL lies outside the writable years.
    func checkWritableYears() throws(ItemValidationError) {
        guard case .until(let until) = end else { return }
        switch until {
        case .date(let d): try WritableYears.check(.date(d), field: "UNTIL")
        case .local(let l): try WritableYears.check(.local(l), field: "UNTIL")
        case .utc(let i): try WritableYears.check(.instant(i), field: "UNTIL")
        }
    }
}
