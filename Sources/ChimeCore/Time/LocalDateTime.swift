/// A wall-clock date and time with no zone attached ("local time" in RFC 5545 terms).
///
/// `localSeconds` counts seconds from 1970-01-01T00:00:00 *on the wall clock*, as if the
/// zone were UTC; zone rules turn it into an ``Instant``.
///
/// ```swift
/// let t = LocalDateTime(year: 2026, month: 3, day: 8, hour: 2, minute: 30)
/// ZoneRules.named("America/New_York")!.instant(for: t)  // 2026-03-08T07:30:00Z (03:30 EDT)
/// ```
public struct LocalDateTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var date: CivilDate
    public var hour: Int
    public var minute: Int
    public var second: Int

    public init(date: CivilDate, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        self.date = date
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        self.init(date: CivilDate(year: year, month: month, day: day), hour: hour, minute: minute, second: second)
    }

    /// The wall-clock reading `s` seconds from 1970-01-01T00:00:00. Total: a value beyond
    /// ``computableSeconds`` (more than a million years away) reads as that range's end, so no
    /// `Int64` traps here or in ``localSeconds`` afterwards.
    public init(localSeconds given: Int64) {
        let s = Self.computable(given)
        let days = Self.day(ofLocalSeconds: s)
        let rest = Int(s - Int64(days) * 86_400)
        self.init(date: CivilDate(daysSinceEpoch: days), hour: rest / 3600, minute: rest / 60 % 60, second: rest % 60)
    }

    /// The day (counted from 1970-01-01) of a wall-clock reading in seconds since
    /// 1970-01-01T00:00:00, rounding down before 1970.
    ///
    /// ```swift
    /// LocalDateTime.day(ofLocalSeconds: -1)   // -1: 1969-12-31
    /// ```
    @inline(__always) public static func day(ofLocalSeconds s: Int64) -> Int {
        // Floor division written so that no Int64 overflows (`s - 86_399` would, near Int64.min).
        Int(s >= 0 ? s / 86_400 : -1 - (-1 - s) / 86_400)
    }

    /// The seconds (either side of 1970) that calendar arithmetic is done on: about ±1.1 million
    /// years, far beyond any date a calendar can hold (0000–9999), far inside `Int64`, so that
    /// days × 86,400 plus any UTC offset never overflows. Readings beyond are clamped to it.
    public static let computableSeconds: ClosedRange<Int64> = -(1 << 45)...(1 << 45)

    /// `t` within ``computableSeconds``: two comparisons; dates a calendar can hold are never changed.
    @inline(__always)
    static func computable(_ t: Int64) -> Int64 {
        min(max(t, computableSeconds.lowerBound), computableSeconds.upperBound)
    }

    /// Wall-clock seconds since 1970-01-01T00:00:00.
    @inline(__always) public var localSeconds: Int64 {
        Int64(date.daysSinceEpoch) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    }

    public var isValid: Bool {
        date.isValid && (0..<24).contains(hour) && (0..<60).contains(minute) && (0..<61).contains(second)
    }

    public static func < (a: LocalDateTime, b: LocalDateTime) -> Bool { a.localSeconds < b.localSeconds }

    /// ISO 8601 extended form, `YYYY-MM-DDTHH:MM:SS`.
    public var description: String {
        civilText(date, time: (hour, minute, second), separated: true)
            ?? "\(date)T\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2))"
    }

    /// RFC 5545 basic form, `YYYYMMDDTHHMMSS`.
    public var basicFormat: String { basicFormat(then: nil) }

    /// ``basicFormat`` followed by the ASCII `marker` and `tail`, made as one string (a stored
    /// date's `Z` or `;ZONE`).
    func basicFormat(then marker: UInt8?, _ tail: String = "") -> String {
        precondition(marker.map { $0 < 0x80 } ?? true, "an ASCII marker")
        return civilText(date, time: (hour, minute, second), separated: false, marker: marker, tail: tail)
            ?? "\(date.basicFormat)T\(pad(hour, 2))\(pad(minute, 2))\(pad(second, 2))\(marker.map { String(UnicodeScalar($0)) } ?? "")\(tail)"
    }
}

/// A point on the UTC time line, in whole seconds (RFC 5545's resolution).
///
/// ```swift
/// let i = Instant(secondsSince1970: 0)
/// i.utcBasicFormat   // "19700101T000000Z"
/// ```
public struct Instant: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var secondsSince1970: Int64

    @inline(__always) public init(secondsSince1970: Int64) { self.secondsSince1970 = secondsSince1970 }

    public static func < (a: Instant, b: Instant) -> Bool { a.secondsSince1970 < b.secondsSince1970 }

    /// The UTC wall-clock reading of this instant.
    public var utc: LocalDateTime { LocalDateTime(localSeconds: secondsSince1970) }

    /// `YYYYMMDDTHHMMSSZ`.
    public var utcBasicFormat: String { utc.basicFormat(then: UInt8(ascii: "Z")) }

    public var description: String { utc.description + "Z" }
}

extension Instant {
    /// The instant whose UTC wall clock reads `wallTime`: the inverse of ``utc``.
    ///
    /// ```swift
    /// Instant(utc: LocalDateTime(year: 1970, month: 1, day: 2))   // secondsSince1970 86_400
    /// ```
    @inline(__always) public init(utc wallTime: LocalDateTime) { self.init(secondsSince1970: wallTime.localSeconds) }
}
