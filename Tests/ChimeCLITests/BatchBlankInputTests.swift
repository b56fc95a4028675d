import Foundation
import ChimeTestKit
import Testing

@Suite("chime expand --batch: blank lines and blank rules")
struct BatchBlankInputTests {
    @Test func whitespaceOnlyLinesAreEmptyLinesAndOtherInvisiblesAreNot() throws {
        // Tab, the Zs category (space, no-break space, ideographic space) and the zero-width
        // space are blank, as Foundation's .whitespaces has them; a word joiner is not.
        let lines = [" \t ", "\u{00A0}\u{3000}", "\u{200B}", "\u{2060}"]
        let r = try CLI.run(["expand", "--batch"], stdin: lines.joined(separator: "\n") + "\n")
        #expect(r.status == 0)
        #expect(
            r.stdout == """
                {"id":null,"error":"empty line"}
                {"id":null,"error":"empty line"}
                {"id":null,"error":"empty line"}
                {"id":null,"error":"not valid JSON"}

                """)
    }

    @Test func aBlankRuleIsNoRule() throws {
        let line = #"{"id":"b","dtstart":"20260101T080000","tzid":"UTC","rrule":[" \t","\u3000"],"rdate":["20260102T080000"]}"#
        let r = try CLI.run(["expand", "--batch"], stdin: line + "\n")
        #expect(r.stdout == #"{"id":"b","local":["20260101T080000","20260102T080000"],"utc":["20260101T080000Z","20260102T080000Z"]}"# + "\n")
    }
}
