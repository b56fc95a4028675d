import ChimeCore
import ChimeScheduler
import ChimeStore
import Testing

/// An invitation's notification says who sent it and who else comes.
@Suite struct InvitationNotificationTests {
    @Test func anInvitationSaysWhoSentItAndWhoElseComes() throws {
        let h = try SchedulerHarness()
        h.settings.alarmDefaults.identity = Identity(["mailto:ana@example.org"])
        var e = try h.addEvent("Budget review", start: at(2026, 11, 20, 13), alarms: [.relative(0)])
        e.icsExtras = [
            "ORGANIZER;CN=Bob Stone:mailto:bob@example.org",
            "ATTENDEE;PARTSTAT=ACCEPTED;CN=Bob Stone:mailto:bob@example.org",
            "ATTENDEE;PARTSTAT=NEEDS-ACTION;CN=Ana Lima:mailto:ANA@example.org",
            "ATTENDEE;PARTSTAT=DECLINED;CN=Dan Roe:mailto:dan@example.org",
            "ATTENDEE;CUTYPE=ROOM;PARTSTAT=ACCEPTED;CN=Room 4.1:mailto:room41@example.org",
            "ATTENDEE;PARTSTAT=TENTATIVE:mailto:cy@example.org"
        ]
        _ = try h.store.save(e)
        var mine = try h.addEvent("My 1:1", start: at(2026, 11, 20, 13), alarms: [.relative(0)])
        mine.icsExtras = ["ORGANIZER:mailto:ana@example.org", "ATTENDEE;CN=Bob Stone:mailto:bob@example.org"]
        _ = try h.store.save(mine)
        try h.start()
        try h.advance(to: utc(2026, 11, 20, 13))
        let invitation = try #require(h.sink.delivered.first { $0.summary == "Budget review" })
        #expect(invitation.body.split(separator: "\n").contains("Invitation from Bob Stone; with Room 4.1 and cy@example.org"), "\(invitation.body)")
        let own = try #require(h.sink.delivered.first { $0.summary == "My 1:1" })
        #expect(!own.body.contains("Invitation"), "the user organises it: \(own.body)")
    }
}
