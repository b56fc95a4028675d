import Testing
@testable import ChimeCore

/// ORGANIZER and ATTENDEE lines as Google, Outlook and Nextcloud write them, read as EventKit's
/// participants; "me" by address, `mailto:` and case aside; what rings.
@Suite struct ParticipantTests {
    @Test func linesAsClientsWriteThemAreRead() throws {
        let outlook = try #require(
            Participant(
                contentLine:
                    "ATTENDEE;ROLE=OPT-PARTICIPANT;PARTSTAT=TENTATIVE;RSVP=TRUE;CN=\"Doe, Jane\";DELEGATED-FROM=\"mailto:x@example.org\":MAILTO:Jane.Doe@Example.org"
            ))
        #expect(outlook.name == "Doe, Jane" && outlook.role == .optional && outlook.status == .tentative && outlook.kind == .person)
        #expect(outlook.address == "MAILTO:Jane.Doe@Example.org" && !outlook.isOrganizer)
        let room = try #require(Participant(contentLine: "ATTENDEE;CUTYPE=ROOM;CN=Room 4.1:mailto:room41@example.org"))
        #expect(room.kind == .room && room.status == .needsAction && room.role == .required)
        let organizer = try #require(Participant(contentLine: "ORGANIZER;CN=Bob:mailto:bob@example.org"))
        #expect(organizer.isOrganizer && organizer.role == .chair)
        #expect(Participant(contentLine: "SUMMARY:ATTENDEE;CN=x:mailto:y") == nil)
        #expect(Identity(["mailto:Jane.Doe@example.org"]).contains(outlook.address))
        #expect(!Identity(["jane@example.org"]).contains(outlook.address))
    }

    /// Google exports an email alarm as a `VALARM` naming the address it mails in an `ATTENDEE`
    /// line; kept whole with the event, that line is the alarm's, never an attendee of the event.
    @Test func anEmailAlarmsAddressIsNotAnAttendee() {
        var e = Event(title: "Jour fixe", start: .utc(LocalDateTime(year: 2026, month: 12, day: 8, hour: 9)), duration: 1800)
        e.icsExtras = [
            "STATUS:CONFIRMED", "BEGIN:VALARM", "ACTION:EMAIL", "ATTENDEE:mailto:me@example.com", "TRIGGER:-PT30M", "END:VALARM"
        ]
        #expect(e.attendees.isEmpty && e.organizer == nil)
        #expect(e.answer(of: Identity(["me@example.com"])) == nil, "the user's own event, not an invitation")
        #expect(e.keptValue("STATUS") == "CONFIRMED")
        e.icsExtras.append("ATTENDEE;PARTSTAT=ACCEPTED:mailto:me@example.com")
        #expect(e.attendees.map(\.address) == ["mailto:me@example.com"] && e.answer(of: Identity(["me@example.com"])) == .accepted)
    }

    @Test func declinedCancelledAndTentativeDecideWhatRings() {
        func event(_ lines: [String]) -> AnyCalendarItem {
            var e = Event(title: "Meeting", start: .utc(LocalDateTime(year: 2026, month: 12, day: 8, hour: 9)), duration: 1800)
            e.icsExtras = lines
            return .event(e)
        }
        var defaults = AlarmDefaults()
        let declined = event(["ATTENDEE;PARTSTAT=DECLINED:mailto:ana@example.org"])
        let tentative = event(["ATTENDEE;PARTSTAT=TENTATIVE:mailto:ana@example.org"])
        let cancelled = event(["STATUS:CANCELLED"])
        #expect(defaults.rings(declined))  // nobody is "me" yet
        #expect(!defaults.rings(cancelled))
        defaults.identity = Identity(["ANA@example.org"])
        #expect(!defaults.rings(declined) && defaults.rings(tentative))
        defaults.invitations = .accepted
        #expect(!defaults.rings(tentative))
        #expect(defaults.rings(event(["ORGANIZER:mailto:ana@example.org", "ATTENDEE;PARTSTAT=DECLINED:mailto:bob@example.org"])))
    }
}
