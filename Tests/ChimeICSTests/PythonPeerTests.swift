import ChimeCore
import ChimeICS
import ChimeStore
import Foundation
import Testing

/// Chime's export read by an independent implementation: Python's `icalendar` parses it and
/// `recurring-ical-events` expands it; the occurrences in a window must equal Chime's agenda.
@Suite struct PythonPeerTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Python/occurrences.py").path

    /// The peer's exit status and its stdout followed by its stderr (one runner: `Wild.run`).
    func python(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let result = try Wild.run(arguments)
        return (result.status, result.output + result.error)
    }

    @Test func pythonReadsTheExportAndFindsTheSameOccurrences() throws {
        let check = try python(["-c", "import icalendar, recurring_ical_events"])
        guard check.status == 0 else {
            Issue.record("python3 lacks icalendar / recurring-ical-events (make deps installs them): \(check.output)")
            return
        }
        let t = try TemporaryStore()
        for name in Fixture.all { _ = try t.store.importICS(try Fixture.bytes(name), file: name) }
        let exported = ICalendar.serialize(try t.store.allItems(in: nil), now: Instant(secondsSince1970: 1_795_176_000), floatingZone: .utc)
        let file = t.folder + "/export.ics"
        try Data(exported).write(to: URL(fileURLWithPath: file))

        let from = Instant(secondsSince1970: LocalDateTime(year: 2026, month: 11, day: 1).localSeconds)
        let to = Instant(secondsSince1970: LocalDateTime(year: 2027, month: 3, day: 1).localSeconds)
        let theirs = try python([Self.script, file, from.description, to.description])
        #expect(theirs.status == 0, "\(theirs.output)")
        let ours = try t.store.events(matching: t.store.predicateForEvents(start: from, end: to))
            .filter { $0.start.instant(floatingZone: .utc) >= from }  // Python lists occurrences starting in the window
            .map { "\($0.start.instant(floatingZone: .utc))\t\($0.title)" }.sorted()
        let pythonLines = theirs.output.split(separator: "\n").map(String.init)
        #expect(ours.count > 50)
        #expect(pythonLines == ours)
    }

    /// Files whose zone only their own VTIMEZONE defines: Python reads the original file and
    /// Chime's export of it; both must list the instants Chime's store gives (wall-clock 20:00 on
    /// both sides of the zone's daylight-saving change), so neither Chime's reading of the file
    /// nor its export moves an occurrence.
    @Test(arguments: ["exchange-gmt-offset-zone.ics", "custom-zone.ics"])
    func pythonAgreesOnFileDefinedZones(fixture: String) throws {
        let check = try python(["-c", "import icalendar, recurring_ical_events"])
        guard check.status == 0 else {
            Issue.record("python3 lacks icalendar / recurring-ical-events (make pydeps installs them): \(check.output)")
            return
        }
        let t = try TemporaryStore()
        _ = try t.store.importICS(try Fixture.bytes(fixture), file: fixture)
        let exported = t.folder + "/export.ics"
        try Data(ICalendar.serialize(try t.store.allItems(in: nil), now: Instant(secondsSince1970: 1_772_366_400), floatingZone: .utc))
            .write(to: URL(fileURLWithPath: exported))
        let from = Instant(secondsSince1970: LocalDateTime(year: 2026, month: 1, day: 1).localSeconds)
        let to = Instant(secondsSince1970: LocalDateTime(year: 2027, month: 1, day: 1).localSeconds)
        let ours = try t.store.events(matching: t.store.predicateForEvents(start: from, end: to))
            .map { "\($0.start.instant(floatingZone: .utc))\t\($0.title)" }.sorted()
        #expect(ours.count >= 8)
        for file in [Fixture.folder.appendingPathComponent(fixture).path, exported] {
            let theirs = try python([Self.script, file, from.description, to.description])
            #expect(theirs.status == 0, "\(theirs.output)")
            #expect(theirs.output.split(separator: "\n").map(String.init) == ours, "\(file)")
        }
    }
}
