import Foundation
import Testing
@testable import ChimeCore

@Suite("Zone rules from the system tzdata")
struct ZoneRulesTests {
    static let zones = [
        "America/New_York", "Europe/Berlin", "Australia/Sydney", "Australia/Lord_Howe",
        "Asia/Kolkata", "America/Sao_Paulo", "Pacific/Apia", "Europe/London"
    ]

    /// Foundation takes its rules from ICU's own copy of tzdata, not /usr/share/zoneinfo: an
    /// independent reading of the same rules. Both must agree at every quarter hour of 2026.
    /// The hinted offset (for instants read in order) is the offset, whatever the hint held:
    /// hours in order across each change, then jumps back and forth, before the table and past it.
    @Test(arguments: zones)
    func hintedOffsetIsTheOffset(name: String) throws {
        let zone = try ZoneRules.named(name)
        var hint = -2
        var instants: [Int64] = Array(stride(from: Int64(1_700_000_000), to: 1_900_000_000, by: 3_599))
        instants += [-4_000_000_000, 0, 1_800_000_000, 1_000_000_000, 1_800_000_001, 20_000_000_000, 1_700_000_000, -1]
        for t in instants {
            let instant = Instant(secondsSince1970: t)
            #expect(zone.offset(at: instant, hint: &hint) == zone.offset(at: instant), "\(name) at \(t)")
        }
    }

    @Test(arguments: zones)
    func offsetsAgreeWithFoundationEveryQuarterHourOf2026(_ name: String) throws {
        let rules = try ZoneRules.named(name)
        let foundation = try #require(TimeZone(identifier: name))
        let start = Int64(CivilDate(year: 2026, month: 1, day: 1).daysSinceEpoch) * 86_400
        var mismatches = 0
        for step in 0..<(365 * 96) {
            let t = start + Int64(step) * 900
            if Int(rules.offset(at: Instant(secondsSince1970: t))) != foundation.secondsFromGMT(for: Date(timeIntervalSince1970: Double(t))) {
                mismatches += 1
            }
        }
        #expect(mismatches == 0, "\(name): \(mismatches) quarter hours disagree")
    }

    /// Past 2037 the TZif table ends and the POSIX footer takes over; past 2400 it is evaluated directly.
    @Test(arguments: ["America/New_York", "Europe/Berlin", "Australia/Lord_Howe"])
    func footerRulesAgreeWithFoundationInFarFutureYears(_ name: String) throws {
        let rules = try ZoneRules.named(name)
        let foundation = try #require(TimeZone(identifier: name))
        for year in [2038, 2040, 2099, 2399, 2450, 3000] {
            let start = Int64(CivilDate(year: year, month: 1, day: 1).daysSinceEpoch) * 86_400
            for step in 0..<(365 * 4) {
                let t = start + Int64(step) * 21_600
                let expected = foundation.secondsFromGMT(for: Date(timeIntervalSince1970: Double(t)))
                #expect(Int(rules.offset(at: Instant(secondsSince1970: t))) == expected, "\(name) at \(Instant(secondsSince1970: t))")
                if Int(rules.offset(at: Instant(secondsSince1970: t))) != expected { return }
            }
        }
    }

    /// Wall time → instant round-trips for every existing wall time; gap and overlap follow the rules.
    @Test(arguments: zones)
    func wallTimeToInstantRoundTrips(_ name: String) throws {
        let rules = try ZoneRules.named(name)
        let start = Int64(CivilDate(year: 2026, month: 1, day: 1).daysSinceEpoch) * 86_400
        var hint = -2
        for step in 0..<(365 * 96) {
            let instant = start + Int64(step) * 900
            let local = rules.localTime(at: Instant(secondsSince1970: instant))
            let back = rules.instantSeconds(forLocalSeconds: local.localSeconds, hint: &hint)
            // In an overlap the earlier instant wins, so the way back may be earlier, never later.
            #expect(back <= instant)
            #expect(rules.localTime(at: Instant(secondsSince1970: back)) == local)
        }
    }

    @Test func gapMovesForwardByTheGapAndOverlapTakesTheFirst() throws {
        let ny = try ZoneRules.named("America/New_York")
        let gap = ny.instant(for: LocalDateTime(year: 2026, month: 3, day: 8, hour: 2, minute: 30))
        #expect(gap.utcBasicFormat == "20260308T073000Z")  // 03:30 EDT
        #expect(ny.localTime(at: gap) == LocalDateTime(year: 2026, month: 3, day: 8, hour: 3, minute: 30))
        let overlap = ny.instant(for: LocalDateTime(year: 2026, month: 11, day: 1, hour: 1, minute: 30))
        #expect(overlap.utcBasicFormat == "20261101T053000Z")  // 01:30 EDT, the first
        let lordHowe = try ZoneRules.named("Australia/Lord_Howe")  // 30-minute shift on 2026-10-04 at 02:00
        let halfGap = lordHowe.instant(for: LocalDateTime(year: 2026, month: 10, day: 4, hour: 2, minute: 15))
        #expect(lordHowe.localTime(at: halfGap) == LocalDateTime(year: 2026, month: 10, day: 4, hour: 2, minute: 45))
    }

    @Test func unknownAndHostileNamesAreRejected() {
        for name in ["Mars/Olympus_Mons", "../../etc/passwd", "/etc/localtime", "", "America", "posix/Europe/Berlin", "Europe/Berlin\n"] {
            #expect(throws: TimeZoneError.self, "\(name)") { try ZoneRules.named(name) }
        }
        #expect(String(describing: TimeZoneError.unknown("X/Y")).contains("unknown time zone \"X/Y\""))
    }

    @Test func utcAliasesAndCaching() throws {
        #expect(try ZoneRules.named("UTC").isUTC)
        #expect(try ZoneRules.named("Etc/UTC") === ZoneRules.utc)
        #expect(try ZoneRules.named("Europe/Berlin") === ZoneRules.named("Europe/Berlin"))
    }

    @Test func posixFooterParsing() {
        let ny = PosixTimeZoneRule("EST5EDT,M3.2.0,M11.1.0")
        #expect(ny?.standardOffset == -18_000 && ny?.daylight?.offset == -14_400)
        let lordHowe = PosixTimeZoneRule("<+1030>-10:30<+11>-11,M10.1.0,M4.1.0")
        #expect(lordHowe?.standardOffset == 37_800 && lordHowe?.daylight?.offset == 39_600)
        #expect(PosixTimeZoneRule("IST-5:30")?.daylight == nil)
        #expect(PosixTimeZoneRule("<-03>3")?.standardOffset == -10_800)
        #expect(PosixTimeZoneRule("garbage,,,") == nil)
        // 2026 New York transitions from the footer alone: 2026-03-08T07:00Z and 2026-11-01T06:00Z.
        let t = ny!.transitions(in: 2026)
        #expect(t.map(\.at) == [1_772_953_200, 1_793_512_800])
    }

    @Test func tzifReaderRejectsGarbage() {
        #expect(throws: TZifData.ParseError.self) { try TZifData(bytes: Array("not a tzif file".utf8)) }
        #expect(throws: TZifData.ParseError.self) { try TZifData(bytes: Array("TZif2".utf8) + [UInt8](repeating: 0, count: 10)) }
    }

    /// Zone arithmetic is total: any Int64 an app sends over D-Bus (a window ending at Int64.max,
    /// starting at Int64.min) is read without an overflow trap, which took the daemon down before.
    /// Dates a calendar can hold read as before.
    @Test(arguments: zones + ["UTC"])
    func everyInt64IsReadWithoutATrap(name: String) throws {
        let zone = try ZoneRules.named(name)
        let extremes: [Int64] = [
            .min, .min + 1, .min + 86_399, -(1 << 62), -(1 << 45) - 1, -1, 0,
            (1 << 45) + 1, 1 << 62, .max - 86_400, .max - 1, .max, 9_223_372_036_854_775_000
        ]
        var hint = -2
        for t in extremes {
            let instant = Instant(secondsSince1970: t)
            let local = zone.localTime(at: instant)
            #expect(zone.offsetBounds.contains(zone.offset(at: instant)), "\(name) at \(t)")
            #expect(zone.offset(at: instant, hint: &hint) == zone.offset(at: instant), "\(name) at \(t)")
            _ = zone.instant(for: local)
            _ = zone.instantSeconds(forLocalSeconds: t)
            _ = zone.resolve(localSeconds: t, hint: &hint)
            _ = LocalDateTime(localSeconds: t).localSeconds
            _ = instant.utc.basicFormat
            #expect((t < 0) == (LocalDateTime(localSeconds: t).date.year < 1970), "\(t)")
        }
        _ = zone.offsetChanges(after: .max - 10, through: .max)
        _ = zone.tableChanges(after: .min, through: .min + 100)
        // Nothing a calendar can hold is moved by the clamping.
        let farFuture = LocalDateTime(year: 9999, month: 12, day: 31, hour: 23, minute: 59, second: 59)
        #expect(zone.localTime(at: zone.instant(for: farFuture)) == farFuture)
        let yearZero = LocalDateTime(year: 0, month: 1, day: 1)
        #expect(LocalDateTime(localSeconds: yearZero.localSeconds) == yearZero)
    }

    @Test func dayOfLocalSecondsRoundsDownWithoutOverflow() {
        #expect(LocalDateTime.day(ofLocalSeconds: -1) == -1)
        #expect(LocalDateTime.day(ofLocalSeconds: -86_400) == -1)
        #expect(LocalDateTime.day(ofLocalSeconds: -86_401) == -2)
        #expect(LocalDateTime.day(ofLocalSeconds: 86_399) == 0)
        #expect(LocalDateTime.day(ofLocalSeconds: .min) == Int(Int64.min / 86_400) - 1)
    }
}
