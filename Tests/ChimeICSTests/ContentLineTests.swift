import ChimeCore
import ChimeICS
import Testing

@Suite struct ContentLineTests {
    @Test func unfoldsCRLFLFAndLoneCRIncludingFoldsInsideUTF8() throws {
        let text = "SUMMARY:Caf\u{E9} \u{2713}"
        var bytes = Array(text.utf8)
        // Fold inside the two-byte é and inside the three-byte ✓.
        let e = bytes.firstIndex(of: 0xC3)! + 1
        bytes.insert(contentsOf: [0x0D, 0x0A, 0x20], at: e)
        let check = bytes.lastIndex(of: 0xE2)! + 2
        bytes.insert(contentsOf: [0x0A, 0x09], at: check)
        let lines = try ContentLines.parse(bytes + Array("\rUID:x\r".utf8), file: "t.ics")
        #expect(lines.map(\.name) == ["SUMMARY", "UID"])
        #expect(lines[0].value == "Caf\u{E9} \u{2713}")
        #expect(lines[1].line == 4)  // SUMMARY spans physical lines 1–3
    }

    @Test func parametersWithQuotedValuesAndLists() throws {
        let line = try ContentLines.parse(
            Array(#"ATTENDEE;CN="Doe, Jane";DELEGATED-TO="mailto:a@x","mailto:b@x";x-custom=1:mailto:jane@x"#.utf8), file: "t.ics")[0]
        #expect(line.parameter("CN") == "Doe, Jane")
        #expect(line.parameters[1].values == ["mailto:a@x", "mailto:b@x"])
        #expect(line.parameter("X-CUSTOM") == "1")
        #expect(line.value == "mailto:jane@x")
        #expect(line.contentLine == #"ATTENDEE;CN="Doe, Jane";DELEGATED-TO="mailto:a@x","mailto:b@x";X-CUSTOM=1:mailto:jane@x"#)
    }

    @Test func textEscapesRoundTrip() {
        let raw = #"a\, b\; c\\ d\nE\N"#
        #expect(ICSText.unescape(raw) == "a, b; c\\ d\nE\n")
        #expect(ICSText.unescape(#"Grüße\, 日本\n東京\é"#) == "Grüße, 日本\n東京é", "escapes among non-ASCII text")
        #expect(ICSText.unescape(#"trailing\"#) == #"trailing\"#)
        #expect(ICSText.escape("a, b; c\\ d\ne") == #"a\, b\; c\\ d\ne"#)
    }

    @Test func malformedLinesNameTheLine() {
        #expect(throws: ICSError(file: "t.ics", line: 2, property: "SUMMARY", "missing ':' before the value")) {
            try ContentLines.parse(Array("UID:1\nSUMMARY;X=1\n".utf8), file: "t.ics")
        }
        #expect(throws: ICSError(file: "t.ics", line: 1, "invalid UTF-8")) {
            try ContentLines.parse([0x53, 0x3A, 0xFF, 0xFE], file: "t.ics")
        }
    }

    @Test func exportFoldsAt75OctetsOnCharacterBoundariesWithCRLF() throws {
        var e = Event(
            title: String(repeating: "\u{2713}é\u{1F600}a", count: 60), calendar: "c",
            start: .utc(LocalDateTime(year: 2026, month: 12, day: 1, hour: 9)), duration: 3600)
        e.externalIdentifier = "fold-test"
        let bytes = ICalendar.serialize([.event(e)], now: Instant(secondsSince1970: 0), floatingZone: .utc)
        let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast()
        for line in lines {
            #expect(line.last == 0x0D)
            #expect(line.count - 1 <= 75)
            #expect(String(validating: line, as: UTF8.self) != nil, "a fold split a character")
        }
        let back = try ICalendar.parse(bytes, file: "fold.ics")
        #expect(back.items.first.map { if case .event(let x) = $0.item { return x.title } else { return "" } } == e.title)
    }
}
