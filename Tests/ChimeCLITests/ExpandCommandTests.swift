import Foundation
import ChimeTestKit
import Testing

@Suite("chime expand (human and JSON forms)")
struct ExpandCommandTests {
    @Test func lastFridayOfTheMonthInNewYork() throws {
        let r = try CLI.run([
            "expand", "--dtstart", "1997-09-05T09:00", "--tz", "America/New_York",
            "--rrule", "FREQ=MONTHLY;BYDAY=-1FR", "--count", "3"
        ])
        #expect(r.status == 0)
        #expect(r.stdout.contains("1  Fri 1997-09-05 09:00:00-04:00  1997-09-05T13:00:00Z"))
        #expect(r.stdout.contains("2  Fri 1997-09-26 09:00:00-04:00  1997-09-26T13:00:00Z"))
        #expect(r.stdout.contains("3  Fri 1997-10-31 09:00:00-05:00  1997-10-31T14:00:00Z"))
        #expect(r.stdout.contains("3 occurrences shown; more follow"))
    }

    @Test func basicFormDatesAndExdate() throws {
        let r = try CLI.run([
            "expand", "--dtstart", "20260105T090000", "--tz", "Europe/Berlin", "--rrule", "FREQ=DAILY;COUNT=3",
            "--exdate", "20260106T090000"
        ])
        #expect(r.status == 0)
        #expect(r.stdout.contains("Mon 2026-01-05 09:00:00+01:00"))
        #expect(!r.stdout.contains("2026-01-06"))
        #expect(r.stdout.contains("Wed 2026-01-07 09:00:00+01:00"))
        #expect(r.stdout.contains("2 occurrences; the set ends: COUNT reached."))
    }

    @Test func windowIsHalfOpen() throws {
        let r = try CLI.run([
            "expand", "--dtstart", "2026-01-01", "--rrule", "FREQ=WEEKLY;BYDAY=MO",
            "--from", "2026-03-02", "--to", "2026-03-16"
        ])
        #expect(r.status == 0)
        #expect(r.stdout.contains("Mon 2026-03-02"))
        #expect(r.stdout.contains("Mon 2026-03-09"))
        #expect(!r.stdout.contains("2026-03-16"))
        #expect(r.stdout.contains("2 occurrences in the window."))
    }

    @Test func impossibleRuleEndsAndSaysSo() throws {
        let r = try CLI.run(["expand", "--dtstart", "2026-01-01", "--rrule", "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30", "--count", "5"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("1 occurrence; the set ends: no instance within the search horizon"))
    }

    @Test func jsonOutputSnapshot() throws {
        let r = try CLI.run([
            "expand", "--dtstart", "2026-03-07T02:30", "--tz", "America/New_York", "--rrule", "FREQ=DAILY",
            "--count", "3", "--json"
        ])
        #expect(r.status == 0)
        try Snapshot.check(r.stdout, named: "expand-dst-gap.json")
        let object = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
        let items = object?["occurrences"] as? [[String: String]]
        #expect(items?.map { $0["local"] } == ["2026-03-07T02:30:00-05:00", "2026-03-08T03:30:00-04:00", "2026-03-09T02:30:00-04:00"])
    }

    @Test func helpSnapshots() throws {
        try Snapshot.check(try CLI.run(["help", "expand"]).stdout, named: "expand-help.txt")
        try Snapshot.check(try CLI.run(["--help"]).stdout, named: "chime-help.txt")
    }
}

@Suite("chime expand: bad input gets a clear error and a non-zero exit")
struct ExpandErrorTests {
    func failing(_ args: [String]) throws -> String {
        let r = try CLI.run(["expand"] + args)
        #expect(r.status != 0, "expected failure for \(args)")
        #expect(r.stdout.isEmpty)
        #expect(!r.stderr.contains("Fatal error"))
        return r.stderr
    }

    @Test func badDate() throws {
        let e = try failing(["--dtstart", "2026-13-01T09:00", "--rrule", "FREQ=DAILY"])
        #expect(e.contains("--dtstart: \"2026-13-01T09:00\": no such calendar date"))
        let f = try failing(["--dtstart", "20260230", "--rrule", "FREQ=DAILY"])
        #expect(f.contains("--dtstart: \"20260230\": no such calendar date"))
    }

    @Test func badRuleNamesThePartAndValue() throws {
        let e = try failing(["--dtstart", "2026-01-01", "--rrule", "FREQ=MONTHLY;BYMONTHDAY=0"])
        #expect(e.contains("--rrule: BYMONTHDAY=0: values must be -31…-1 or 1…31"))
        let g = try failing(["--dtstart", "2026-01-01", "--rrule", "FREQ=DAILY;COUNT=3;UNTIL=20260301"])
        #expect(g.contains("COUNT and UNTIL cannot both be given"))
    }

    @Test func unknownZone() throws {
        let e = try failing(["--dtstart", "2026-01-01T09:00", "--tz", "Mars/Olympus_Mons", "--rrule", "FREQ=DAILY"])
        #expect(e.contains("--tz: unknown time zone \"Mars/Olympus_Mons\""))
        let p = try failing(["--dtstart", "2026-01-01T09:00", "--tz", "../../etc/passwd", "--rrule", "FREQ=DAILY"])
        #expect(p.contains("unknown time zone"))
    }

    @Test func missingStartAndBadCombinations() throws {
        #expect(try failing(["--rrule", "FREQ=DAILY"]).contains("--dtstart is required"))
        #expect(try failing(["--batch", "--count", "3"]).contains("--batch reads everything from stdin"))
        #expect(try failing(["--dtstart", "2026-01-01", "--count", "0"]).contains("--count 0: must be 1…10000000"))
        #expect(try failing(["--dtstart", "2026-01-01", "--from", "2026-02-01", "--to", "2026-01-01"]).contains("the window is empty"))
        #expect(try failing(["--dtstart", "2026-01-01", "--rdate", "2026-01-05,bogus"]).contains("--rdate: \"bogus\": not a date"))
    }
}
