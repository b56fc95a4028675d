import ChimeCore
import ChimeICS
import ChimeStore
import Foundation
import Testing

/// Zones a file defines only by its own VTIMEZONE (Exchange's "GMT +0100 (Standard) / GMT +0200
/// (Daylight)", a made-up "/Europe/CUSTOM"): a weekly 20:00 event must stay at 20:00 on that
/// zone's wall clock on both sides of its daylight-saving change, in the store, in an export, and
/// after importing the export again — never be moved to UTC.
@Suite struct FileDefinedZoneTests {
    /// `2026-03-26T20:00:00+01:00` → the instant (Foundation's parser: independent of ChimeCore).
    static func instant(_ text: String) -> Instant {
        let formatter = ISO8601DateFormatter()
        guard let date = formatter.date(from: text) else { preconditionFailure("bad time \(text)") }
        return Instant(secondsSince1970: Int64(date.timeIntervalSince1970))
    }

    static func window(_ t: TemporaryStore, _ from: String, _ to: String) throws -> [Event] {
        Array(try t.store.events(matching: t.store.predicateForEvents(start: instant(from), end: instant(to))))
    }

    // Thursdays at 20:00; Europe's change to summer time is on Sunday 2026-03-29.
    static let exchangeExpected = [
        "2026-03-12T20:00:00+01:00", "2026-03-19T20:00:00+01:00", "2026-03-26T20:00:00+01:00",
        "2026-04-02T20:00:00+02:00", "2026-04-09T20:00:00+02:00", "2026-04-16T20:00:00+02:00",
        "2026-04-23T20:00:00+02:00", "2026-04-30T20:00:00+02:00"
    ].map(instant)

    // +01:30, and +02:30 from the second Sunday of April (2026-04-12) to that of October (2026-10-11).
    static let customSpringExpected = [
        "2026-03-31T20:00:00+01:30", "2026-04-07T20:00:00+01:30", "2026-04-14T20:00:00+02:30",
        "2026-04-21T20:00:00+02:30", "2026-04-28T20:00:00+02:30", "2026-05-05T20:00:00+02:30"
    ].map(instant)
    static let customAutumnExpected = [
        "2026-10-01T20:00:00+02:30", "2026-10-08T20:00:00+02:30",
        "2026-10-15T20:00:00+01:30", "2026-10-22T20:00:00+01:30"
    ].map(instant)

    @Test func exchangeGMTOffsetZoneBecomesEuropeBerlinAndStaysAt2000() throws {
        let t = try TemporaryStore()
        let report = try t.store.importICS(try Fixture.bytes("exchange-gmt-offset-zone.ics"), file: "exchange.ics")
        #expect(report.eventsAdded == 1 && report.skipped.isEmpty, "\(report.skipped)")
        let events = try Self.window(t, "2026-03-01T00:00:00Z", "2026-06-01T00:00:00Z")
        #expect(events.map { $0.start.instant(floatingZone: .utc) } == Self.exchangeExpected)
        #expect(events.allSatisfy { $0.start.timeZone?.identifier == "Europe/Berlin" && $0.start.local.hour == 20 })
        // The alarm, 15 minutes before, follows the wall clock too.
        let first = try #require(events.first)
        #expect(first.alarms.map(\.trigger) == [.relative(offset: -900, relatedTo: .start)])
    }

    @Test func customZoneKeepsItsOwnRulesThroughTheStore() throws {
        let t = try TemporaryStore()
        let report = try t.store.importICS(try Fixture.bytes("custom-zone.ics"), file: "custom.ics")
        #expect(report.eventsAdded == 2 && report.skipped.isEmpty, "\(report.skipped)")
        let spring = try Self.window(t, "2026-03-01T00:00:00Z", "2026-06-01T00:00:00Z")
        #expect(spring.map { $0.start.instant(floatingZone: .utc) } == Self.customSpringExpected)
        let autumn = try Self.window(t, "2026-09-01T00:00:00Z", "2026-11-01T00:00:00Z")
        #expect(autumn.map { $0.start.instant(floatingZone: .utc) } == Self.customAutumnExpected)
        for e in spring + autumn {
            #expect(e.start.local.hour == 20 && e.start.local.minute == 0)
            #expect(e.start.timeZone?.identifier == "POSIX:<+0130>-1:30<+0230>-2:30,M4.2.0/2,M10.2.0/3 /Europe/CUSTOM")
        }
        // What the store holds is the zone's name, not a UTC time.
        let stored = try #require(try t.store.allItems(in: nil).first { $0.title == "Shift briefing (spring)" })
        guard case .event(let series) = stored else { Issue.record("not an event"); return }
        #expect(series.start.storageText == "20260331T200000;POSIX:<+0130>-1:30<+0230>-2:30,M4.2.0/2,M10.2.0/3 /Europe/CUSTOM")
    }

    /// Exports both files, checks the text (TZID local times and a VTIMEZONE, no `Z` start), and
    /// imports the export into a new store: the same occurrences, the same stored values.
    @Test(arguments: ["exchange-gmt-offset-zone.ics", "custom-zone.ics"])
    func exportWritesLocalTimesAndAVTimeZoneAndReimportsTheSame(fixture: String) throws {
        let t = try TemporaryStore()
        _ = try t.store.importICS(try Fixture.bytes(fixture), file: fixture)
        let text = String(decoding: try Self.export(t), as: UTF8.self)
        let lines = text.split(separator: "\r\n").map(String.init)
        // The events' DTSTARTs (a VTIMEZONE's observances have plain `DTSTART:` local onsets).
        let starts = lines.filter { $0.hasPrefix("DTSTART;") || ($0.hasPrefix("DTSTART:") && $0.hasSuffix("Z")) }
        #expect(!starts.isEmpty && starts.allSatisfy { $0.hasPrefix("DTSTART;TZID=") && $0.hasSuffix("T200000") }, "\(starts)")
        #expect(!lines.contains { ($0.hasPrefix("DTSTART") || $0.hasPrefix("DTEND")) && $0.hasSuffix("Z") })
        #expect(lines.filter { $0 == "BEGIN:VTIMEZONE" }.count == 1)
        if fixture == "custom-zone.ics" {
            #expect(starts.allSatisfy { $0.hasPrefix("DTSTART;TZID=/Europe/CUSTOM:") }, "\(starts)")
            #expect(lines.contains("TZID:/Europe/CUSTOM"))
            #expect(lines.contains("RRULE:FREQ=YEARLY;BYDAY=2SU;BYMONTH=4") && lines.contains("RRULE:FREQ=YEARLY;BYDAY=2SU;BYMONTH=10"))
        } else {
            #expect(starts.allSatisfy { $0.hasPrefix("DTSTART;TZID=Europe/Berlin:") }, "\(starts)")
        }

        let again = try TemporaryStore()
        let report = try again.store.importICS(Array(text.utf8), file: "export.ics")
        #expect(report.skipped.isEmpty, "\(report.skipped)")
        #expect(try again.snapshot() == (try t.snapshot()))
        let before = try Self.window(t, "2026-01-01T00:00:00Z", "2027-01-01T00:00:00Z").map { $0.start.instant(floatingZone: .utc) }
        let after = try Self.window(again, "2026-01-01T00:00:00Z", "2027-01-01T00:00:00Z").map { $0.start.instant(floatingZone: .utc) }
        #expect(before == after && before.count >= 8)
        // And once more: an export of the re-import is the same text.
        #expect(try Self.export(again) == (try Self.export(t)))
    }

    static func export(_ t: TemporaryStore) throws -> [UInt8] {
        ICalendar.serialize(
            try t.store.allItems(in: nil).sorted { $0.externalIdentifier < $1.externalIdentifier },
            now: Instant(secondsSince1970: 1_772_366_400), floatingZone: .utc)
    }

    /// A zone that is no tzdata zone and no yearly rule (a short RDATE history that stops) is the
    /// one case still read as UTC instants, and the reader says so, naming file, line and TZID.
    @Test func inexpressibleZoneFallsBackToInstantsWithAWarning() throws {
        let text = """
            BEGIN:VCALENDAR\r
            VERSION:2.0\r
            PRODID:-//Test//History//EN\r
            BEGIN:VTIMEZONE\r
            TZID:Old Harbour Time\r
            BEGIN:STANDARD\r
            DTSTART:20200101T000000\r
            TZOFFSETFROM:+0115\r
            TZOFFSETTO:+0115\r
            RDATE:20261025T030000\r
            END:STANDARD\r
            BEGIN:DAYLIGHT\r
            DTSTART:20260329T020000\r
            TZOFFSETFROM:+0115\r
            TZOFFSETTO:+0215\r
            END:DAYLIGHT\r
            END:VTIMEZONE\r
            BEGIN:VEVENT\r
            UID:harbour-1\r
            DTSTAMP:20260101T000000Z\r
            SUMMARY:Harbour meeting\r
            DTSTART;TZID=Old Harbour Time:20260701T200000\r
            RRULE:FREQ=WEEKLY;COUNT=2\r
            END:VEVENT\r
            END:VCALENDAR\r

            """
        let r = try ICalendar.parse(Array(text.utf8), file: "harbour.ics")
        #expect(r.skipped.isEmpty)
        #expect(r.repairs.count == 1)
        let warning = try #require(r.repairs.first)
        #expect(warning.file == "harbour.ics" && warning.line == 4 && warning.property == "TZID")
        #expect(warning.message.hasPrefix("\"Old Harbour Time\": no tzdata zone has its UTC offsets in 2026–2037"), "\(warning)")
        #expect(warning.message.contains("imported as UTC instants"))
        guard case .event(let e) = try #require(r.items.first).item else { Issue.record("not an event"); return }
        #expect(e.start == .utc(LocalDateTime(year: 2026, month: 7, day: 1, hour: 17, minute: 45)))
    }
}
