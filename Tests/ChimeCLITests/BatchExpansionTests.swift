import ChimeCore
import Foundation
import Testing
@testable import chime

/// The batch form's expansion in process, beside the process tests (`ExpandBatchContractTests`): one
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

    /// Dates typed as `--dtstart` takes them (ISO 8601) mean what the basic form means; words
    /// that depend on the day the batch runs are refused, with the forms named.
    @Test func isoDatesReadAsTheBasicFormAndWordsAreRefused() throws {
        let basic = try expand([
            "dtstart": "20261208T100000", "tzid": "Europe/Berlin", "rrule": "FREQ=DAILY;COUNT=3",
            "exdate": ["20261209T100000"], "rdate": ["20261224T100000"]
        ])
        let iso = try expand([
            "dtstart": "2026-12-08T10:00", "tzid": "Europe/Berlin", "rrule": "FREQ=DAILY;COUNT=3",
            "exdate": ["2026-12-09T10:00:00"], "rdate": ["2026-12-24T10:00"]
        ])
        #expect(iso.local == basic.local && iso.utc == basic.utc && basic.local.count == 3, "\(iso) \(basic)")
        let allDay = try expand(["dtstart": "2026-12-08", "rrule": "FREQ=DAILY;COUNT=2"])
        #expect(allDay.allDay && allDay.local == ["2026-12-08", "2026-12-09"], "\(allDay)")
        let utc = try expand(["dtstart": "2026-12-08T09:00:00Z", "rrule": "FREQ=DAILY;COUNT=1"])
        #expect(utc.utc == [Instant(utc: LocalDateTime(year: 2026, month: 12, day: 8, hour: 9)).description])
        for word in ["today", "tomorrow 10:00", "2026-12-8"] {
            let refused = message(["dtstart": word, "rrule": "FREQ=DAILY;COUNT=1"]) ?? ""
            #expect(refused.contains("invalid date or date-time") && refused.contains("2026-01-05T09:00"), "\(word): \(refused)")
        }
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
        #expect(
            message(["dtstart": "20260101T000000Z", "rrule": "FREQ=SECONDLY"])
                == "more than \(BatchExpansion.unlimitedCap) occurrences: give limit.count or limit.until_utc")
    }

    @Test func badFieldsAreNamed() {
        #expect(message(["rrule": "FREQ=DAILY"]) == "dtstart: required")
        #expect(
            message(["dtstart": "01/01/2026"])
                == "dtstart: invalid date or date-time \"01/01/2026\" (expected 2026-01-05T09:00[:00][Z], 2026-01-05, 20260105T090000[Z] or 20260105)")
        #expect(message(["dtstart": "20260101", "tzid": "Mars/Olympus"])?.hasPrefix("tzid: ") == true)
        #expect(
            message(["dtstart": "20260101", "rrule": "FREQ=DAILY", "limit": ["count": -1]])
                == "limit.count: expected a non-negative integer")
        #expect(message(["dtstart": "20260101", "limit": ["max": 3]]) == "limit: unknown field \"max\" (use count and/or until_utc)")
        // A misspelt field would have been left out silently (without "tzid", a floating set).
        #expect(
            message(["dtstart": "20261208T100000", "tz": "Europe/Berlin", "rrule": "FREQ=DAILY;COUNT=2"])
                == "unknown field \"tz\" (did you mean \"tzid\"?); the fields are id, dtstart, tzid, rrule, rdate, exdate and limit")
        #expect(message(["dtstart": "20261208", "note": "x"])?.hasPrefix("unknown field \"note\"; the fields are") == true)
    }
}
