import Foundation
@testable import ChimeCore

// Test-side helpers for writing expectations as wall-clock strings with their UTC offset,
// e.g. "1997-09-02T09:00:00-04:00". The calendar arithmetic here is Foundation's, not ChimeCore's,
// so a bug in ChimeCore's civil arithmetic cannot cancel itself out.

enum ExpectedTimes {
    /// Foundation's Gregorian calendar on UTC: an implementation of civil dates that shares no
    /// code with ChimeCore's (valid for the years these tests use, after 1582).
    static let utcGregorian: Foundation.Calendar = {
        var calendar = Foundation.Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    /// Days since 1970-01-01 of a Gregorian date.
    static func daysFromCivil(_ year: Int, _ month: Int, _ day: Int) -> Int64 {
        let date = utcGregorian.date(from: DateComponents(year: year, month: month, day: day))!
        return Int64((date.timeIntervalSince1970 / 86_400).rounded(.down))
    }

    /// (year, month, day) of a day count since 1970-01-01.
    static func civilFromDays(_ days: Int64) -> (year: Int, month: Int, day: Int) {
        let c = utcGregorian.dateComponents([.year, .month, .day], from: Date(timeIntervalSince1970: Double(days) * 86_400))
        return (c.year!, c.month!, c.day!)
    }

    static func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
    static func four(_ v: Int) -> String { String(repeating: "0", count: max(0, 4 - String(v).count)) + String(v) }

    /// `"+HH:MM"` / `"-HH:MM"` for an offset in seconds east of UTC.
    static func offsetText(_ seconds: Int) -> String {
        let sign = seconds < 0 ? "-" : "+"
        let a = abs(seconds)
        return sign + two(a / 3600) + ":" + two(a / 60 % 60)
    }

    /// `YYYY-MM-DDTHH:MM:SS±HH:MM` for wall-clock seconds and an offset.
    static func format(localSeconds l: Int64, offset: Int) -> String {
        let days = l >= 0 ? l / 86_400 : (l - 86_399) / 86_400
        let rest = Int(l - days * 86_400)
        let d = civilFromDays(days)
        return "\(four(d.year))-\(two(d.month))-\(two(d.day))T\(two(rest / 3600)):\(two(rest / 60 % 60)):\(two(rest % 60))"
            + offsetText(offset)
    }

    /// An instant as the zone's wall clock with the zone's offset at that instant.
    static func format(_ instant: Instant, in zone: ZoneRules) -> String {
        let offset = Int(zone.offset(at: instant))
        return format(localSeconds: instant.secondsSince1970 + Int64(offset), offset: offset)
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS±HH:MM` or `…Z` into an instant.
    static func instant(_ text: String) -> Instant {
        let c = Array(text.utf8)
        func num(_ from: Int, _ count: Int) -> Int {
            var v = 0
            for i in from..<(from + count) {
                precondition(c[i] >= 48 && c[i] <= 57, "bad expected time \(text)")
                v = v * 10 + Int(c[i] - 48)
            }
            return v
        }
        precondition(c.count == 20 || c.count == 25, "bad expected time \(text)")
        let local =
            daysFromCivil(num(0, 4), num(5, 2), num(8, 2)) * 86_400
            + Int64(num(11, 2) * 3600 + num(14, 2) * 60 + num(17, 2))
        if c.count == 20 { return Instant(secondsSince1970: local) }
        let offset = (num(20, 2) * 3600 + num(23, 2) * 60) * (c[19] == UInt8(ascii: "-") ? -1 : 1)
        return Instant(secondsSince1970: local - Int64(offset))
    }

    /// Wall-clock fields to a `LocalDateTime` (for building DTSTARTs and EXDATEs).
    static func local(_ y: Int, _ mo: Int, _ d: Int, _ h: Int = 0, _ mi: Int = 0, _ s: Int = 0) -> LocalDateTime {
        LocalDateTime(year: y, month: mo, day: d, hour: h, minute: mi, second: s)
    }

    /// Expected wall times on a list of days of one month, the way RFC 5545 writes them:
    /// `days(1997, 9, [2, 4, 6], "09:00", "-04:00")` is "(1997 9:00 AM EDT) September 2,4,6".
    static func days(_ year: Int, _ month: Int, _ days: [Int], _ time: String, _ offset: String) -> [String] {
        days.map { "\(four(year))-\(two(month))-\(two($0))T\(time):00\(offset)" }
    }

    /// Expected wall times at several times of day on one date: `times(1997, 9, 2, ["09:00", "12:00"], "-04:00")`.
    static func times(_ year: Int, _ month: Int, _ day: Int, _ times: [String], _ offset: String) -> [String] {
        times.map { "\(four(year))-\(two(month))-\(two(day))T\($0):00\(offset)" }
    }
}

extension Occurrence {
    /// This occurrence's instant on `zone`'s wall clock, with the offset in effect then.
    func wallClock(in zone: ZoneRules) -> String { ExpectedTimes.format(instant, in: zone) }
}

extension Array where Element == Occurrence {
    func wallClock(in zone: ZoneRules) -> [String] { map { $0.wallClock(in: zone) } }
}
