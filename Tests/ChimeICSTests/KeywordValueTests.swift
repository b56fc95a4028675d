import ChimeCore
import Testing

@testable import ChimeICS

/// A keyword value (ACTION:NONE, STATUS:CANCELLED, Apple's placeholder TRIGGER) read on its bytes
/// answers as the strings did: trimmed of spaces and tabs, upper-cased, compared.
@Suite("iCalendar keyword values, read on their bytes")
struct KeywordValueTests {
    @Test func answersAsTheTrimmedUpperCasedValue() {
        let values = [
            "NONE", "none", " NoNe\t", "\t\tNONE  ", "NONEX", "NON", "", " ", "N ONE",
            // Not ASCII: decided by Unicode's case rules, as before (a dotless ı upper-cases to I).
            "emaıl", "EMAİL", "NONE\u{301}", " \u{301}NONE", "ＮＯＮＥ", "EMAIL", "Email ",
            "19760401t005545z", " 19760401T005545Z ", "19760401T005545"
        ]
        for value in values {
            for keyword: StaticString in ["NONE", "EMAIL", "CANCELLED", "19760401T005545Z", "N"] {
                #expect(
                    value.isKeyword(keyword) == (value.trimmingSpaces.asciiUppercased == keyword.description),
                    "\(value.debugDescription) as \(keyword)")
            }
        }
        #expect(" none ".isKeyword("NONE"))
        #expect("emaıl".isKeyword("EMAIL"))
        #expect(!"NONE!".isKeyword("NONE"))
    }
}

/// A rule text met again in the same file is read from the first reading, and reads the same.
@Suite("iCalendar rules read once per text")
struct ParsedRulesTests {
    @Test func aRepeatedRuleReadsAsItsText() throws {
        func event(_ uid: String, _ rule: String) -> String {
            "BEGIN:VEVENT\r\nUID:\(uid)\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:20260105T100000Z\r\nDTEND:20260105T110000Z\r\n"
                + "RRULE:\(rule)\r\nSUMMARY:x\r\nEND:VEVENT\r\n"
        }
        let rules = ["FREQ=WEEKLY;BYDAY=MO,WE", "FREQ=WEEKLY;BYDAY=MO,WE", "FREQ=DAILY;COUNT=3", "FREQ=WEEKLY;BYDAY=MO,WE"]
        let text =
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Test//EN\r\n"
            + rules.enumerated().map { event("u\($0.offset)", $0.element) }.joined() + "END:VCALENDAR\r\n"
        let read = try ICalendar.parse(Array(text.utf8), file: "rules.ics")
        #expect(read.items.count == 4)
        for item in read.items {
            guard case .event(let e) = item.item, let index = Int(item.uid.dropFirst()) else {
                Issue.record("not an event: \(item.uid)")
                continue
            }
            #expect(e.recurrenceRules == [try RecurrenceRule(parsing: rules[index])], "\(item.uid)")
        }
        let memo = ParsedRules()
        for n in 0..<(ParsedRules.limit + 10) { memo.remember(try RecurrenceRule(parsing: "FREQ=DAILY;COUNT=\(n + 1)"), for: "\(n)") }
        #expect(memo.byText.count == ParsedRules.limit)
    }
}
