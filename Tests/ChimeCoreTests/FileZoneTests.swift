import Foundation
import Testing
@testable import ChimeCore

// A calendar file's own VTIMEZONE under a TZID that names nothing (Exchange's "GMT +0100 (Standard)
// / GMT +0200 (Daylight)", "Customized Time Zone", "/Europe/CUSTOM") → the tzdata zone with the
// same offsets over the years the file uses, else a `POSIX:` zone that carries the file's rules.

private func local(_ y: Int, _ mo: Int, _ d: Int, _ h: Int = 0, _ mi: Int = 0) -> LocalDateTime {
    LocalDateTime(year: y, month: mo, day: d, hour: h, minute: mi)
}

private func yearly(_ text: String) throws -> RecurrenceRule { try RecurrenceRule(parsing: "FREQ=YEARLY;" + text) }

/// Outlook's shape: both observances from 1601-01-01, one yearly RRULE each.
private func outlookStyle(
    _ tzid: String, standard: Int32, daylight: Int32, intoDaylight: String, daylightHour: Int,
    intoStandard: String, standardHour: Int
) throws -> ZoneRules {
    try ZoneRules(
        VTimeZone(
            identifier: tzid,
            observances: [
                .init(
                    kind: .standard, start: local(1601, 1, 1, standardHour), offsetFrom: daylight, offsetTo: standard,
                    rule: try yearly(intoStandard)),
                .init(
                    kind: .daylight, start: local(1601, 1, 1, daylightHour), offsetFrom: standard, offsetTo: daylight,
                    rule: try yearly(intoDaylight))
            ]))
}

private func cetLike(_ tzid: String) throws -> ZoneRules {
    try outlookStyle(
        tzid, standard: 3600, daylight: 7200, intoDaylight: "BYDAY=-1SU;BYMONTH=3", daylightHour: 2,
        intoStandard: "BYDAY=-1SU;BYMONTH=10", standardHour: 3)
}

private func resolved(_ rules: ZoneRules, _ years: ClosedRange<Int> = 2026...2037) -> String {
    switch ZoneRules.resolveFileZone(rules, tzid: rules.identifier, years: years) {
    case .tzdata(let z): return "tzdata " + z.identifier
    case .posix(let z): return z.identifier
    case .inexpressible(let reason): return "inexpressible: " + reason
    }
}

private let y1970: Int64 = 0
private let y2038 = Int64(CivilDate.days(year: 2038, month: 1, day: 1)) * 86_400

@Suite struct FileZoneMatchTests {
    @Test func exchangeGMTOffsetNameWithEURulesIsEuropeBerlinFromTheFilesYears() throws {
        let zone = try cetLike("GMT +0100 (Standard) / GMT +0200 (Daylight)")
        #expect(resolved(zone) == "tzdata Europe/Berlin")
        // From 1970 no European zone matches (Berlin had no summer time before 1980 and ended it in
        // September until 1995): the file's rules are kept as a rule instead.
        #expect(resolved(zone, 1970...2037) == "POSIX:<+0100>-1<+0200>-2,M3.5.0/2,M10.5.0/3 GMT +0100 (Standard) / GMT +0200 (Daylight)")
    }

    @Test func aZoneOrCityNamedInTheTZIDComesFirst() throws {
        #expect(resolved(try cetLike("(GMT+01.00) Vienna / Rome / Berlin")) == "tzdata Europe/Vienna")
        #expect(resolved(try cetLike("/softwarestudio.org/Olson_20011030_5/Europe/Paris-custom")) == "tzdata Europe/Paris")
        #expect(ZoneRules.zonesMentioned(in: "(UTC+01:00) Amsterdam, Berlin, Bern, Rome") == ["Europe/Amsterdam", "Europe/Berlin", "Europe/Rome"])
        // Exchange's numbered copy of a Windows zone: the Windows zone, before CLDR's order.
        #expect(resolved(try cetLike("Romance Standard Time 1")) == "tzdata Europe/Paris")
        // A name that is not a zone, with rules matching none of its words: CLDR's representative.
        #expect(resolved(try cetLike("Customized Time Zone")) == "tzdata Europe/Berlin")
    }

    @Test func aNamedZoneWithOtherOffsetsIsNotTaken() throws {
        // Says London, has Central European offsets.
        #expect(resolved(try cetLike("London (custom)")) == "tzdata Europe/Berlin")
    }

    @Test func usEasternAndAFixedOffsetAndTheSouthernHemisphere() throws {
        let eastern = try outlookStyle(
            "Eastern Time (custom)", standard: -18_000, daylight: -14_400,
            intoDaylight: "BYDAY=2SU;BYMONTH=3", daylightHour: 2,
            intoStandard: "BYDAY=1SU;BYMONTH=11", standardHour: 2)
        #expect(resolved(eastern) == "tzdata America/New_York")
        let island = try ZoneRules(
            VTimeZone(
                identifier: "Custom Island Time",
                observances: [
                    .init(kind: .standard, start: local(1601, 1, 1), offsetFrom: 19_800, offsetTo: 19_800)
                ]))
        #expect(resolved(island) == "tzdata Asia/Kolkata")
        let sydney = try outlookStyle(
            "AUS Eastern (custom)", standard: 36_000, daylight: 39_600,
            intoDaylight: "BYDAY=1SU;BYMONTH=10", daylightHour: 2,
            intoStandard: "BYDAY=1SU;BYMONTH=4", standardHour: 3)
        #expect(resolved(sydney) == "tzdata Australia/Sydney")
    }

    @Test func offsetsAgreeOnlyWhereTheHistoriesDo() throws {
        let berlin = try ZoneRules.named("Europe/Berlin"), paris = try ZoneRules.named("Europe/Paris")
        let y1996 = Int64(CivilDate.days(year: 1996, month: 1, day: 1)) * 86_400
        #expect(berlin.hasSameOffsets(as: paris, after: y1996, through: y2038))
        #expect(!berlin.hasSameOffsets(as: paris, after: y1970, through: y2038))
    }
}

@Suite struct PosixZoneTests {
    static let customName = "POSIX:<+0130>-1:30<+0230>-2:30,M4.2.0/2,M10.2.0/3 /Europe/CUSTOM"

    /// +01:30, +02:30 from the 2nd Sunday of April 02:00 to the 2nd Sunday of October 03:00.
    static func custom() throws -> ZoneRules {
        try ZoneRules(
            VTimeZone(
                identifier: "/Europe/CUSTOM",
                observances: [
                    .init(kind: .daylight, start: local(1970, 4, 12, 2), offsetFrom: 5400, offsetTo: 9000, rule: try yearly("BYMONTH=4;BYDAY=2SU")),
                    .init(kind: .standard, start: local(1970, 10, 11, 3), offsetFrom: 9000, offsetTo: 5400, rule: try yearly("BYMONTH=10;BYDAY=2SU"))
                ]))
    }

    @Test func rulesNoTzdataZoneHasBecomeAPosixZoneThatTheNameRebuilds() throws {
        let file = try Self.custom()
        #expect(resolved(file) == Self.customName)
        let rebuilt = try ZoneRules.named(Self.customName)
        #expect(rebuilt.posixRule == "<+0130>-1:30<+0230>-2:30,M4.2.0/2,M10.2.0/3")
        #expect(rebuilt.importedTZID == "/Europe/CUSTOM")
        // Same offsets as the file's own rules wherever the file has them (1970 on), and beyond 2400.
        let y2500 = Int64(CivilDate.days(year: 2500, month: 1, day: 1)) * 86_400
        #expect(rebuilt.hasSameOffsets(as: file, after: y1970, through: y2038 * 4))
        #expect(rebuilt.offset(at: Instant(secondsSince1970: y2500 + 180 * 86_400)) == 9000)
        // Wall times: 2026-04-12 02:30 is in the gap (→ 03:30 +02:30); 20:00 either side of the change.
        #expect(rebuilt.instant(for: local(2026, 4, 7, 20)) == Instant(secondsSince1970: local(2026, 4, 7, 18, 30).localSeconds))
        #expect(rebuilt.instant(for: local(2026, 4, 14, 20)) == Instant(secondsSince1970: local(2026, 4, 14, 17, 30).localSeconds))
        #expect(rebuilt.instant(for: local(2026, 4, 12, 2, 30)) == Instant(secondsSince1970: local(2026, 4, 12, 1).localSeconds))
    }

    @Test func posixRuleTextRoundTrips() throws {
        for text in [
            "<+0100>-1<+0200>-2,M3.5.0/2,M10.5.0/3", "<-0500>5<-0400>4,M3.2.0/2,M11.1.0/2",
            "<+0530>-5:30", "<-003439>0:34:39", "<+1030>-10:30<+11>-11,M10.1.0/2,M4.1.0/2",
            "<+0100>-1<+0200>-2,J80/2,J264/3"
        ] {
            let rule = try #require(PosixTimeZoneRule(text), "\(text)")
            #expect(PosixTimeZoneRule(rule.text) == rule, "\(text) → \(rule.text)")
        }
        #expect(PosixTimeZoneRule("<+0100>-1<+0200>-2,M3.5.0/2,M10.5.0/3")?.text == "<+0100>-1<+0200>-2,M3.5.0/2,M10.5.0/3")
        #expect(throws: TimeZoneError.unknown("POSIX:nonsense")) { try ZoneRules.named("POSIX:nonsense") }
        #expect(throws: TimeZoneError.unknown("POSIX:<+99>-99")) { try ZoneRules.named("POSIX:<+99>-99") }
    }

    @Test func southernHemisphereAndFixedOffsetsBecomeRules() throws {
        // −03:30, −02:30 from the 1st Sunday of October to the 3rd Sunday of March (no such zone).
        let south = try ZoneRules(
            VTimeZone(
                identifier: "Southern Custom",
                observances: [
                    .init(kind: .daylight, start: local(2000, 10, 1, 2), offsetFrom: -12_600, offsetTo: -9000, rule: try yearly("BYMONTH=10;BYDAY=1SU")),
                    .init(kind: .standard, start: local(2001, 3, 18, 3), offsetFrom: -9000, offsetTo: -12_600, rule: try yearly("BYMONTH=3;BYDAY=3SU"))
                ]))
        #expect(resolved(south) == "POSIX:<-0330>3:30<-0230>2:30,M10.1.0/2,M3.3.0/3 Southern Custom")
        let fixed = try ZoneRules(
            VTimeZone(
                identifier: "Ship Time",
                observances: [
                    .init(kind: .standard, start: local(1601, 1, 1), offsetFrom: 5 * 3600 + 900, offsetTo: 5 * 3600 + 900)
                ]))
        #expect(resolved(fixed) == "POSIX:<+0515>-5:15 Ship Time")
    }

    @Test func anRDateHistoryThatStopsIsNotARule() throws {
        let history = try ZoneRules(
            VTimeZone(
                identifier: "Old Harbour Time",
                observances: [
                    .init(kind: .standard, start: local(2020, 1, 1), offsetFrom: 4500, offsetTo: 4500, dates: [local(2026, 10, 25, 3)]),
                    .init(kind: .daylight, start: local(2026, 3, 29, 2), offsetFrom: 4500, offsetTo: 8100)
                ]))
        #expect(resolved(history).hasPrefix("inexpressible: its offset changes do not follow one yearly rule"))
    }
}
