import ChimeCore
import ChimeScheduler
import ChimeStore
import Foundation
import Testing

/// Work calendars as Google, Outlook/Exchange and Nextcloud write them, each with an accepted,
/// a declined, a cancelled and a tentative meeting and a daily series with one declined and one
/// cancelled occurrence (Outlook's also a delegated one, Nextcloud's an unanswered one): over a
/// week of virtual time, the scheduler rings exactly the ones the user will attend.
@Suite struct InvitationFixtureTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let fixture: String
        /// The deliveries expected: title and the start of the occurrence (UTC).
        let rings: [String]
        var testDescription: String { fixture }
    }

    static let cases = [
        Case(
            fixture: "google-invitations.ics",
            rings: [
                "Standup 2026-12-07T09:00:00Z", "Accepted review 2026-12-08T09:00:00Z", "Tentative lunch talk 2026-12-08T15:00:00Z",
                "Standup 2026-12-10T09:00:00Z", "Standup 2026-12-11T09:00:00Z"
            ]),
        Case(
            fixture: "outlook-invitations.ics",
            rings: [
                "Daily sync 2026-12-07T08:00:00Z", "Budget review 2026-12-08T08:30:00Z", "Lunch and learn 2026-12-08T14:00:00Z",
                "Daily sync 2026-12-10T08:00:00Z", "Daily sync 2026-12-11T08:00:00Z"
            ]),
        Case(
            fixture: "nextcloud-invitations.ics",
            rings: [
                "Team standup 2026-12-07T08:15:00Z", "Sprint planning 2026-12-08T08:30:00Z", "Reading group 2026-12-08T14:00:00Z",
                "Office hours 2026-12-08T16:00:00Z", "Team standup 2026-12-10T08:15:00Z", "Team standup 2026-12-11T08:15:00Z"
            ])
    ]

    @Test(arguments: cases) func theWeekRingsOnlyWhatTheUserAttends(_ c: Case) throws {
        let h = try SchedulerHarness(zone: try ZoneRules.named("Europe/Berlin"), now: utc(2026, 12, 6, 12))
        // Written as each server spells the user, with other capitals and a mailto: or not.
        h.settings.alarmDefaults.identity = Identity(["mailto:Ana.Lima@example.org", "ANA.LIMA@contoso.com", "ana@cloud.example.net"])
        let path = #filePath.replacingOccurrences(of: "ChimeSchedulerTests/InvitationFixtureTests.swift", with: "ChimeICSTests/Fixtures/" + c.fixture)
        let bytes = try #require(FileManager.default.contents(atPath: path))
        _ = try h.store.importICS([UInt8](bytes), file: c.fixture)
        try h.start()
        // Hour by hour, as a running daemon meets them (each comes due within its grace).
        var now = utc(2026, 12, 6, 12)
        while now < utc(2026, 12, 12, 0) {
            now = now.adding(3600)
            try h.advance(to: now)
        }
        #expect(h.sink.delivered.map { "\($0.summary) \($0.keys.first.map { "\($0.occurrence)" } ?? "?")" } == c.rings)
    }
}

/// What a sync brings while the daemon runs: a cancellation or a decline takes the alarm off the
/// screen (and out of the snoozes), and a pending one never rings.
@Suite struct InvitationWithdrawalTests {
    static let organizer = "ORGANIZER;CN=Bob Stone:mailto:bob@example.org"
    static func attendee(_ answer: String) -> String { "ATTENDEE;PARTSTAT=\(answer);CN=Ana Lima:mailto:ana@example.org" }

    @Test(arguments: ["STATUS:CANCELLED", "DECLINED"]) func aCancellationOrADeclineWithdrawsTheAlarm(_ change: String) async throws {
        let h = try SchedulerHarness()
        h.settings.alarmDefaults.identity = Identity(["ana@example.org"])
        var shown = try h.addEvent("Budget review", start: at(2026, 11, 20, 13), alarms: [.relative(0)])
        var pending = try h.addEvent("Retro", start: at(2026, 11, 20, 15), alarms: [.relative(0)])
        for event in [shown, pending] {
            var e = event
            e.icsExtras = [Self.organizer, Self.attendee("ACCEPTED")]
            _ = try h.store.save(e)
        }
        shown = try #require(try h.store.event(withIdentifier: shown.identifier))
        pending = try #require(try h.store.event(withIdentifier: pending.identifier))
        try h.start()
        try h.advance(to: utc(2026, 11, 20, 13))
        let key = try #require(h.sink.delivered.first?.keys.first)
        let sequence = try h.store.currentChangeSequence()
        for var e in [shown, pending] {
            e.icsExtras = change == "DECLINED" ? [Self.organizer, Self.attendee("DECLINED")] : [Self.organizer, Self.attendee("ACCEPTED"), change]
            _ = try h.store.save(e)
        }
        try h.scheduler.apply(try await h.pendingChanges(after: sequence))
        #expect(h.sink.withdrawn == [key])
        #expect(try h.store.ledger.entries(for: [key])[key]?.state == .dismissed)
        try h.advance(to: utc(2026, 11, 20, 16))
        #expect(h.sink.titles == ["Budget review"], "the pending one never rings")
    }
}
