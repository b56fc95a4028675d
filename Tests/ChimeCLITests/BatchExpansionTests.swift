import ChimeCore
import Foundation
import Testing
@testable import chime

/// The batch form's expansion in process, beside the process tests (`BatchExpandTests`): one
/// input object in, the occurrences as numbers out, before any formatting.
@Suite("expand --batch expansion, in process")
struct BatchExpansionTests {
    /// The occurrences as text: wall times (or dates, for an all-day set) and UTC instants.
    func expand(_ object: [String: Any]) throws -> (allDay: Bool, local: [String], utc: [String]) {
        var expansion = BatchExpansion.Expansion()
        try BatchExpansion.expand(object, into: &expansion)
        let local = expansion.local.map {
            expansion.isAllDay ? CivilDate(daysSinceEpoch: Int($0)).description : LocalDateTime(localSeconds: $0).description
        }
        return (expansion.isAllDay, local, expansion.utc.map { Instant(secondsSince1970: $0).description })
    }

    func message(_ object: [String: Any]) -> String? {
        var expansion = BatchExpansion.Expansion()
        do { try BatchExpansion.expand(object, into: &expansion) } catch let error as BatchExpansion.LineError {
            return error.message
        } catch { return "\(error)" }
        return nil
    }

    @Test func aWallTimeInAZoneFollowsItsClockAcrossTheSpringGap() throws {
        let r = try expand(["dtstart": "20260328T023000", "tzid": "Europe/Berlin", "rrule": "FREQ=DAILY", "limit": ["count": 3]])
        #expect(!r.allDay)
        #expect(r.local == ["2026-03-28T02:30:00", "2026-03-29T03:30:00", "2026-03-30T02:30:00"])
        #expect(r.utc == ["2026-03-28T01:30:00Z", "2026-03-29T01:30:00Z", "2026-03-30T00:30:00Z"])
    }

    @Test func aUTCStartWithAZoneBecomesThatZonesWallTime() throws {
        let r = try expand(["dtstart": "20260105T080000Z", "tzid": "Europe/Berlin", "rrule": "FREQ=DAILY;COUNT=2"])
        #expect(r.local == ["2026-01-05T09:00:00", "2026-01-06T09:00:00"])
        #expect(r.utc == ["2026-01-05T08:00:00Z", "2026-01-06T08:00:00Z"])
    }

    @Test func floatingTimesAreConvertedAsIfUTC() throws {
        let r = try expand(["dtstart": "20260308T090000", "rrule": "FREQ=WEEKLY;COUNT=2", "rdate": ["20260310T120000"]])
        #expect(r.local == ["2026-03-08T09:00:00", "2026-03-10T12:00:00", "2026-03-15T09:00:00"])
        #expect(r.utc == ["2026-03-08T09:00:00Z", "2026-03-10T12:00:00Z", "2026-03-15T09:00:00Z"])
    }

    @Test func aDateStartMakesAnAllDaySetWithDatesAsLocalValues() throws {
        let r = try expand(["dtstart": "20260101", "rrule": "FREQ=DAILY", "exdate": ["20260102"], "limit": ["count": 2]])
        #expect(r.allDay)
        #expect(r.local == ["2026-01-01", "2026-01-03"])
        #expect(r.utc == ["2026-01-01T00:00:00Z", "2026-01-03T00:00:00Z"])
    }

    @Test func untilUTCIsInclusive() throws {
        let r = try expand(["dtstart": "20260101T100000Z", "rrule": "FREQ=HOURLY", "limit": ["until_utc": "20260101T120000Z"]])
        #expect(r.utc == ["2026-01-01T10:00:00Z", "2026-01-01T11:00:00Z", "2026-01-01T12:00:00Z"])
    }

    @Test func aSetWithoutALimitStopsAtTheCapWithAnError() {
        #expect(message(["dtstart": "20260101T000000Z", "rrule": "FREQ=SECONDLY"])
                == "more than \(BatchExpansion.unlimitedCap) occurrences: give limit.count or limit.until_utc")
    }

    @Test func badFieldsAreNamed() {
        #expect(message(["rrule": "FREQ=DAILY"]) == "dtstart: required")
        #expect(message(["dtstart": "2026-01-01"])
                == "dtstart: invalid date or date-time \"2026-01-01\" (expected YYYYMMDDTHHMMSS or YYYYMMDD)")
        #expect(message(["dtstart": "20260101", "tzid": "Mars/Olympus"])?.hasPrefix("tzid: ") == true)
        #expect(message(["dtstart": "20260101", "rrule": "FREQ=DAILY", "limit": ["count": -1]])
                == "limit.count: expected a non-negative integer")
        #expect(message(["dtstart": "20260101", "limit": ["max": 3]]) == "limit: unknown field \"max\" (use count and/or until_utc)")
    }
}
