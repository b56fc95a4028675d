import ChimeDaemon
import Foundation
import ChimeTestKit
import Testing

@Suite struct AlarmsCommandTests {
    @Test func previewListsFiringsInOrderWithArmedLocationAlarms() throws {
        let s = StoreSession(zone: "Europe/Berlin", now: "2026-11-20T12:00:00Z")
        _ = try s.add(
            "event", "Stand-up", "--start", "mon 9:00", "--duration", "15m", "--alarm", "-5m",
            "--repeat", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR")
        _ = try s.add("event", "Review", "--start", "2026-11-20T16:00", "--duration", "1h", "--alarm", "-PT30M", "--alarm", "2026-11-20T14:00:30")
        _ = try s.add("reminder", "Pay rent", "--due", "2026-11-21T18:00", "--alarm", "0m", "--priority", "1")
        _ = try s.add("reminder", "Buy milk", "--at", "Shop@52.5,13.4", "--on", "arrive")
        let r = try s.run("alarms", "--hours", "72")
        #expect(r.status == 0, "\(r.stderr)")
        try Snapshot.check(redactIDs(r.stdout), named: "alarms-preview.txt")
    }

    @Test func badWindowsAreRefusedWithTheOptionNamed() throws {
        let s = StoreSession()
        var r = try s.run("alarms", "--from", "2026-13-01")
        #expect(r.status != 0)
        #expect(r.stderr.contains("--from"))
        r = try s.run("alarms", "--from", "2026-12-02", "--to", "2026-12-01")
        #expect(r.stderr == "Error: the window is empty: --to must be after --from\n")
        r = try s.run("alarms", "--to", "2026-12-02", "--hours", "5")
        #expect(r.stderr.contains("use either --to or --hours, not both"))
    }

    @Test func theShippedConfigFileParsesToTheDefaults() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Config/config.toml").path
        #expect(try DaemonConfiguration.load(path: path, explicit: true) == DaemonConfiguration())
        let five = try DaemonConfiguration.parse("[alarms]\nsnooze_minutes = 5\ngrace_hours = 1.5\n", file: "x.toml")
        #expect(five.scheduler.snoozeChoices == [.minutes(5)])
        let choices = try DaemonConfiguration.parse("[alarms]\nsnooze = [\"5m\", \"15m\", \"1h\", \"tomorrow 9:00\"]\n", file: "x.toml")
        #expect(choices.scheduler.snoozeChoices.map(\.label) == ["Snooze 5 min", "Snooze 15 min", "Snooze 1 h", "Snooze until tomorrow 9:00"])
        #expect(DaemonConfiguration().scheduler.snoozeChoices.map(\.text) == ["10m", "1h"])
        #expect(five.scheduler.graceSeconds == 5400)
        let morning = try DaemonConfiguration.parse("[alarms]\nall_day_time = \"8:30\"\nreminders_at_due = false\n", file: "x.toml")
        #expect(morning.scheduler.alarmDefaults.allDayTimeOfDay == 8 * 3600 + 1800)
        #expect(!morning.scheduler.alarmDefaults.remindersFireAtDue)
        #expect(throws: ConfigurationError.self) { try DaemonConfiguration.parse("[alarms]\nall_day_time = \"25:00\"\n", file: "x.toml") }
        #expect(throws: ConfigurationError.self) { try DaemonConfiguration.parse("[alarms]\nsnooze_minutes = 0\n", file: "x.toml") }
        // A bad entry names the key, its position and the value.
        func refusal(_ text: String) -> String? {
            do { _ = try DaemonConfiguration.parse(text, file: "x.toml"); return nil } catch { return error.description }
        }
        #expect(
            refusal("[alarms]\nsnooze = [\"10m\", \"5 minutes\"]\n")
                == #"x.toml: alarms.snooze[1]: "5 minutes" is neither a length nor a time of day; use a length such as "10m", "1h" or "1h30m" (at most a week), or a time such as "tomorrow 9:00""#
        )
        #expect(refusal("[alarms]\nsnooze = [10]\n") == #"x.toml: alarms.snooze[0]: must be a string such as "10m" or "tomorrow 9:00", not 10"#)
        #expect(throws: ConfigurationError.self) { try DaemonConfiguration.parse("[alarms]\nsnooze = []\n", file: "x.toml") }
        #expect(throws: ConfigurationError.self) { try DaemonConfiguration.parse("[alarms]\nsnooze = \"10m\"\n", file: "x.toml") }
        #expect(throws: ConfigurationError.self) { try DaemonConfiguration.parse("[alarms]\nsnooze = [\"1h\", \"60m\"]\n", file: "x.toml") }
        #expect(throws: ConfigurationError.self) { try DaemonConfiguration.parse("[alarms]\nsnooze = [\"1h\"]\nsnooze_minutes = 5\n", file: "x.toml") }
        #expect(throws: ConfigurationError.self) { try DaemonConfiguration.parse("[log]\nlevel = \"loud\"\n", file: "x.toml") }
        #expect(throws: ConfigurationError.self) { try DaemonConfiguration.parse("notifier = \"stdout\"\n", file: "x.toml") }
        #expect(throws: ConfigurationError.self) { try DaemonConfiguration.parse("[alarms\n", file: "x.toml") }
    }
}

/// `chime show` names what each VALARM does: an AUDIO alarm "with sound", an EMAIL one kept from
/// the file as "email alarm (not sent by Chime)".
@Suite struct AlarmActionShowTests {
    @Test func showListsAudioAndEmailAlarms() throws {
        let s = StoreSession(zone: "UTC", now: "2026-11-20T10:00:00Z")
        try FileManager.default.createDirectory(atPath: s.folder, withIntermediateDirectories: true)
        let file = s.folder + "/actions.ics"
        try """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//Example Corp.//CalDAV Client//EN\r
        BEGIN:VEVENT\r
        UID:show-actions@example.com\r
        DTSTAMP:20261120T100000Z\r
        DTSTART:20261201T090000Z\r
        DTEND:20261201T100000Z\r
        SUMMARY:Board meeting\r
        BEGIN:VALARM\r
        ACTION:EMAIL\r
        TRIGGER:-P1D\r
        SUMMARY:Agenda\r
        DESCRIPTION:Send the agenda\r
        ATTENDEE:mailto:board@example.com\r
        END:VALARM\r
        BEGIN:VALARM\r
        ACTION:AUDIO\r
        TRIGGER:-PT15M\r
        END:VALARM\r
        END:VEVENT\r
        END:VCALENDAR\r

        """.write(toFile: file, atomically: true, encoding: .utf8)
        let imported = try s.run("import", file)
        #expect(imported.status == 0, "\(imported.stderr)")
        let events = try #require(try s.json("agenda", "--from", "2026-12-01", "--to", "2026-12-02") as? [[String: Any]])
        let id = try #require(events.first?["id"] as? String, "\(events)")
        let r = try s.run("show", id)
        #expect(r.status == 0, "\(r.stderr)")
        let alarms = r.stdout.split(separator: "\n").filter { $0.hasPrefix("Alarm:") }.map(String.init)
        #expect(alarms.count == 2, "\(r.stdout)")
        #expect(alarms.first?.hasSuffix("(with sound)") == true, "\(alarms)")
        #expect(alarms.last == "Alarm:     email alarm (not sent by Chime)")
    }

    /// A command alarm (ACTION:PROCEDURE) and an unknown action from a file: one warning each,
    /// naming the line; `chime show` lists them as kept, never as alarms Chime fires.
    @Test func commandAlarmsFromAFileAreWarnedAboutAndListedAsNeverRun() throws {
        let s = StoreSession(zone: "UTC", now: "2026-11-20T10:00:00Z")
        try FileManager.default.createDirectory(atPath: s.folder, withIntermediateDirectories: true)
        let fixture = #filePath.replacingOccurrences(of: "ChimeCLITests/AlarmsCommandTests.swift", with: "ChimeICSTests/Fixtures/command-alarms.ics")
        let imported = try s.run("import", fixture)
        #expect(imported.status == 0, "\(imported.stderr)")
        let warnings = imported.stderr.split(separator: "\n").filter { $0.hasPrefix("warning: ") }
        #expect(
            warnings == [
                "warning: command-alarms.ics:11: ACTION: PROCEDURE is a command alarm: command alarms from files are never run or shown (kept with the item as written)",
                "warning: command-alarms.ics:17: ACTION: X-SPEAK is not an alarm action Chime knows (DISPLAY, AUDIO, EMAIL): never shown (kept with the item as written)"
            ],
            "\(imported.stderr)")
        let events = try #require(try s.json("agenda", "--from", "2026-12-01", "--to", "2026-12-02") as? [[String: Any]])
        let id = try #require(events.first?["id"] as? String, "\(events)")
        let r = try s.run("show", id)
        let alarms = r.stdout.split(separator: "\n").filter { $0.hasPrefix("Alarm:") }.map(String.init)
        #expect(alarms.count == 3, "\(r.stdout)")
        #expect(
            alarms.dropFirst().elementsEqual([
                "Alarm:     command alarm from a file (never run or shown by Chime)",
                "Alarm:     X-SPEAK alarm (not shown by Chime)"
            ]), "\(alarms)")
    }

    /// A Google calendar of invitations (the user is ana.lima@example.org, written once with
    /// capitals): the accepted, the tentative and the unanswered ring; the declined and the
    /// cancelled do not, and a series' declined and cancelled occurrences do not either. With
    /// `invitations = "accepted"` the tentative one is quiet too. Attendee lines leave as they came.
    @Test func declinedAndCancelledMeetingsDoNotRing() throws {
        let s = StoreSession(now: "2026-12-05T12:00:00Z")
        let fixture = #filePath.replacingOccurrences(of: "ChimeCLITests/AlarmsCommandTests.swift", with: "ChimeICSTests/Fixtures/google-invitations.ics")
        let config = s.folder + "/config"
        try FileManager.default.createDirectory(atPath: config + "/chime", withIntermediateDirectories: true)
        try "[identity]\naddresses = [\"mailto:ana.lima@example.org\"]\n".write(toFile: config + "/chime/config.toml", atomically: true, encoding: .utf8)
        var env = s.environment
        env["XDG_CONFIG_HOME"] = config
        #expect(try CLI.run(["import", fixture], environment: env).status == 0)
        func ringing() throws -> [String] {
            let r = try CLI.run(["alarms", "--from", "2026-12-07T00:00:00Z", "--hours", "120", "--json"], environment: env)
            #expect(r.status == 0, "\(r.stderr)")
            let alarms = try #require(try JSONDocument.body(r.stdout) as? [String: Any])["alarms"] as? [[String: Any]] ?? []
            return alarms.map { "\($0["title"] as? String ?? "?") \(($0["occurrence"] as? String ?? "").prefix(10))" }
        }
        #expect(
            try ringing() == [
                "Standup 2026-12-07", "Accepted review 2026-12-08", "Tentative lunch talk 2026-12-08",
                "Standup 2026-12-10", "Standup 2026-12-11"
            ])
        let show = try CLI.run(["show", "Declined sync"], environment: env).stdout
        #expect(show.contains("Organizer: Bob Stone <bob.stone@example.org>") && show.contains("you (declined, does not ring)"), "\(show)")
        #expect(try CLI.run(["show", "Cancelled planning"], environment: env).stdout.contains("Status:    cancelled: it does not ring"))
        // The same in JSON: the organizer, each attendee with its answer and whether it is the user.
        let declined = try #require(try JSONDocument.body(try CLI.run(["show", "Declined sync", "--json"], environment: env).stdout) as? [String: Any])
        #expect((declined["organizer"] as? [String: Any])?["address"] as? String == "mailto:bob.stone@example.org")
        let me = try #require((declined["attendees"] as? [[String: Any]])?.first { $0["is_current_user"] as? Bool == true })
        #expect(me["status"] as? String == "declined" && me["address"] as? String == "mailto:ana.lima@example.org", "\(me)")
        #expect((declined["attendees"] as? [[String: Any]])?.filter { $0["is_current_user"] as? Bool == true }.count == 1)
        let cancelled = try #require(try JSONDocument.body(try CLI.run(["show", "Cancelled planning", "--json"], environment: env).stdout) as? [String: Any])
        #expect(cancelled["status"] as? String == "cancelled")
        let room = try CLI.run(["show", "Accepted review"], environment: env).stdout
        #expect(room.contains("Room 4.1 <c_room41@resource.calendar.google.com> (resource, accepted)"), "\(room)")
        try "[alarms]\ninvitations = \"accepted\"\n[identity]\naddresses = [\"ana.lima@example.org\"]\n"
            .write(toFile: config + "/chime/config.toml", atomically: true, encoding: .utf8)
        #expect(try !ringing().contains("Tentative lunch talk 2026-12-08"))
        // Every attendee parameter leaves as it came.
        let export = try CLI.run(["export"], environment: env).stdout.replacingOccurrences(of: "\r\n ", with: "")
        #expect(
            export.contains(
                "ATTENDEE;CUTYPE=RESOURCE;ROLE=REQ-PARTICIPANT;PARTSTAT=ACCEPTED;CN=Room 4.1;X-NUM-GUESTS=0:mailto:c_room41@resource.calendar.google.com\r\n"),
            "\(export)")
    }
}

/// The same Google file as a new user meets it: imported into a calendar of its own (named after
/// the account, X-WR-CALNAME), with no configuration at all.
@Suite struct InvitationListingTests {
    static let fixture = #filePath.replacingOccurrences(of: "ChimeCLITests/AlarmsCommandTests.swift", with: "ChimeICSTests/Fixtures/google-invitations.ics")

    /// The calendar's name tells who "I" am; `alarms --all` lists the silent ones with why; the
    /// agenda marks them, `--hide-declined` (or the config) leaves them out, and its JSON says
    /// each occurrence's status and the user's answer.
    @Test func aGoogleCalendarNamedAfterTheUserMarksAndHidesWhatTheyDeclined() throws {
        let s = StoreSession(zone: "Europe/Berlin", now: "2026-12-05T12:00:00Z")
        #expect(try s.run("import", Self.fixture, "--new-calendar").status == 0)
        #expect(try s.run("doctor").stdout.contains("you are ana.lima@example.org (the name of a calendar of yours)"))

        let all = try s.run("alarms", "--from", "2026-12-08T00:00:00Z", "--hours", "24", "--all")
        #expect(all.status == 0, "\(all.stderr)")
        let lines = all.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.contains("Declined sync") && $0.contains("(declined: does not ring)") }, "\(all.stdout)")
        #expect(lines.contains { $0.contains("Cancelled planning") && $0.contains("(cancelled: does not ring)") }, "\(all.stdout)")
        #expect(lines.contains { $0.contains("Standup") && $0.contains("(declined: does not ring)") }, "the declined occurrence: \(all.stdout)")
        #expect(!(try s.run("alarms", "--from", "2026-12-08T00:00:00Z", "--hours", "24").stdout.contains("Declined sync")))
        let json =
            try #require(
                try JSONDocument.body(try s.run("alarms", "--from", "2026-12-08T00:00:00Z", "--hours", "24", "--all", "--json").stdout)
                    as? [String: Any])["alarms"] as? [[String: Any]]
        #expect(
            Dictionary(uniqueKeysWithValues: (json ?? []).map { ($0["title"] as? String ?? "?", $0["state"] as? String ?? "?") }) == [
                "Accepted review": "scheduled", "Standup": "declined", "Declined sync": "declined",
                "Cancelled planning": "cancelled", "Tentative lunch talk": "scheduled"
            ])

        let agenda = try s.run("agenda", "--from", "2026-12-08", "--days", "1").stdout
        #expect(
            agenda.contains("Declined sync (declined)") && agenda.contains("Cancelled planning (cancelled)")
                && agenda.contains("Standup (declined)") && agenda.contains("Tentative lunch talk  ["), "\(agenda)")
        let hidden = try s.run("agenda", "--from", "2026-12-08", "--days", "1", "--hide-declined").stdout
        #expect(
            !hidden.contains("Declined sync") && !hidden.contains("Cancelled planning") && !hidden.contains("Standup")
                && hidden.contains("Accepted review"), "\(hidden)")
        let occurrences = try JSONDocument.body(try s.run("agenda", "--from", "2026-12-08", "--days", "1", "--json").stdout) as? [[String: Any]]
        let declined = try #require(occurrences?.first { $0["title"] as? String == "Declined sync" })
        #expect(declined["status"] as? String == "confirmed" && declined["answer"] as? String == "declined", "\(declined)")
        let cancelled = try #require(occurrences?.first { $0["title"] as? String == "Cancelled planning" })
        #expect(cancelled["status"] as? String == "cancelled" && cancelled["answer"] as? String == "accepted", "\(cancelled)")

        // The configuration makes hiding the default; --no-hide-declined shows them for once.
        let config = s.folder + "/config"
        try FileManager.default.createDirectory(atPath: config + "/chime", withIntermediateDirectories: true)
        try "[agenda]\nhide_declined = true\n".write(toFile: config + "/chime/config.toml", atomically: true, encoding: .utf8)
        var env = s.environment
        env["XDG_CONFIG_HOME"] = config
        #expect(!(try CLI.run(["agenda", "--from", "2026-12-08", "--days", "1"], environment: env).stdout.contains("Declined sync")))
        #expect(
            try CLI.run(["agenda", "--from", "2026-12-08", "--days", "1", "--no-hide-declined"], environment: env).stdout
                .contains("Declined sync (declined)"))
    }

    /// A calendar named like an address is only a fallback: an address in the configuration wins,
    /// so someone who imported a colleague's calendar is not taken for them.
    @Test func theConfiguredAddressWinsOverACalendarName() throws {
        let s = StoreSession(zone: "Europe/Berlin", now: "2026-12-05T12:00:00Z")
        #expect(try s.run("import", Self.fixture, "--new-calendar").status == 0)
        let config = s.folder + "/config"
        try FileManager.default.createDirectory(atPath: config + "/chime", withIntermediateDirectories: true)
        try "[identity]\naddresses = [\"bob.stone@example.org\"]\n".write(toFile: config + "/chime/config.toml", atomically: true, encoding: .utf8)
        var env = s.environment
        env["XDG_CONFIG_HOME"] = config
        let agenda = try CLI.run(["agenda", "--from", "2026-12-08", "--days", "1"], environment: env).stdout
        #expect(!agenda.contains("Declined sync (declined)") && agenda.contains("Cancelled planning (cancelled)"), "\(agenda)")
    }
}

/// Files written by Thunderbird, Apple's clients and Evolution after their alarms were answered
/// or snoozed there: `chime alarms` lists each answered instance as acknowledged (it will not
/// ring) and each snooze at its time, as the writing client would ring them.
@Suite struct AnsweredAlarmFileTests {
    func alarms(of fixture: String, from: String = "2026-12-07T00:00:00Z") throws -> [String] {
        let s = StoreSession(now: "2026-12-06T12:00:00Z")
        let path = #filePath.replacingOccurrences(of: "ChimeCLITests/AlarmsCommandTests.swift", with: "ChimeICSTests/Fixtures/" + fixture)
        let imported = try s.run("import", path)
        #expect(imported.status == 0, "\(imported.stderr)")
        let r = try s.run("alarms", "--from", from, "--hours", "192", "--json")
        #expect(r.status == 0, "\(r.stderr)")
        let list = try #require(try JSONDocument.body(r.stdout) as? [String: Any])["alarms"] as? [[String: Any]] ?? []
        return list.map { "\($0["title"] as? String ?? "?") \($0["fire"] as? String ?? "?") \($0["state"] as? String ?? "?")" }
    }

    @Test func thunderbirdClosedAndSnoozedAlarms() throws {
        #expect(
            try alarms(of: "thunderbird-answered.ics") == [
                "Dentist 2026-12-07T08:00:00Z acknowledged",
                "Dentist 2026-12-07T08:45:00Z acknowledged",
                "Team call 2026-12-07T12:45:00Z acknowledged",
                "Team call 2026-12-07T12:56:00Z scheduled",
                "Yoga 2026-12-07T16:30:00Z acknowledged",
                "Yoga 2026-12-07T16:41:00Z scheduled",
                "Yoga 2026-12-14T16:30:00Z scheduled"
            ])
    }

    @Test func appleAcknowledgedAndSnoozedAlarmsAndItsNoAlarmMarker() throws {
        #expect(
            try alarms(of: "apple-answered.ics") == [
                "Flight to Lisbon 2026-12-08T05:00:00Z acknowledged",
                "Flight to Lisbon 2026-12-08T05:15:00Z scheduled"
            ])
    }

    @Test func evolutionAcknowledgedTheFirstInstanceOnly() throws {
        #expect(
            try alarms(of: "evolution-answered.ics") == [
                "Stand-up 2026-12-07T07:20:00Z acknowledged",
                "Stand-up 2026-12-08T07:20:00Z scheduled",
                "Stand-up 2026-12-09T07:20:00Z scheduled",
                "Stand-up 2026-12-10T07:20:00Z scheduled",
                "Stand-up 2026-12-11T07:20:00Z scheduled"
            ])
    }

    /// The answers survive export byte for byte, for the clients that wrote them.
    @Test func answersLeaveAsTheyCame() throws {
        let s = StoreSession(now: "2026-12-06T12:00:00Z")
        for fixture in ["thunderbird-answered.ics", "apple-answered.ics"] {
            let path = #filePath.replacingOccurrences(of: "ChimeCLITests/AlarmsCommandTests.swift", with: "ChimeICSTests/Fixtures/" + fixture)
            #expect(try s.run("import", path).status == 0)
        }
        let export = try s.run("export").stdout.replacingOccurrences(of: "\r\n ", with: "")
        for line in [
            "X-MOZ-LASTACK:20261207T124600Z", "X-MOZ-SNOOZE-TIME:20261207T125600Z",
            "X-MOZ-SNOOZE-TIME-1796662800000000:20261207T164100Z", "ACKNOWLEDGED:20261208T050500Z",
            "RELATED-TO;RELTYPE=SNOOZE:2B0C6A44-1D7E-4F39-8A51-0C9E7B3D1A01", "ACTION:NONE"
        ] {
            #expect(export.contains(line + "\r\n"), "\(line)")
        }
    }
}

/// The UID names an item on every machine: `show`, `edit` and the rest take it, `@` and all, and
/// with an occurrence after it.
@Suite struct UIDReferenceTests {
    @Test func aGoogleUIDWithItsAtSignNamesTheItemAndAnOccurrenceFollowsIt() throws {
        let s = StoreSession(now: "2026-11-20T12:00:00Z")
        let path = #filePath.replacingOccurrences(of: "ChimeCLITests/AlarmsCommandTests.swift", with: "ChimeICSTests/Fixtures/google.ics")
        #expect(try s.run("import", path).status == 0)
        let whole = try s.run("show", "7c1d8e2f9a0b@google.com")
        #expect(whole.status == 0 && whole.stdout.contains("Office closed"), "\(whole.stdout)\(whole.stderr)")
        let occurrence = try s.run("show", "4k2p9s0v8j3l1q6r7t5u0w2x4y@google.com@20261103T083000Z", "--json")
        #expect(occurrence.status == 0, "\(occurrence.stderr)")
        let item = try #require(try JSONDocument.body(occurrence.stdout) as? [String: Any])
        #expect(item["uid"] as? String == "4k2p9s0v8j3l1q6r7t5u0w2x4y@google.com")
        #expect(item["occurrence"] as? String == "2026-11-03T08:30:00Z")
        #expect((item["ref"] as? String)?.hasSuffix("@20261103T083000Z") == true && item["title"] as? String == "Stand-up")
        let wrong = try s.run("show", "7c1d8e2f9a0b@google.org")
        #expect(wrong.status != 0 && wrong.stderr.contains("is not an occurrence") && wrong.stderr.contains("UID"), "\(wrong.stderr)")
    }
}
