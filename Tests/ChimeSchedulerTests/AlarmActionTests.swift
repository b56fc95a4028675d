import ChimeCore
import ChimeScheduler
import ChimeStore
import Testing

/// iCalendar's VALARM ACTION as the scheduler sees it: AUDIO alarms fire and ask for a sound,
/// EMAIL alarms never fire (Chime sends no mail); DISPLAY alarms fire without a sound.
@Suite struct AlarmActionTests {
    static let file = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//Example Corp.//CalDAV Client//EN\r
        BEGIN:VEVENT\r
        UID:audio-event@example.com\r
        DTSTAMP:20261120T100000Z\r
        DTSTART:20261120T130000Z\r
        DTEND:20261120T140000Z\r
        SUMMARY:Pick up the kids\r
        BEGIN:VALARM\r
        TRIGGER:-PT10M\r
        ACTION:AUDIO\r
        END:VALARM\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:email-event@example.com\r
        DTSTAMP:20261120T100000Z\r
        DTSTART:20261120T130000Z\r
        DTEND:20261120T140000Z\r
        SUMMARY:Staff meeting\r
        BEGIN:VALARM\r
        ACTION:EMAIL\r
        TRIGGER:-PT10M\r
        SUMMARY:Send the agenda\r
        DESCRIPTION:Send the agenda\r
        ATTENDEE:mailto:john_doe@example.com\r
        END:VALARM\r
        BEGIN:VALARM\r
        ACTION:DISPLAY\r
        TRIGGER:-PT5M\r
        DESCRIPTION:Staff meeting\r
        END:VALARM\r
        END:VEVENT\r
        END:VCALENDAR\r

        """

    @Test func audioAlarmsAskForASoundAndEmailAlarmsNeverFire() throws {
        let h = try SchedulerHarness()
        _ = try h.store.importICS(Array(Self.file.utf8), file: "actions.ics", strict: true)
        try h.start()
        try h.advance(to: utc(2026, 11, 20, 12, 50))
        #expect(h.sink.titles == ["Pick up the kids"])  // the EMAIL alarm at 12:50 did not fire
        #expect(h.sink.delivered[0].asksForSound)
        try h.advance(to: utc(2026, 11, 20, 12, 55))
        #expect(h.sink.titles == ["Pick up the kids", "Staff meeting"])
        #expect(h.sink.delivered[1].asksForSound == false)  // DISPLAY: no sound asked
        try h.advance(to: utc(2026, 11, 20, 15))
        #expect(h.sink.titles.count == 2)
        #expect(h.scheduler.nextDeadline() == nil)
    }
}
