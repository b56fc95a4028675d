import Foundation
import ChimeTestKit
import Testing

/// Item text printed for people is one line with no terminal control: a title cannot forge
/// agenda lines, colour the terminal or reorder text with bidi overrides. JSON keeps the text
/// exact, escaped.
@Suite("chime output: item text is one safe line")
struct TerminalTextTests {
    static let hostile = "Lunch\n09:00-10:00  Fake\u{1b}[31m\u{9b}2J\u{7f}\u{202e}evil\u{2066}\tend"

    /// Bytes a terminal acts on: C0 except the line feeds between lines, DEL, C1, bidi overrides.
    static func controls(in text: String) -> [Unicode.Scalar] {
        text.unicodeScalars.filter {
            ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value)
                || (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value)
        }
    }

    @Test func agendaAlarmsRemindersAndShowPrintTheTitleOnOneLineWithoutControlCharacters() throws {
        let s = StoreSession(zone: "UTC")
        let event = try s.add("event", Self.hostile, "--start", "2026-11-21T12:00", "--alarm", "-10m", "--location", "Room\n1")
        let reminder = try s.add("reminder", Self.hostile, "--due", "2026-11-21T18:00", "--notes", "a\u{1b}]0;title\u{7}b")
        let shown = "Lunch 09:00-10:00  Fake[31m2Jevil end"
        for arguments in [["agenda"], ["alarms", "--hours", "48"], ["reminders"], ["show", event], ["show", reminder]] {
            let r = try s.run(arguments)
            #expect(r.status == 0, "\(arguments): \(r.stderr)")
            #expect(Self.controls(in: r.stdout).isEmpty, "\(arguments): \(r.stdout.debugDescription)")
            let lines = r.stdout.split(separator: "\n")
            // `alarms` lists both items: the event's alarm and the reminder, which fires at its due time.
            #expect(lines.filter { $0.contains("Lunch") }.count == (arguments[0] == "alarms" ? 2 : 1), "\(arguments): \(r.stdout)")
            #expect(lines.contains { $0.contains(shown) }, "\(arguments): \(r.stdout)")
            #expect(!lines.contains { $0.hasPrefix("09:00") }, "no forged line")
        }
        let details = try s.run("show", event).stdout
        #expect(details.contains("Location:  Room 1\n"))
        #expect(try s.run("show", reminder).stdout.contains("Notes:     a]0;titleb\n"))
    }

    @Test func jsonKeepsTheTextExactWithEveryControlCharacterEscaped() throws {
        let s = StoreSession(zone: "UTC")
        _ = try s.add("event", Self.hostile, "--start", "2026-11-21T12:00", "--alarm", "-10m")
        for arguments in [["agenda", "--json"], ["alarms", "--hours", "48", "--json"]] {
            let r = try s.run(arguments)
            #expect(r.status == 0)
            #expect(Self.controls(in: r.stdout).isEmpty, "\(arguments): \(r.stdout.debugDescription)")
            let body = try JSONDocument.body(r.stdout)
            let list = try #require(body as? [[String: Any]] ?? (body as? [String: Any])?["alarms"] as? [[String: Any]])
            #expect(list.first?["title"] as? String == Self.hostile)
        }
    }

    /// Text quoted from an .ics file (a broken DURATION holding an escape sequence that clears the
    /// screen, one that sets the window title, and a BEL) reaches stderr in import's warning and in
    /// --strict's refusal as one line without the control characters.
    @Test func importWarningsAndRefusalsQuoteTheFileWithoutControlCharacters() throws {
        let s = StoreSession(zone: "UTC")
        try FileManager.default.createDirectory(atPath: s.folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: s.folder) }
        let file = s.folder + "/hostile.ics"
        try """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//Test//EN\r
        BEGIN:VEVENT\r
        UID:hostile-duration\r
        DTSTAMP:20261101T000000Z\r
        DTSTART:20261201T090000Z\r
        DURATION:PT1H\u{1b}[2J\u{1b}]0;pwned\u{7}\r
        SUMMARY:Meeting\r
        END:VEVENT\r
        END:VCALENDAR\r

        """.write(toFile: file, atomically: true, encoding: .utf8)
        let strict = try s.run("import", file, "--strict")
        #expect(strict.status == 1, "\(strict.stderr)")
        #expect(strict.stderr.contains("PT1H[2J]0;pwned"), "\(strict.stderr.debugDescription)")
        #expect(strict.stderr.hasSuffix("(nothing was imported)\n"), "\(strict.stderr.debugDescription)")
        #expect(Self.controls(in: strict.stderr).isEmpty, "\(strict.stderr.debugDescription)")
        let repaired = try s.run("import", file)
        #expect(repaired.status == 0, "\(repaired.stderr)")
        #expect(repaired.stderr.hasPrefix("warning: hostile.ics:8: "), "\(repaired.stderr.debugDescription)")
        #expect(repaired.stderr.contains("PT1H[2J]0;pwned"), "\(repaired.stderr.debugDescription)")
        #expect(Self.controls(in: repaired.stderr).isEmpty, "\(repaired.stderr.debugDescription)")
    }
}
