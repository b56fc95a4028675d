import Foundation
import Testing

@testable import chime

/// Whether a file's start holds an item: what decides that an import into a new store reads the
/// file as it stores it. Read up to the first item, it answers as the whole 64 KB read did.
@Suite("import: a file's start, read up to its first item")
struct ImportStartTests {
    private func answer(_ text: String) throws -> Bool {
        let path = NSTemporaryDirectory() + "chime-start-" + UUID().uuidString + ".ics"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        return ImportCommand.startHoldsAnItem(path)
    }

    private func calendar(_ body: String) -> String {
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Test//EN\r\n" + body + "END:VCALENDAR\r\n"
    }

    private func event(_ uid: String, recurrenceID: String? = nil) -> String {
        "BEGIN:VEVENT\r\nUID:\(uid)\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:20260105T100000Z\r\nDTEND:20260105T110000Z\r\n"
            + (recurrenceID.map { "RECURRENCE-ID:\($0)\r\n" } ?? "") + "SUMMARY:Stand-up\r\nEND:VEVENT\r\n"
    }

    @Test func anItemAtTheStartIsFound() throws {
        #expect(try answer(calendar(event("a") + event("b"))))
    }

    @Test func anItemAfterKilobytesOfCalendarPropertiesIsFound() throws {
        let padding = (0..<200).map { "X-PADDING-\($0):" + String(repeating: "x", count: 60) + "\r\n" }.joined()
        #expect(try answer(calendar(padding + event("a"))))
    }

    @Test func onlyChangedOccurrencesCountAsItems() throws {
        // The streaming read hands out no override: the whole start is read, as before.
        #expect(try answer(calendar(event("a", recurrenceID: "20260105T100000Z"))))
    }

    @Test func aCalendarWithoutItemsHoldsNone() throws {
        #expect(try !answer(calendar("X-WR-CALNAME:Empty\r\n")))
        #expect(try !answer("not a calendar at all\n"))
        #expect(try !answer(""))
    }

    @Test func anItemBeyondTheFirst64KBIsNotLookedFor() throws {
        let padding = (0..<1_200).map { "X-PADDING-\($0):" + String(repeating: "x", count: 60) + "\r\n" }.joined()
        #expect(padding.utf8.count > 65_536)
        #expect(try !answer(calendar(padding + event("a"))))
    }
}
