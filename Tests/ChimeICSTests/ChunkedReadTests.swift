import ChimeCore
@testable import ChimeICS
import Foundation
import Testing

/// A file read a chunk at a time (a feed as it downloads, an import) reads exactly as the whole
/// file does: the same items, repairs, skips and errors, wherever the chunks are cut — inside a
/// CR LF, a byte order mark, a folded line or a multi-byte character.
@Suite struct ChunkedReadTests {
    /// Everything a read says, as text.
    static func outcome(_ read: () throws(ICSError) -> ICSParseResult) -> String {
        do {
            let r = try read()
            return
                (r.items.map { "\($0.uid) \($0.line) \(TemporaryStore.describe($0.item))" }
                + r.overrides.map { "override \($0)" }
                + r.repairs.map { "repair \($0)" } + r.skipped.map { "skipped \($0)" }
                + ["name \(r.calendarName ?? "-")"] + r.calendarProperties).joined(separator: "\n")
        } catch {
            return "error \(error)"
        }
    }

    static func chunked(_ bytes: [UInt8], sizes: [Int], strict: Bool = false) -> String {
        var at = 0, turn = 0
        return outcome { () throws(ICSError) in
            try ICalendar.parse(file: "f.ics", strict: strict) {
                guard at < bytes.count else { return nil }
                let size = max(1, sizes[turn % sizes.count])
                turn += 1
                defer { at = min(bytes.count, at + size) }
                return Array(bytes[at..<min(bytes.count, at + size)])
            }
        }
    }

    static var files: [URL] {
        let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        return ["Fixtures", "Corpus"].flatMap { folder -> [URL] in
            let root = here.appendingPathComponent(folder)
            return (FileManager.default.enumerator(atPath: root.path)?.allObjects as? [String] ?? [])
                .filter { $0.hasSuffix(".ics") }.sorted().map { root.appendingPathComponent($0) }
        }
    }

    @Test func everyFixtureAndCorpusFileReadsTheSameInChunks() throws {
        let files = Self.files
        #expect(files.count >= 60)
        var random = SystemRandomNumberGenerator()
        for file in files {
            let bytes = Array(try Data(contentsOf: file))
            for strict in [false, true] {
                let whole = Self.outcome { () throws(ICSError) in try ICalendar.parse(bytes, file: "f.ics", strict: strict) }
                let randomSizes = (0..<16).map { _ in Int.random(in: 1...300, using: &random) }
                for sizes in [[1], [2], [3], [7], [64], [65_536], randomSizes] {
                    let read = Self.chunked(bytes, sizes: sizes, strict: strict)
                    #expect(read == whole, "\(file.lastPathComponent) strict=\(strict) in chunks of \(sizes)")
                }
            }
        }
    }

    /// The cuts a download really makes, on the line breaks and marks that need the next byte.
    @Test func cutsInsideLineBreaksMarksAndFolds() {
        let texts: [[UInt8]] = [
            [0xEF, 0xBB, 0xBF] + Array("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:a\r\nDTSTART:20270101T090000Z\r\nSUMMARY:Caf".utf8)
                + [0xC3, 0xA9] + Array("\r\n  au lait\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n".utf8),
            Array("BEGIN:VCALENDAR\rBEGIN:VEVENT\rUID:b\rDTSTART:20270101T090000Z\r\rSUMMARY:lone CRs\rEND:VEVENT\rEND:VCALENDAR".utf8),
            Array(
                "BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:c\nDTSTART:20270101T090000Z\nDESCRIPTION:first\nsecond line without its space\nSUMMARY:x\nEND:VEVENT\n".utf8
            ),
            Array("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:d\r\nDTSTART:20270101T090000Z\r\nSUMMARY:Caf".utf8) + [0xE9]
                + Array(" (Windows-1252)\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n".utf8)
        ]
        for bytes in texts {
            let whole = Self.outcome { () throws(ICSError) in try ICalendar.parse(bytes, file: "f.ics") }
            #expect(!whole.hasPrefix("error"), "\(whole)")
            for cut in 1..<bytes.count {
                let read = Self.chunked(bytes, sizes: [cut, bytes.count])
                #expect(read == whole, "cut after byte \(cut)")
                if read != whole { break }
            }
        }
    }

    /// The file read as a stream of items: what the whole-file read says, or nil where it falls
    /// back to that read.
    static func streamed(_ bytes: [UInt8], sizes: [Int]) -> String? {
        var at = 0, turn = 0
        var items: [ICSItem] = []
        var headers: Set<String> = []
        do {
            let rest = try ICalendar.stream(
                file: "f.ics",
                chunks: { () throws(ICSError) -> [UInt8]? in
                    guard at < bytes.count else { return nil }
                    let size = max(1, sizes[turn % sizes.count])
                    turn += 1
                    defer { at = min(bytes.count, at + size) }
                    return Array(bytes[at..<min(bytes.count, at + size)])
                }
            ) { item, header in
                items.append(item)
                headers.insert("\(header.name ?? "-") \(header.properties)")
            }
            guard var rest else { return nil }
            // Every item was handed out with the calendar's header as the whole read gives it.
            if !items.isEmpty && headers != ["\(rest.calendarName ?? "-") \(rest.calendarProperties)"] { return "headers \(headers)" }
            rest.items = items
            return outcome { () throws(ICSError) in rest }
        } catch let error as ICSError {
            return outcome { () throws(ICSError) in throw error }
        } catch {
            return "error \(error)"
        }
    }

    @Test func everyFixtureAndCorpusFileStreamsAsTheWholeFileReadsOrSaysItCannot() throws {
        var streamedFiles = 0, wholeFiles: [String] = []
        for file in Self.files {
            let bytes = Array(try Data(contentsOf: file))
            let whole = Self.outcome { () throws(ICSError) in try ICalendar.parse(bytes, file: "f.ics") }
            var verdicts: Set<Bool> = []
            for sizes in [[1], [7], [300], [65_536]] {
                let read = Self.streamed(bytes, sizes: sizes)
                verdicts.insert(read == nil)
                if let read { #expect(read == whole, "\(file.lastPathComponent) in chunks of \(sizes)") }
            }
            // Where the chunks are cut never decides whether a file streams.
            #expect(verdicts.count == 1, "\(file.lastPathComponent)")
            if verdicts == [false] { streamedFiles += 1 } else { wholeFiles.append(file.lastPathComponent) }
        }
        // Most real files stream; those that do not are the rules only the whole file decides.
        #expect(streamedFiles * 2 > Self.files.count, "whole-file reads: \(wholeFiles)")
    }

    /// Each rule only the whole file decides sends a stream back to the whole-file read.
    @Test(arguments: [
        (
            "a UID given twice",
            "BEGIN:VEVENT\r\nUID:a\r\nDTSTART:20270101T090000Z\r\nEND:VEVENT\r\nBEGIN:VEVENT\r\nUID:a\r\nDTSTART:20270102T090000Z\r\nEND:VEVENT\r\n"
        ),
        (
            "a zone the file defines",
            "BEGIN:VEVENT\r\nUID:a\r\nDTSTART;TZID=Customized Time Zone:20270101T090000\r\nEND:VEVENT\r\n"
                + "BEGIN:VTIMEZONE\r\nTZID:Customized Time Zone\r\nBEGIN:STANDARD\r\nDTSTART:16010101T000000\r\nTZOFFSETFROM:+0100\r\nTZOFFSETTO:+0100\r\nEND:STANDARD\r\nEND:VTIMEZONE\r\n"
        ),
        ("a calendar property after a component", "BEGIN:VEVENT\r\nUID:a\r\nDTSTART:20270101T090000\r\nEND:VEVENT\r\nX-WR-TIMEZONE:Asia/Tokyo\r\n"),
        (
            "another calendar of another name",
            "X-WR-CALNAME:Home\r\nBEGIN:VEVENT\r\nUID:a\r\nDTSTART:20270101T090000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
                + "BEGIN:VCALENDAR\r\nX-WR-CALNAME:Work\r\nBEGIN:VEVENT\r\nUID:b\r\nDTSTART:20270101T090000Z\r\nEND:VEVENT\r\n"
        ),
        (
            "an item outside the calendar",
            "BEGIN:VEVENT\r\nUID:a\r\nDTSTART:20270101T090000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:b\r\nDTSTART:20270101T090000Z\r\nEND:VEVENT\r\nBEGIN:VCALENDAR\r\n"
        )
    ])
    func aRuleOfTheWholeFileStopsTheStream(rule: String, body: String) {
        let bytes = Array(("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n" + body + "END:VCALENDAR\r\n").utf8)
        #expect(Self.streamed(bytes, sizes: [65_536]) == nil, "\(rule)")
        #expect(!Self.outcome { () throws(ICSError) in try ICalendar.parse(bytes, file: "f.ics") }.hasPrefix("error"), "\(rule)")
        // Without the rule the same calendar streams.
        let plain = Array(
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nX-WR-TIMEZONE:Asia/Tokyo\r\nBEGIN:VEVENT\r\nUID:a\r\nDTSTART;TZID=Europe/Berlin:20270101T090000\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
                .utf8)
        #expect(Self.streamed(plain, sizes: [65_536]) != nil)
    }
    /// Concatenated calendars are read as one; one named otherwise than the first is said (its
    /// items join the first's calendar), and a strict read refuses it. Calendars of one name, or
    /// unnamed ones, join without a word.
    @Test func aSecondCalendarOfAnotherNameIsSaid() throws {
        func file(_ first: String?, _ second: String?) -> [UInt8] {
            func calendar(_ name: String?, _ uid: String) -> String {
                "BEGIN:VCALENDAR\r\nVERSION:2.0\r\n" + (name.map { "X-WR-CALNAME:\($0)\r\n" } ?? "")
                    + "BEGIN:VEVENT\r\nUID:\(uid)\r\nDTSTART:20270101T090000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
            }
            return Array((calendar(first, "a") + calendar(second, "b")).utf8)
        }
        let named = try ICalendar.parse(file("Home", "Work"), file: "two.ics")
        #expect(named.items.map(\.uid) == ["a", "b"] && named.calendarName == "Home")
        #expect(
            named.repairs.map(\.description) == [
                "two.ics:9: VCALENDAR: another calendar, \"Work\", in the file: its items are read into the first one, \"Home\""
            ])
        let unnamedFirst = try ICalendar.parse(file(nil, "Work"), file: "two.ics")
        #expect(
            unnamedFirst.repairs.map(\.description) == [
                "two.ics:8: VCALENDAR: another calendar, \"Work\", in the file: its items are read into the first one"
            ])
        for (first, second) in [("Home", "Home"), (nil, nil), ("Home", nil)] as [(String?, String?)] {
            #expect(try ICalendar.parse(file(first, second), file: "two.ics").repairs.isEmpty)
        }
        #expect(throws: ICSError.self) { try ICalendar.parse(file("Home", "Work"), file: "two.ics", strict: true) }
    }
}
