extension TrackFile {
    /// Milliseconds since 1970 for a time in a track file, or nil.
    ///
    /// The date-time forms are those of ``DateExpression`` (ISO 8601 `2026-11-23T07:30:00Z`,
    /// `…+01:00`, RFC 5545 basic `20261123T073000Z`), plus fractional seconds (`07:30:00.25Z`,
    /// `073000.25Z`; digits past milliseconds are dropped). A time without `Z` or an offset is
    /// read as UTC, as GPX prescribes; a date alone is not a time. With `epochSeconds`, a plain
    /// number (`1795412400`, `1795412400.5`) is seconds since 1970 (so `20261123` is too).
    static func timeMilliseconds(_ raw: ArraySlice<UInt8>, epochSeconds: Bool) -> Int64? {
        var u = Array(trimmed(raw))
        guard let first = u.first else { return nil }
        if epochSeconds, let ms = epochMilliseconds(u) { return ms }
        // DateExpression also reads `now`, `tomorrow` and `+2h`: only dates that start with digits here.
        guard isDigit(first) else { return nil }
        var fraction: Int64 = 0
        if let dot = u.firstIndex(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: ",") }) {
            // Only a fraction of seconds: after `HH:MM:SS` or the basic `THHMMSS`.
            guard dot >= 7, isDigit(u[dot - 1]), isDigit(u[dot - 2]),
                u[dot - 3] == UInt8(ascii: ":") || u[dot - 7] == UInt8(ascii: "T") || u[dot - 7] == UInt8(ascii: "t")
            else { return nil }
            guard let (milliseconds, end) = fractionMilliseconds(u, from: dot + 1) else { return nil }
            fraction = milliseconds
            u.removeSubrange(dot..<end)
        }
        let value: DateValue
        do {
            value = try DateExpression.parse(String(decoding: u, as: UTF8.self), now: Instant(secondsSince1970: 0), zone: .utc)
        } catch {
            return nil
        }
        switch value {
        case .instant(let i): return i.secondsSince1970 * 1000 + fraction
        case .local(let l): return l.localSeconds * 1000 + fraction
        case .date: return nil
        }
    }

    /// `-?digits[.digits]` as seconds since 1970, in milliseconds (at most 12 integer digits).
    private static func epochMilliseconds(_ u: [UInt8]) -> Int64? {
        var i = 0
        let negative = u.first == UInt8(ascii: "-")
        if negative { i = 1 }
        var seconds: Int64 = 0
        var digits = 0
        while i < u.count, isDigit(u[i]) {
            seconds = seconds * 10 + Int64(u[i] - 48)
            digits += 1
            i += 1
        }
        guard digits > 0, digits <= 12 else { return nil }
        var fraction: Int64 = 0
        if i < u.count, u[i] == UInt8(ascii: ".") {
            guard let (milliseconds, end) = fractionMilliseconds(u, from: i + 1) else { return nil }
            fraction = milliseconds
            i = end
        }
        guard i == u.count else { return nil }
        let ms = seconds * 1000 + fraction
        return negative ? -ms : ms
    }

    /// The digits of a fraction of a second starting at `start`, as milliseconds (digits past the
    /// third are dropped), and where they end; nil when there is no digit.
    private static func fractionMilliseconds(_ u: [UInt8], from start: Int) -> (milliseconds: Int64, end: Int)? {
        var end = start
        var milliseconds: Int64 = 0
        while end < u.count, isDigit(u[end]) {
            if end - start < 3 { milliseconds = milliseconds * 10 + Int64(u[end] - 48) }
            end += 1
        }
        let digits = end - start
        guard digits > 0 else { return nil }
        for _ in digits..<max(digits, 3) { milliseconds *= 10 }
        return (milliseconds, end)
    }
}
