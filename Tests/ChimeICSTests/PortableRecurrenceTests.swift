import ChimeCore
@testable import ChimeICS
import Testing

/// The form a lunar (RSCALE) event takes on a server that refuses RFC 7529 rules, and back.
@Suite struct PortableRecurrenceTests {
    private func event(_ start: CalendarDate, rule: String) throws -> Event {
        var e = Event(title: "妈妈生日", calendar: "c", start: start, end: start)
        e.recurrenceRules = [try RecurrenceRule(parsing: rule)]
        return e
    }

    private func roundTrip(_ e: Event) throws -> (text: String, back: Event) {
        let portable = try #require(PortableRecurrence.portable([.event(e)]))
        let text = String(decoding: ICalendar.serialize(portable, now: Instant(secondsSince1970: 0), floatingZone: .utc), as: UTF8.self)
        let parsed = try ICalendar.parse(Array(text.utf8), file: "server.ics")
        guard case .event(let back)? = parsed.items.first?.item else { throw ICSError(file: "server.ics", line: 0, property: "", "no event") }
        return (text, back)
    }

    @Test func anAllDayLunarBirthdayGoesAsDatesAndComesBackAsItsRule() throws {
        let e = try event(.allDay(CivilDate(year: 2026, month: 9, day: 25)), rule: "RSCALE=CHINESE;FREQ=YEARLY;SKIP=BACKWARD")
        let (text, back) = try roundTrip(e)
        #expect(!text.contains("\nRRULE") && text.contains("RDATE;VALUE=DATE:20270915") && text.contains("RDATE;VALUE=DATE:20281003"))
        #expect(text.contains("X-CHIME-RSCALE-RRULE:RSCALE=CHINESE\\;FREQ=YEARLY\\;SKIP=BACKWARD"))
        // 60 years of dates, the last before 2086-09-01.
        #expect(text.components(separatedBy: "RDATE").count - 1 == 59)
        #expect(back.recurrenceRules == e.recurrenceRules && back.recurrenceDates.isEmpty && back.icsExtras.isEmpty)
    }

    @Test func aTimedHebrewRuleInAZoneComesBackWithADateAnotherClientAdded() throws {
        let zone = try ZoneRules.named("Asia/Jerusalem")
        var e = try event(
            .zoned(LocalDateTime(year: 2026, month: 3, day: 19, hour: 18, minute: 30), zone),
            rule: "RSCALE=HEBREW;FREQ=YEARLY;COUNT=5")
        e.recurrenceDates = [.local(LocalDateTime(year: 2026, month: 12, day: 24, hour: 18, minute: 30))]
        let (text, back) = try roundTrip(e)
        #expect(text.contains("RDATE;TZID=Asia/Jerusalem:20270408T183000"), "\(text)")
        #expect(back.recurrenceRules == e.recurrenceRules)
        #expect(back.recurrenceDates == e.recurrenceDates)
    }

    @Test func itemsWithoutCalendarRulesNeedNothing() throws {
        let plain = try event(.allDay(CivilDate(year: 2026, month: 9, day: 25)), rule: "FREQ=YEARLY")
        let gregorian = try event(.allDay(CivilDate(year: 2026, month: 9, day: 25)), rule: "RSCALE=GREGORIAN;FREQ=YEARLY")
        #expect(PortableRecurrence.portable([.event(plain), .event(gregorian)]) == nil)
        // An X- property that does not hold a readable rule leaves the event as it came.
        var odd = plain
        odd.recurrenceRules = []
        odd.icsExtras = ["X-CHIME-RSCALE-RRULE:FREQ=NEVER"]
        #expect(PortableRecurrence.restored(odd) == odd)
    }
}
