import ChimeCore

/// TEXT escaping (RFC 5545 §3.3.11): `\\`, `\;`, `\,`, `\n`.
public enum ICSText {
    /// The value with its TEXT escapes undone: `ICSText.unescape("a\\, b\\nc")` is `"a, b\nc"`.
    public static func unescape(_ value: String) -> String {
        // On UTF-8 bytes: every escape is ASCII, and walking Characters was a large part of a
        // sync's parse. A backslash before a non-ASCII character drops, as before any other.
        let bytes = value.utf8
        guard bytes.contains(UInt8(ascii: "\\")) else { return value }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var escaped = false
        for byte in bytes {
            if escaped {
                // \\ \; \, and, tolerantly, anything else as itself
                out.append(byte == UInt8(ascii: "n") || byte == UInt8(ascii: "N") ? UInt8(ascii: "\n") : byte)
                escaped = false
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            } else {
                out.append(byte)
            }
        }
        if escaped { out.append(UInt8(ascii: "\\")) }
        return String(decoding: out, as: UTF8.self)
    }

    /// TEXT escaping: ``ICalendarText/escaped(_:)``, the one escaper.
    public static func escape(_ value: String) -> String { ICalendarText.escaped(value) }
}

/// Reading DATE, DATE-TIME, DURATION, UTC-OFFSET and PERIOD values with their TZID.
struct ValueReader {
    let file: String
    /// TZID → zone, from the file's VTIMEZONEs, IANA names and Windows names.
    let zones: ZoneResolver

    func fail(_ p: ICSProperty, _ message: String) -> ICSError {
        ICSError(file: file, line: p.line, property: p.name, message)
    }

    func fail(_ p: ICSProperty, _ text: MessageText) -> ICSError {
        ICSError(file: file, line: p.line, property: p.name, text)
    }

    /// DTSTART, DTEND, DUE, RECURRENCE-ID: all-day, UTC, zoned (TZID) or floating.
    func calendarDate(_ p: ICSProperty) throws(ICSError) -> CalendarDate {
        try calendarDate(p, text: p.value)
    }

    /// The same, repairing a TZID no zone matches: the time is read as floating, and said.
    func calendarDate(_ p: ICSProperty, repairs: RepairLog) throws(ICSError) -> CalendarDate {
        try calendarDate(p, text: p.value, repairs: repairs)
    }

    func calendarDate(_ p: ICSProperty, text: String, repairs: RepairLog? = nil) throws(ICSError) -> CalendarDate {
        let trimmed = text.trimmingSpaces
        guard let basic = BasicDateTime.parse(trimmed) else {
            let kind = p.parameter("VALUE")?.asciiUppercased == "DATE" ? "date" : "date-time"
            throw fail(p, "invalid \(kind) \"\(trimmed)\"")
        }
        switch basic {
        case .date(let d): return .allDay(d)
        case .utc(let l): return .utc(l)
        case .local(let l):
            if let tzid = p.parameter("TZID") {
                guard let zone = zones.zone(tzid) else {
                    let problem = fail(p, MessageText("unknown time zone \"{tzid}\" (no VTIMEZONE, IANA or Windows name matches)", ["tzid": tzid]))
                    guard let repairs else { throw problem }
                    try repairs.note(problem, MessageText("read as floating time (the system zone's wall clock)"))
                    return .floating(l)
                }
                if zone.isUTC { return .utc(l) }
                // A definition of the file's that no tzdata or POSIX zone can stand for cannot be
                // named in the store: keep the exact instant (the reader has said so in a warning).
                if zones.needsUTCFallback(zone) { return .utc(zone.instant(for: l).utc) }
                return .zoned(l, zone)
            }
            if let zone = zones.floatingDefault { return .wallTime(l, in: zone) }
            return .floating(l)
        }
    }

    /// RDATE / EXDATE lists (comma-separated; PERIOD values keep their start).
    func dates(_ p: ICSProperty, repairs: RepairLog? = nil) throws(ICSError) -> [CalendarDate] {
        var result: [CalendarDate] = []
        for part in p.value.split(separator: ",") {
            let start = part.split(separator: "/", maxSplits: 1).first.map(String.init) ?? ""
            result.append(try calendarDate(p, text: start, repairs: repairs))
        }
        return result
    }

    func duration(_ p: ICSProperty) throws(ICSError) -> Int64 {
        guard let seconds = ISODuration.seconds(p.value.trimmingSpaces) else { throw fail(p, MessageText("invalid duration \"{value}\"", ["value": p.value])) }
        return seconds
    }

    func integer(_ p: ICSProperty, in range: ClosedRange<Int>) throws(ICSError) -> Int {
        guard let n = Int(p.value.trimmingSpaces), range.contains(n) else {
            throw fail(p, "must be a whole number \(range.lowerBound)…\(range.upperBound), not \"\(p.value)\"")
        }
        return n
    }

    /// DTSTAMP, COMPLETED, LAST-MODIFIED, absolute TRIGGER: UTC date-times (floating read as UTC).
    func instant(_ p: ICSProperty) throws(ICSError) -> Instant {
        switch try calendarDate(p) {
        case .utc(let l), .floating(let l): return Instant(utc: l)
        case .allDay(let d): return Instant(secondsSince1970: Int64(d.daysSinceEpoch) * 86_400)
        case .zoned(let l, let z): return z.instant(for: l)
        }
    }
}

extension String {
    /// Whether this value, spaces and tabs around it aside, is `keyword` (upper-case ASCII) in any
    /// case: `trimmingSpaces.asciiUppercased == keyword`, read on the bytes without making either
    /// string when the value is ASCII (every VALARM's ACTION and TRIGGER are asked it). A value
    /// that is not ASCII is decided the long way, whose Unicode case rules it keeps.
    ///
    /// ```swift
    /// " none ".isKeyword("NONE")   // true
    /// ```
    func isKeyword(_ keyword: StaticString) -> Bool {
        var text = self
        let answer: Bool? = text.withUTF8 { b in
            keyword.withUTF8Buffer { k in
                var lo = 0, hi = b.count
                while lo < hi, b[lo] == 32 || b[lo] == 9 { lo += 1 }
                while hi > lo, b[hi - 1] == 32 || b[hi - 1] == 9 { hi -= 1 }
                for i in lo..<hi where b[i] >= 0x80 { return nil }
                guard hi - lo == k.count else { return false }
                for i in 0..<k.count {
                    let c = b[lo + i]
                    if (c >= 97 && c <= 122 ? c - 32 : c) != k[i] { return false }
                }
                return true
            }
        }
        return answer ?? (trimmingSpaces.asciiUppercased == keyword.description)
    }

    var trimmingSpaces: String {
        // Most values have nothing to trim: no copy then.
        if let first = utf8.first, let last = utf8.last, first != 32, first != 9, last != 32, last != 9 { return self }
        var s = Substring(self)
        while let c = s.first, c == " " || c == "\t" { s.removeFirst() }
        while let c = s.last, c == " " || c == "\t" { s.removeLast() }
        return String(s)
    }
}
