import ChimeCore
@testable import ChimeICS
import Testing

/// One VTIMEZONE read once for many files (a CalDAV pull's copies): the same items, repairs and
/// warnings as reading each file alone, with each distinct definition read and resolved once.
@Suite struct ZoneDefinitionsTests {
    static let customZone = """
        BEGIN:VTIMEZONE
        TZID:Customized Time Zone
        BEGIN:STANDARD
        DTSTART:16011028T030000
        RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10
        TZOFFSETFROM:+0200
        TZOFFSETTO:+0100
        END:STANDARD
        BEGIN:DAYLIGHT
        DTSTART:16010325T020000
        RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3
        TZOFFSETFROM:+0100
        TZOFFSETTO:+0200
        END:DAYLIGHT
        END:VTIMEZONE
        """

    /// One copy as a server holds it: `extra` lines before the zone move it to another line.
    static func copy(_ n: Int, zone: String = customZone, extra: String = "") -> [UInt8] {
        let text = """
            BEGIN:VCALENDAR
            VERSION:2.0
            PRODID:-//Microsoft Corporation//Outlook 16.0 MIMEDIR//EN
            \(extra)\(zone)
            BEGIN:VEVENT
            UID:uid-\(n)
            SUMMARY:Meeting \(n)
            DTSTART;TZID="Customized Time Zone":2026030\(n)T200000
            DTEND;TZID="Customized Time Zone":2026030\(n)T210000
            RRULE:FREQ=WEEKLY;COUNT=8
            END:VEVENT
            END:VCALENDAR

            """
        return Array(text.replacingOccurrences(of: "\n", with: "\r\n").utf8)
    }

    static func starts(_ result: ICSParseResult) -> [RecurrenceStart] {
        result.items.compactMap { if case .event(let e) = $0.item { e.start } else { nil } }
    }

    @Test func copiesSharingADefinitionReadItOnceAndReadAsAlone() throws {
        let zones = ZoneDefinitions()
        let files = [Self.copy(1), Self.copy(2, extra: "X-WR-CALNAME:Work\n"), Self.copy(3)]
        for (i, bytes) in files.enumerated() {
            let shared = try ICalendar.parse(bytes, file: "\(i).ics", zones: zones)
            let alone = try ICalendar.parse(bytes, file: "\(i).ics")
            #expect(Self.starts(shared) == Self.starts(alone))
            #expect(shared.repairs == alone.repairs)
            #expect(shared.skipped == alone.skipped)
            guard case .zoned(_, let zone)? = Self.starts(shared).first else {
                Issue.record("not a zoned start: \(Self.starts(shared))")
                continue
            }
            #expect(zone.identifier == "Europe/Berlin")
        }
        #expect(zones.counts.made == 1, "one definition, read once")
        #expect(zones.counts.resolved == 1, "one search through tzdata")
    }

    @Test func anotherDefinitionUnderTheSameNameIsReadForItself() throws {
        let zones = ZoneDefinitions()
        let tokyo = """
            BEGIN:VTIMEZONE
            TZID:Customized Time Zone
            BEGIN:STANDARD
            DTSTART:16010101T000000
            TZOFFSETFROM:+0900
            TZOFFSETTO:+0900
            END:STANDARD
            END:VTIMEZONE
            """
        let berlin = try ICalendar.parse(Self.copy(1), file: "a.ics", zones: zones)
        let other = try ICalendar.parse(Self.copy(2, zone: tokyo), file: "b.ics", zones: zones)
        #expect(Self.starts(other) == Self.starts(try ICalendar.parse(Self.copy(2, zone: tokyo), file: "b.ics")))
        guard case .zoned(_, let first)? = Self.starts(berlin).first, case .zoned(_, let second)? = Self.starts(other).first else {
            Issue.record("not zoned starts")
            return
        }
        #expect(first.identifier == "Europe/Berlin")
        #expect(second.identifier != first.identifier)
        #expect(zones.counts.made == 2)
    }

    @Test func aDefinitionThatNeededARepairIsSaidInEveryFile() throws {
        let zones = ZoneDefinitions()
        let dated = Self.customZone.replacingOccurrences(of: "DTSTART:16011028T030000", with: "DTSTART;VALUE=DATE:16011028")
        for i in 1...2 {
            let shared = try ICalendar.parse(Self.copy(i, zone: dated), file: "\(i).ics", zones: zones)
            let alone = try ICalendar.parse(Self.copy(i, zone: dated), file: "\(i).ics")
            #expect(shared.repairs.count == 1, "\(shared.repairs)")
            #expect(shared.repairs == alone.repairs)
            #expect(Self.starts(shared) == Self.starts(alone))
        }
    }
}
