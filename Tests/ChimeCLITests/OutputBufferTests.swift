import ChimeCore
import Testing
@testable import chime

/// The byte writer's dates against ChimeCore's formatting: the writer remembers the last day it
/// wrote and steps to the next one without a calendar conversion, which must hold across month,
/// year and leap-day boundaries, backwards jumps and years outside 0…9999.
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

    @Test func dateTimesQuotedAndUTCMatchTheCalendar() {
        var out = OutputBuffer(toStandardOutput: false)
        var expected = ""
        let start = LocalDateTime(year: 2028, month: 2, day: 27, hour: 22, minute: 30).localSeconds
        for step in stride(from: Int64(0), through: 4 * 86_400, by: 5_400) {
            let s = start + step
            let comma = step % 3 == 0
            out.appendBasic(localSeconds: s, quoted: true, utc: step % 2 == 0, comma: comma)
            out.appendBasic(localSeconds: s)
            expected += (comma ? "," : "") + "\"" + LocalDateTime(localSeconds: s).basicFormat + (step % 2 == 0 ? "Z" : "") + "\""
                + LocalDateTime(localSeconds: s).basicFormat
        }
        // Before year 0: the slow path, same bytes as the calendar's own text.
        let ancient = LocalDateTime(year: -1, month: 12, day: 31, hour: 23, minute: 59, second: 59).localSeconds
        out.appendBasic(localSeconds: ancient, quoted: true, utc: true, comma: true)
        #expect(out.pendingText.hasPrefix(expected))
        #expect(out.pendingText.dropFirst(expected.utf8.count).hasSuffix("1231T235959Z\""))
        #expect(out.pendingText.dropFirst(expected.utf8.count).hasPrefix(",\""))
    }
}
