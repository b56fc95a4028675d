import ChimeCore
import ChimeICS
import ChimeStore
import Foundation
import Testing

/// Corpus files (Corpus/README.md) whose zones a single faulty property used to lose: each is read
/// the default way and its occurrences checked against the instants the Python peer gives, with
/// every repair said and a strict import refusing the file at the faulty line.
@Suite struct CorpusZoneTests {
    static func path(_ name: String) -> String { Wild.corpus.appendingPathComponent(name).path }

    static func read(_ name: String, from: String, to: String) throws -> Wild.Imported {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path(name))))
        return try Wild.importAndList(bytes, file: URL(fileURLWithPath: name).lastPathComponent, from: from, to: to)
    }

    static func strictRefusal(_ name: String) throws -> String? {
        let t = try TemporaryStore()
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path(name))))
        do {
            _ = try t.store.importICS(bytes, file: URL(fileURLWithPath: name).lastPathComponent, dryRun: true, strict: true)
            return nil
        } catch let error as ICSError {
            return error.description
        }
    }

    func expectPeer(_ name: String, from: String, to: String, agreesWith ours: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        switch Wild.peer(Self.path(name), from: from, to: to) {
        case .unavailable(let why): Issue.record("the peer cannot run: \(why)", sourceLocation: sourceLocation)
        case .failed(let message): Issue.record("the peer refused \(name): \(message)", sourceLocation: sourceLocation)
        case .occurrences(let theirs): #expect(theirs == ours, sourceLocation: sourceLocation)
        }
    }

    /// `DTSTART;VALUE=DATE:20170101` in the STANDARD observance of TZID `UTC+11` (+1100 all year):
    /// the onset is read as midnight of that day, so 23:00 in the zone is 12:00Z. Dropping the
    /// zone made the event floating, 23:00 wherever the user is (11 hours off in UTC).
    @Test func vtimezoneObservanceWithADateOnsetIsReadAsMidnight() throws {
        let name = "icalendar/issue_218_bad_tzid.ics"
        let (from, to) = ("2017-01-01T00:00:00Z", "2017-06-01T00:00:00Z")
        let i = try Self.read(name, from: from, to: to)
        #expect(i.spans == ["2017-02-28T12:00:00Z/2017-02-28T12:30:00Z\tTESTIN"])
        #expect(i.report.eventsAdded == 1 && i.skipped.isEmpty, "\(i.skipped)")
        let stored = try #require(try i.store.store.allItems(in: nil).first)
        guard case .event(let e) = stored else { Issue.record("not an event"); return }
        // Zoned on the file's +11:00 wall clock, not floating or moved to UTC.
        #expect(e.start.timeZone != nil && e.start.local.hour == 23, "\(e.start.storageText)")
        #expect(i.repairs.count == 1, "\(i.repairs)")
        #expect(
            i.repairs.first.map {
                $0.hasPrefix("issue_218_bad_tzid.ics:7: DTSTART:") && $0.contains("20170101")
                    && $0.contains("midnight")
            } == true, "\(i.repairs)")
        #expect(try Self.strictRefusal(name)?.hasPrefix("issue_218_bad_tzid.ics:7: DTSTART:") == true)
        expectPeer(name, from: from, to: to, agreesWith: i.occurrences)
    }

    /// khal's weekly series and its override all carry `TZID=foo`, which no zone matches. The
    /// RECURRENCE-ID is read floating like the DTSTART beside it, so the override is kept and
    /// names the 7 July instance: moved to 09:00–14:00, not left at 07:00–12:00.
    @Test func recurrenceIDInAnUnknownZoneIsReadFloatingAndKeepsItsOverride() throws {
        let name = "khal/event_rrule_recuid_invalid_tzid.ics"
        let (from, to) = ("2014-06-01T00:00:00Z", "2014-09-01T00:00:00Z")
        let i = try Self.read(name, from: from, to: to)
        // Floating, in the store's floating zone (UTC in this test).
        #expect(
            i.spans == [
                "2014-06-30T07:00:00Z/2014-06-30T12:00:00Z\tArbeit",
                "2014-07-07T09:00:00Z/2014-07-07T14:00:00Z\tArbeit",
                "2014-07-14T07:00:00Z/2014-07-14T12:00:00Z\tArbeit",
                "2014-07-21T07:00:00Z/2014-07-21T12:00:00Z\tArbeit",
                "2014-07-28T07:00:00Z/2014-07-28T12:00:00Z\tArbeit",
                "2014-08-04T07:00:00Z/2014-08-04T12:00:00Z\tArbeit"
            ])
        #expect(i.report.overrides == 1 && i.skipped.isEmpty, "\(i.skipped)")
        let prefixes = ["8: DTSTART:", "9: DTEND:", "14: RECURRENCE-ID:", "15: DTSTART:", "16: DTEND:"]
            .map { "event_rrule_recuid_invalid_tzid.ics:" + $0 }
        #expect(i.repairs.count == prefixes.count, "\(i.repairs)")
        for (line, prefix) in zip(i.repairs, prefixes) {
            #expect(line.hasPrefix(prefix) && line.contains("\"foo\"") && line.contains("floating"), "\(line)")
        }
        #expect(try Self.strictRefusal(name)?.hasPrefix("event_rrule_recuid_invalid_tzid.ics:8: DTSTART: unknown time zone") == true)
        expectPeer(name, from: from, to: to, agreesWith: i.occurrences)
    }
}
