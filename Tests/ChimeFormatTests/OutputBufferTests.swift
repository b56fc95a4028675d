import ChimeCore
import Testing
@testable import ChimeFormat

/// The byte writer's dates against ChimeCore's formatting: the writer remembers the last days
/// and the last month it wrote, and the last time of day, and writes another day of that month
/// without a calendar conversion, which must hold across month, year and leap-day boundaries,
/// backwards jumps and years outside 0…9999.
@Suite struct OutputBufferTests {
    @Test func daysWrittenInAnyOrderMatchTheCalendar() {
        var out = OutputBuffer(toStandardOutput: false)
        var expected = ""
        // Every day from 1999-12-01 to 2001-03-31 in order (steps of one), then jumps back and forth.
        let first = CivilDate(year: 1999, month: 12, day: 1).daysSinceEpoch
        let days = Array(first...(first + 486)) + [first + 40, first, first + 1, -719_468, -1, 0, 2_932_897, 2_932_896, first + 59]
        for d in days {
            out.appendBasic(days: d)
            out.append(byte: UInt8(ascii: " "))
            expected += CivilDate(daysSinceEpoch: d).basicFormat + " "
        }
        #expect(out.pendingText == expected)
    }

    /// Another day of the month last worked out changes only the day's digits; a time of day
    /// like the last one is copied: weekly and odd steps, backwards, across February in leap and
    /// common years (2100 is not leap), each time of day repeated and alternated.
    @Test func stepsWithinAndAcrossMonthsAndRepeatedTimesMatchTheCalendar() {
        var out = OutputBuffer(toStandardOutput: false)
        var expected = ""
        var seconds: [Int64] = []
        for (year, step) in [(2028, 7), (2100, 7), (2027, 13), (2026, 31), (2028, -3), (2100, 1)] {
            var l = LocalDateTime(year: year, month: 1, day: 25, hour: 9, minute: 0).localSeconds
            for i in 0..<60 {
                seconds.append(l)
                // The same time of day most of the time, another now and then.
                seconds.append(l + (i % 5 == 0 ? 3_723 : 0))
                l += Int64(step) * 86_400
            }
        }
        for (i, s) in seconds.enumerated() {
            let utc = i % 2 == 0
            out.appendBasic(localSeconds: s, quoted: true, utc: utc, comma: i % 3 == 0)
            expected += (i % 3 == 0 ? "," : "") + "\"" + LocalDateTime(localSeconds: s).basicFormat + (utc ? "Z" : "") + "\""
            out.appendBasic(days: LocalDateTime.day(ofLocalSeconds: s) + (i % 7 == 0 ? 40 : 0))
            expected += CivilDate(daysSinceEpoch: LocalDateTime.day(ofLocalSeconds: s) + (i % 7 == 0 ? 40 : 0)).basicFormat
        }
        #expect(out.pendingText == expected)
    }

    @Test func dateTimesQuotedAndUTCMatchTheCalendar() {
        var out = OutputBuffer(toStandardOutput: false)
        var expected = ""
        let start = LocalDateTime(year: 2028, month: 2, day: 27, hour: 22, minute: 30).localSeconds
        for step in stride(from: Int64(0), through: 4 * 86_400, by: 5_400) {
            let s = start + step
            let comma = step % 3 == 0
            out.appendBasic(localSeconds: s, quoted: true, utc: step % 2 == 0, comma: comma)
            out.appendBasic(localSeconds: s)
            expected +=
                (comma ? "," : "") + "\"" + LocalDateTime(localSeconds: s).basicFormat + (step % 2 == 0 ? "Z" : "") + "\""
                + LocalDateTime(localSeconds: s).basicFormat
        }
        // Before year 0: the slow path, same bytes as the calendar's own text.
        let ancient = LocalDateTime(year: -1, month: 12, day: 31, hour: 23, minute: 59, second: 59).localSeconds
        out.appendBasic(localSeconds: ancient, quoted: true, utc: true, comma: true)
        #expect(out.pendingText.hasPrefix(expected))
        #expect(out.pendingText.dropFirst(expected.utf8.count).hasSuffix("1231T235959Z\""))
        #expect(out.pendingText.dropFirst(expected.utf8.count).hasPrefix(",\""))
    }

    /// The extended forms (`agenda --json`) keep the last two days' digits: local and UTC times
    /// alternate between two days, and a cached day must never be written for another.
    @Test func extendedDatesAndTimesMatchTheCalendar() {
        var out = OutputBuffer(toStandardOutput: false)
        var expected = ""
        func extended(_ l: LocalDateTime) -> String {
            let d = l.date
            func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
            let year = String(repeating: "0", count: max(0, 4 - String(d.year).count)) + String(d.year)
            return "\(year)-\(two(d.month))-\(two(d.day))T\(two(l.hour)):\(two(l.minute)):\(two(l.second))"
        }
        // A local time and a UTC time five hours later, hour by hour across a year end and a
        // leap day, then days alone, in and out of order.
        let start = LocalDateTime(year: 2027, month: 12, day: 30, hour: 17, minute: 5, second: 9).localSeconds
        for step in stride(from: Int64(0), through: 70 * 86_400, by: 3_600) {
            let local = start + step, utc = local + 5 * 3_600
            out.appendExtended(localSeconds: local); out.append(byte: 32)
            out.appendExtended(localSeconds: utc); out.append(byte: 32)
            expected += extended(LocalDateTime(localSeconds: local)) + " " + extended(LocalDateTime(localSeconds: utc)) + " "
        }
        let first = CivilDate(year: 2028, month: 2, day: 27).daysSinceEpoch
        for d in [first, first + 1, first + 2, first, -1, 0, first + 2, 2_932_896] {
            out.appendExtended(days: d); out.append(byte: 32)
            expected += String(extended(LocalDateTime(date: CivilDate(daysSinceEpoch: d))).prefix(10)) + " "
        }
        #expect(out.pendingText == expected)
    }

    /// `JSONText.string` (labels built once per event) and the byte writer's `appendJSON` (each
    /// occurrence's fields) write the same JSON for plain text, text needing escapes and text
    /// outside ASCII, whichever of their fast paths takes it.
    @Test func jsonStringsAreTheSameFromBothWriters() {
        let quote = "\"", backslash = "\\"
        let cases: [(String, String)] = [
            ("Stand-up", quote + "Stand-up" + quote),
            ("", quote + quote),
            ("say " + quote + "hi" + quote, quote + "say " + backslash + quote + "hi" + backslash + quote + quote),
            ("back" + backslash + "slash", quote + "back" + backslash + backslash + "slash" + quote),
            ("two\nlines\ttab\r", quote + "two" + backslash + "nlines" + backslash + "ttab" + backslash + "r" + quote),
            ("bell\u{07}", quote + "bell" + backslash + "u0007" + quote),
            ("del\u{7F}", quote + "del" + backslash + "u007f" + quote),
            ("Café ☕", quote + "Café ☕" + quote),
            ("C1\u{85}", quote + "C1" + backslash + "u0085" + quote),
            ("bidi\u{202E}txt", quote + "bidi" + backslash + "u202etxt" + quote)
        ]
        for (text, expected) in cases {
            #expect(JSONText.string(text) == expected, "\(text.debugDescription)")
            var out = OutputBuffer(toStandardOutput: false)
            out.appendJSON(text)
            #expect(out.pendingText == expected, "\(text.debugDescription)")
        }
        // An array of them, written into one buffer, is the array of their texts.
        let texts = cases.map(\.0)
        #expect(JSONText.stringArray(texts) == "[" + cases.map(\.1).joined(separator: ",") + "]")
        #expect(JSONText.stringArray([]) == "[]")
        #expect(JSONText.stringArray(["only"]) == "[" + quote + "only" + quote + "]")
    }

    @Test func timeColumnIsOneWriteOfTwoTimes() {
        var out = OutputBuffer(toStandardOutput: false)
        out.append(hour: 9, minute: 5, to: 23, minute: 59)
        out.append(hour: 0, minute: 0, to: 0, minute: 0)
        #expect(out.pendingText == "09:05-23:59  00:00-00:00  ")
    }
}
