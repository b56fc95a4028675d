import Foundation
import Testing
@testable import ChimeCore

// VTIMEZONE in and out. Reading: definitions as Outlook and others write them must give the same
// offsets as the system tzdata. Writing: what `vTimeZone(from:to:)` writes, read back, must give
// the zone's own offsets over the span it was written for.

/// A UTC instant from its calendar fields (Foundation's arithmetic, not ChimeCore's).
private func utc(_ y: Int, _ mo: Int, _ d: Int, _ h: Int = 0, _ mi: Int = 0, _ s: Int = 0) -> Instant {
    Instant(secondsSince1970: ExpectedTimes.daysFromCivil(y, mo, d) * 86_400 + Int64(h * 3600 + mi * 60 + s))
}

private func local(_ y: Int, _ mo: Int, _ d: Int, _ h: Int = 0, _ mi: Int = 0) -> LocalDateTime {
    LocalDateTime(year: y, month: mo, day: d, hour: h, minute: mi)
}

private func rrule(_ text: String) throws -> RecurrenceRule { try RecurrenceRule(parsing: text) }

/// Offsets of `actual` and `expected` at every `step` seconds of [from, to); the first mismatch, if any.
private func firstOffsetMismatch(
    _ actual: ZoneRules, _ expected: ZoneRules, from: Instant, to: Instant,
    step: Int64
) -> String? {
    var t = from.secondsSince1970
    while t < to.secondsSince1970 {
        let i = Instant(secondsSince1970: t)
        if actual.offset(at: i) != expected.offset(at: i) {
            return "\(i): \(actual.offset(at: i)) ≠ \(expected.offset(at: i))"
        }
        t += step
    }
    return nil
}

/// Reads back exactly the lines `contentLines()` writes (test-side; ChimeICS owns real parsing).
private func parseLines(_ lines: [String]) throws -> VTimeZone {
    var vtz = VTimeZone(identifier: "", observances: [])
    var current: VTimeZone.Observance?
    func wallTime(_ text: Substring) throws -> LocalDateTime {
        guard case .local(let l)? = BasicDateTime.parse(text) else { throw ParseFailure(line: String(text)) }
        return l
    }
    for line in lines {
        let colon = try #require(line.firstIndex(of: ":"))
        let name = line[..<colon]
        let value = line[line.index(after: colon)...]
        switch name {
        case "TZID": vtz.identifier = value.replacingOccurrences(of: "\\,", with: ",")
        case "BEGIN" where value != "VTIMEZONE":
            current = .init(
                kind: value == "DAYLIGHT" ? .daylight : .standard, start: local(1970, 1, 1),
                offsetFrom: 0, offsetTo: 0)
        case "DTSTART": current?.start = try wallTime(value)
        case "TZOFFSETFROM": current?.offsetFrom = try #require(VTimeZone.utcOffset(parsing: value))
        case "TZOFFSETTO": current?.offsetTo = try #require(VTimeZone.utcOffset(parsing: value))
        case "RRULE": current?.rule = try rrule(String(value))
        case "RDATE": current?.dates.append(try wallTime(value))
        case "TZNAME": current?.name = String(value)
        case "END" where value != "VTIMEZONE":
            vtz.observances.append(try #require(current))
            current = nil
        default: break
        }
    }
    return vtz
}

private struct ParseFailure: Error { var line: String }

@Suite("VTIMEZONE: reading, writing, Windows zone names")
struct VTimeZoneTests {
    // MARK: - Reading

    /// What Outlook writes for "W. Europe Standard Time": 1601 DTSTARTs, yearly last-Sunday rules.
    static let outlookWEurope = VTimeZone(
        identifier: "W. Europe Standard Time",
        observances: [
            .init(
                kind: .standard, start: local(1601, 10, 5, 3), offsetFrom: 7200, offsetTo: 3600,
                rule: try! rrule("FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10")),
            .init(
                kind: .daylight, start: local(1601, 3, 29, 2), offsetFrom: 3600, offsetTo: 7200,
                rule: try! rrule("FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3"))
        ])

    @Test func outlookWEuropeStandardTimeHasBerlinsOffsets() throws {
        let zone = try ZoneRules(Self.outlookWEurope)
        let berlin = try ZoneRules.named("Europe/Berlin")
        #expect(zone.identifier == "W. Europe Standard Time")
        let instants = [
            utc(2020, 1, 15, 12), utc(2020, 7, 15, 12), utc(2021, 3, 28, 0, 59, 59), utc(2021, 3, 28, 1),
            utc(2022, 10, 30, 0, 59, 59), utc(2022, 10, 30, 1), utc(2024, 2, 29, 23), utc(2025, 8, 1),
            utc(2026, 3, 29, 1), utc(2026, 10, 25, 0, 59, 59), utc(2026, 10, 25, 1), utc(2028, 12, 31, 23),
            utc(2030, 3, 31, 0, 59, 59), utc(2030, 3, 31, 1), utc(2030, 6, 30)
        ]
        for i in instants { #expect(zone.offset(at: i) == berlin.offset(at: i), "\(i)") }
        #expect(firstOffsetMismatch(zone, berlin, from: utc(2020, 1, 1), to: utc(2031, 1, 1), step: 3600) == nil)
        // Wall times too: the spring gap moves forward, the autumn overlap takes the first instant.
        for l in [local(2026, 3, 29, 2, 30), local(2026, 10, 25, 2, 30), local(2027, 1, 1, 9)] {
            #expect(zone.instant(for: l) == berlin.instant(for: l), "\(l)")
        }
    }

    @Test func southernHemisphereRulesHaveSydneysOffsets() throws {
        // AUS Eastern: summer time from the first Sunday of October to the first Sunday of April.
        let definition = VTimeZone(
            identifier: "AUS Eastern Standard Time",
            observances: [
                .init(
                    kind: .standard, start: local(1601, 4, 1, 3), offsetFrom: 39_600, offsetTo: 36_000,
                    rule: try rrule("FREQ=YEARLY;BYDAY=1SU;BYMONTH=4")),
                .init(
                    kind: .daylight, start: local(1601, 10, 1, 2), offsetFrom: 36_000, offsetTo: 39_600,
                    rule: try rrule("FREQ=YEARLY;BYDAY=1SU;BYMONTH=10"))
            ])
        let zone = try ZoneRules(definition)
        let sydney = try ZoneRules.named("Australia/Sydney")
        #expect(zone.offset(at: utc(2026, 1, 15)) == 39_600)
        #expect(zone.offset(at: utc(2026, 7, 15)) == 36_000)
        #expect(firstOffsetMismatch(zone, sydney, from: utc(2020, 1, 1), to: utc(2031, 1, 1), step: 3600) == nil)
    }

    @Test func untilEndsAnOldRuleAndANewOneTakesOver() throws {
        // New York before and after the 2007 US change, UNTIL in UTC as RFC 5545 requires.
        let definition = VTimeZone(
            identifier: "US/Eastern (custom)",
            observances: [
                .init(
                    kind: .daylight, start: local(1987, 4, 5, 2), offsetFrom: -18_000, offsetTo: -14_400,
                    rule: try rrule("FREQ=YEARLY;BYDAY=1SU;BYMONTH=4;UNTIL=20060402T070000Z")),
                .init(
                    kind: .standard, start: local(1967, 10, 29, 2), offsetFrom: -14_400, offsetTo: -18_000,
                    rule: try rrule("FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10;UNTIL=20061029T060000Z")),
                .init(
                    kind: .daylight, start: local(2007, 3, 11, 2), offsetFrom: -18_000, offsetTo: -14_400,
                    rule: try rrule("FREQ=YEARLY;BYDAY=2SU;BYMONTH=3")),
                .init(
                    kind: .standard, start: local(2007, 11, 4, 2), offsetFrom: -14_400, offsetTo: -18_000,
                    rule: try rrule("FREQ=YEARLY;BYDAY=1SU;BYMONTH=11"))
            ])
        let zone = try ZoneRules(definition)
        let newYork = try ZoneRules.named("America/New_York")
        #expect(firstOffsetMismatch(zone, newYork, from: utc(1990, 1, 1), to: utc(2031, 1, 1), step: 3600) == nil)
    }

    @Test func rdatesAreOnsetsToo() throws {
        let definition = VTimeZone(
            identifier: "Two changes",
            observances: [
                .init(kind: .standard, start: local(2000, 1, 1), offsetFrom: 3600, offsetTo: 3600),
                .init(
                    kind: .daylight, start: local(2026, 4, 1, 2), offsetFrom: 3600, offsetTo: 7200,
                    dates: [local(2027, 4, 1, 2)]),
                .init(kind: .standard, start: local(2026, 9, 1, 3), offsetFrom: 7200, offsetTo: 3600)
            ])
        let zone = try ZoneRules(definition)
        #expect(zone.offset(at: utc(2026, 4, 1, 0, 59, 59)) == 3600)
        #expect(zone.offset(at: utc(2026, 4, 1, 1)) == 7200)
        #expect(zone.offset(at: utc(2026, 9, 1, 1)) == 3600)
        #expect(zone.offset(at: utc(2027, 6, 1)) == 7200)  // the RDATE: no way back, summer time for good
        #expect(zone.offset(at: utc(2300, 1, 1)) == 7200)
    }

    @Test func zoneWithoutDaylightSavingHasOneOffset() throws {
        let definition = VTimeZone(
            identifier: "Tokyo Standard Time",
            observances: [
                .init(kind: .standard, start: local(1601, 1, 1), offsetFrom: 32_400, offsetTo: 32_400, name: "JST")
            ])
        let zone = try ZoneRules(definition)
        for i in [utc(1900, 1, 1), utc(1970, 1, 1), utc(2026, 6, 1), utc(2399, 12, 31), utc(3000, 1, 1)] {
            #expect(zone.offset(at: i) == 32_400)
        }
        #expect(zone.instant(for: local(2026, 1, 1, 9)) == utc(2026, 1, 1))
    }

    @Test func anEmptyVTimeZoneIsAnError() {
        let empty = VTimeZone(identifier: "Nowhere", observances: [])
        #expect(throws: VTimeZoneError.noObservances(tzid: "Nowhere")) { try ZoneRules(empty) }
        #expect(
            VTimeZoneError.noObservances(tzid: "Nowhere").description
                == "VTIMEZONE \"Nowhere\" has no STANDARD or DAYLIGHT observance")
    }

    @Test func observancesThatCannotBeExpandedAreErrors() throws {
        func expectUnexpandable(_ observance: VTimeZone.Observance, sourceLocation: SourceLocation = #_sourceLocation) {
            let definition = VTimeZone(
                identifier: "Bad",
                observances: [
                    .init(kind: .standard, start: local(1970, 1, 1), offsetFrom: 0, offsetTo: 0), observance
                ])
            do {
                _ = try ZoneRules(definition)
                Issue.record("expected an error", sourceLocation: sourceLocation)
            } catch {
                guard case .unexpandable(let tzid, let index, _) = error else {
                    Issue.record("wrong error \(error)", sourceLocation: sourceLocation)
                    return
                }
                #expect(tzid == "Bad" && index == 1, sourceLocation: sourceLocation)
            }
        }
        expectUnexpandable(.init(kind: .daylight, start: local(2026, 2, 30, 2), offsetFrom: 0, offsetTo: 3600))
        expectUnexpandable(.init(kind: .daylight, start: local(2026, 3, 1, 2), offsetFrom: 0, offsetTo: 86_400))
        expectUnexpandable(
            .init(
                kind: .daylight, start: local(2026, 3, 1, 2), offsetFrom: 0, offsetTo: 3600,
                dates: [local(2026, 13, 1)]))
        // Hourly "transitions" would be millions of onsets: refused after the cap, not expanded.
        expectUnexpandable(
            .init(
                kind: .daylight, start: local(2026, 3, 1, 2), offsetFrom: 0, offsetTo: 3600,
                rule: try rrule("FREQ=HOURLY")))
    }

    // MARK: - Writing

    /// Each observance starts at its last change at or before `from`.
    @Test func berlinIsWrittenAsTwoYearlyRules() throws {
        let berlin = try ZoneRules.named("Europe/Berlin")
        let vtz = berlin.vTimeZone(from: utc(2026, 1, 1), to: utc(2027, 1, 1))
        #expect(
            vtz.contentLines() == [
                "BEGIN:VTIMEZONE",
                "TZID:Europe/Berlin",
                "BEGIN:STANDARD",
                "DTSTART:20251026T030000",
                "TZOFFSETFROM:+0200",
                "TZOFFSETTO:+0100",
                "RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10",
                "TZNAME:CET",
                "END:STANDARD",
                "BEGIN:DAYLIGHT",
                "DTSTART:20250330T020000",
                "TZOFFSETFROM:+0100",
                "TZOFFSETTO:+0200",
                "RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3",
                "TZNAME:CEST",
                "END:DAYLIGHT",
                "END:VTIMEZONE"
            ])
    }

    @Test func newYorkAndSydneyRules() throws {
        let ny = try ZoneRules.named("America/New_York").vTimeZone(from: utc(2025, 6, 1), to: utc(2030, 1, 1))
        #expect(
            ny.observances.map { "\($0.kind) \($0.start) \($0.rule?.rfc5545 ?? "-") \($0.name ?? "-")" } == [
                "standard 2024-11-03T02:00:00 FREQ=YEARLY;BYDAY=1SU;BYMONTH=11 EST",
                "daylight 2025-03-09T02:00:00 FREQ=YEARLY;BYDAY=2SU;BYMONTH=3 EDT"
            ])
        let sydney = try ZoneRules.named("Australia/Sydney").vTimeZone(from: utc(2025, 1, 1), to: utc(2030, 1, 1))
        #expect(
            sydney.observances.map { "\($0.kind) \($0.start) \($0.rule?.rfc5545 ?? "-") \($0.name ?? "-")" } == [
                "standard 2024-04-07T03:00:00 FREQ=YEARLY;BYDAY=1SU;BYMONTH=4 AEST",
                "daylight 2024-10-06T02:00:00 FREQ=YEARLY;BYDAY=1SU;BYMONTH=10 AEDT"
            ])
    }

    @Test func zonesWithoutDaylightSavingAreOneStandardObservance() throws {
        for (name, offset, abbreviation) in [
            ("Asia/Tokyo", "+0900", "JST"), ("Asia/Kolkata", "+0530", "IST"),
            ("UTC", "+0000", "UTC")
        ] {
            let vtz = try ZoneRules.named(name).vTimeZone(from: utc(2025, 1, 1), to: utc(2030, 1, 1))
            #expect(
                vtz.contentLines() == [
                    "BEGIN:VTIMEZONE", "TZID:\(name)", "BEGIN:STANDARD", "DTSTART:19700101T000000",
                    "TZOFFSETFROM:\(offset)", "TZOFFSETTO:\(offset)", "TZNAME:\(abbreviation)", "END:STANDARD", "END:VTIMEZONE"
                ])
        }
        let fixed = ZoneRules.fixed(offset: -9000, identifier: "-0230").vTimeZone(from: utc(2025, 1, 1), to: utc(2026, 1, 1))
        #expect(fixed.observances == [.init(kind: .standard, start: local(1970, 1, 1), offsetFrom: -9000, offsetTo: -9000)])
    }

    @Test func unusualRulesUseMonthDayWindows() throws {
        // Israel: the Friday before the last Sunday of March (POSIX M3.4.4/26).
        let jerusalem = try ZoneRules.named("Asia/Jerusalem").vTimeZone(from: utc(2025, 1, 1), to: utc(2030, 1, 1))
        #expect(
            jerusalem.observances.compactMap { $0.rule?.rfc5545 }.sorted() == [
                "FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10",
                "FREQ=YEARLY;BYDAY=FR;BYMONTHDAY=23,24,25,26,27,28,29;BYMONTH=3"
            ])
        // Greenland: 23:00 on the Saturday before the last Sunday of March (POSIX M3.5.0/-1).
        let nuuk = try ZoneRules.named("America/Nuuk").vTimeZone(from: utc(2025, 1, 1), to: utc(2030, 1, 1))
        let spring = try #require(nuuk.observances.first { $0.kind == .daylight })
        #expect(spring.rule?.rfc5545 == "FREQ=YEARLY;BYDAY=SA;BYMONTHDAY=24,25,26,27,28,29,30;BYMONTH=3")
        #expect(spring.start.hour == 23)
    }

    @Test func historicChangesBecomeObservancesWithDates() throws {
        // Brazil ended summer time in 2019: the 2017–2019 changes do not follow a current pattern.
        let saoPaulo = try ZoneRules.named("America/Sao_Paulo")
        let vtz = saoPaulo.vTimeZone(from: utc(2017, 1, 1), to: utc(2022, 1, 1))
        #expect(vtz.observances.allSatisfy { $0.rule == nil })
        // 2016-10 (in effect on January 1st), 2017-02, 2017-10, 2018-02, 2018-11, 2019-02:
        #expect(vtz.observances.flatMap { [$0.start] + $0.dates }.count == 6)
        // Berlin 1975–2030: summer time from 1980, ending in September until 1995, then in October.
        let berlin = try ZoneRules.named("Europe/Berlin").vTimeZone(from: utc(1975, 1, 1), to: utc(2030, 1, 1))
        let yearly = berlin.observances.filter { $0.rule != nil }
        #expect(yearly.map(\.start) == [local(1996, 10, 27, 3), local(1996, 3, 31, 2)])
        #expect(berlin.observances.count > 2)
    }

    @Test func aPatternThatEndsAfterTheSpanGetsUntil() throws {
        // Brazil: summer time from the third Sunday of October until the Sunday in February 16…22
        // (the third, or a week later in Carnival years), until November 2018 moved the start;
        // none after February 2019. The rules stop at their last change with UNTIL (UTC).
        let saoPaulo = try ZoneRules.named("America/Sao_Paulo")
        let vtz = saoPaulo.vTimeZone(from: utc(2015, 1, 1), to: utc(2017, 6, 1))
        #expect(
            vtz.observances.map { "\($0.kind) \($0.start) \($0.rule?.rfc5545 ?? "-")" } == [
                "standard 2014-02-16T00:00:00 FREQ=YEARLY;UNTIL=20180218T020000Z;BYDAY=SU;BYMONTHDAY=16,17,18,19,20,21,22;BYMONTH=2",
                "daylight 2014-10-19T00:00:00 FREQ=YEARLY;UNTIL=20171015T030000Z;BYDAY=3SU;BYMONTH=10"
            ])
        let read = try ZoneRules(vtz)
        #expect(firstOffsetMismatch(read, saoPaulo, from: utc(2015, 1, 1), to: utc(2018, 10, 1), step: 1800) == nil)
        #expect(firstOffsetMismatch(read, saoPaulo, from: utc(2019, 3, 1), to: utc(2030, 1, 1), step: 86_400) == nil)
    }

    @Test func oneYearIsNotAPattern() throws {
        // Morocco leaves +01 for Ramadan on dates that move every year: RDATEs, never a yearly rule.
        let casablanca = try ZoneRules.named("Africa/Casablanca")
        let vtz = casablanca.vTimeZone(from: utc(2025, 1, 1), to: utc(2027, 1, 1))
        #expect(vtz.observances.allSatisfy { $0.rule == nil })
        #expect(firstOffsetMismatch(try ZoneRules(vtz), casablanca, from: utc(2025, 1, 1), to: utc(2027, 1, 1), step: 1800) == nil)
    }

    /// Zones written for 2025–2030 and read back: the offsets agree with tzdata at every hour, at
    /// each change and the second before it, and wall times convert the same around each change.
    @Test(arguments: [
        "Europe/Berlin", "America/New_York", "Australia/Sydney", "Asia/Tokyo", "Asia/Kolkata",
        "Asia/Jerusalem", "America/Santiago", "America/Nuuk", "Australia/Lord_Howe", "Pacific/Chatham",
        "Europe/Dublin", "Africa/Casablanca", "Pacific/Auckland", "America/St_Johns"
    ])
    func writtenZonesReadBackWithTheSameOffsets(_ name: String) throws {
        let tzdata = try ZoneRules.named(name)
        let (from, to) = (utc(2025, 1, 1), utc(2030, 1, 1))
        let vtz = tzdata.vTimeZone(from: from, to: to)
        for read in [try ZoneRules(vtz), try ZoneRules(try parseLines(vtz.contentLines()))] {
            #expect(firstOffsetMismatch(read, tzdata, from: from, to: to, step: 3600) == nil, "\(name)")
            let changes = tzdata.offsetChanges(after: from.secondsSince1970, through: to.secondsSince1970)
            for change in changes {
                for t in [change.at - 1, change.at, change.at + 1] {
                    let i = Instant(secondsSince1970: t)
                    #expect(read.offset(at: i) == tzdata.offset(at: i), "\(name) at \(i)")
                }
                // Every wall-clock quarter hour from three hours before the change to three after.
                let wall = change.localOnset - change.localOnset % 900
                for l in stride(from: wall - 3 * 3600, through: wall + 3 * 3600, by: 900) {
                    #expect(
                        read.instantSeconds(forLocalSeconds: l) == tzdata.instantSeconds(forLocalSeconds: l),
                        "\(name) at wall \(LocalDateTime(localSeconds: l))")
                }
            }
        }
    }

    /// Spans that cross rule changes, read back.
    @Test(arguments: [
        ("Europe/Moscow", 2009, 2016), ("America/Sao_Paulo", 2015, 2022), ("Europe/Berlin", 1975, 2030),
        ("America/New_York", 1990, 2030), ("Europe/Istanbul", 2010, 2020), ("Asia/Tehran", 2019, 2026)
    ])
    func spansAcrossRuleChangesReadBack(_ name: String, _ firstYear: Int, _ lastYear: Int) throws {
        let tzdata = try ZoneRules.named(name)
        let (from, to) = (utc(firstYear, 1, 1), utc(lastYear, 1, 1))
        let read = try ZoneRules(tzdata.vTimeZone(from: from, to: to))
        #expect(firstOffsetMismatch(read, tzdata, from: from, to: to, step: 1800) == nil, "\(name)")
    }

    @Test func spansInsideASeasonStillStartAtTheChangeInEffect() throws {
        let berlin = try ZoneRules.named("Europe/Berlin")
        let vtz = berlin.vTimeZone(from: utc(2026, 7, 1), to: utc(2026, 7, 2))
        #expect(vtz.observances.map(\.start) == [local(2025, 10, 26, 3), local(2026, 3, 29, 2)])
        let read = try ZoneRules(vtz)
        #expect(read.offset(at: utc(2026, 7, 1, 12)) == 7200)
    }

    @Test func utcOffsetText() {
        #expect(VTimeZone.utcOffsetText(3600) == "+0100")
        #expect(VTimeZone.utcOffsetText(-18_000) == "-0500")
        #expect(VTimeZone.utcOffsetText(19_800) == "+0530")
        #expect(VTimeZone.utcOffsetText(0) == "+0000")
        #expect(VTimeZone.utcOffsetText(-2079) == "-003439")
        #expect(VTimeZone.utcOffset(parsing: "+0100") == 3600)
        #expect(VTimeZone.utcOffset(parsing: "-003439") == -2079)
        #expect(VTimeZone.utcOffset(parsing: "+0000") == 0)
        #expect(VTimeZone.utcOffset(parsing: "-0000") == nil)
        #expect(VTimeZone.utcOffset(parsing: "0100") == nil)
        #expect(VTimeZone.utcOffset(parsing: "+0160") == nil)
        #expect(ICalendarText.escaped("(UTC+01:00) Amsterdam, Berlin; x\\y") == "(UTC+01:00) Amsterdam\\, Berlin\\; x\\\\y")
        // Every line break, a lone CR too, becomes \n: no raw CR or LF inside a content line.
        #expect(ICalendarText.escaped("a\r\nb\rc\nd") == "a\\nb\\nc\\nd")
    }

    // MARK: - Windows zone names

    @Test func windowsNamesMapToIANA() {
        let expected = [
            "W. Europe Standard Time": "Europe/Berlin", "Pacific Standard Time": "America/Los_Angeles",
            "Eastern Standard Time": "America/New_York", "Central Standard Time": "America/Chicago",
            "Mountain Standard Time": "America/Denver", "GMT Standard Time": "Europe/London",
            "Romance Standard Time": "Europe/Paris", "Central Europe Standard Time": "Europe/Budapest",
            "Central European Standard Time": "Europe/Warsaw", "Tokyo Standard Time": "Asia/Tokyo",
            "China Standard Time": "Asia/Shanghai", "India Standard Time": "Asia/Kolkata",
            "AUS Eastern Standard Time": "Australia/Sydney", "UTC": "Etc/UTC",
            "w. europe standard time": "Europe/Berlin", "  \"Pacific Standard Time\" ": "America/Los_Angeles",
            "(UTC+01:00) Amsterdam, Berlin, Bern, Rome, Stockholm, Vienna": "Europe/Berlin",
            "(UTC+01:00) Amsterdam\\, Berlin\\, Bern\\, Rome\\, Stockholm\\, Vienna": "Europe/Berlin",
            "(GMT+01:00) Amsterdam,Berlin,  Bern, Rome, Stockholm, Vienna": "Europe/Berlin",
            "(UTC-08:00) Pacific Time (US & Canada)": "America/Los_Angeles",
            "(UTC-05:00) Eastern Time (US & Canada)": "America/New_York",
            "(UTC+00:00) Dublin, Edinburgh, Lisbon, London": "Europe/London",
            "(UTC) Coordinated Universal Time": "Etc/UTC",
            "(UTC+05:30) Chennai, Kolkata, Mumbai, New Delhi": "Asia/Kolkata",
            "(UTC+10:00) Canberra, Melbourne, Sydney": "Australia/Sydney"
        ]
        for (windows, iana) in expected { #expect(WindowsZones.ianaIdentifier(for: windows) == iana, "\(windows)") }
        #expect(WindowsZones.ianaIdentifier(for: "Customized Time Zone") == nil)
        #expect(WindowsZones.ianaIdentifier(for: "Europe/Berlin") == nil)
        #expect(WindowsZones.standardNames.count >= 60)
    }

    @Test func everyWindowsMappingIsATzdataZone() {
        let names = Array(WindowsZones.standardNames.keys) + WindowsZones.displayNames.keys.map { "(UTC) " + $0 }
        for windows in names {
            guard let iana = WindowsZones.ianaIdentifier(for: windows) else {
                Issue.record("\(windows) does not map")
                continue
            }
            #expect(throws: Never.self, "\(windows) → \(iana)") { _ = try ZoneRules.named(iana) }
        }
    }
}
