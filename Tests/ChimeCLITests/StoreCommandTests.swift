import Foundation
import ChimeTestKit
import Testing

@Suite("chime add / agenda / show / edit / remove / complete")
struct StoreCommandTests {
    /// `edit --no-alarm` drops every alarm, the e-mail one Chime keeps as it came (Thunderbird's)
    /// too: `show` lists none, and an export hands none back.
    @Test func noAlarmDropsTheEmailAlarmKeptAsItCame() throws {
        let s = StoreSession()
        let path = try s.writeFile(
            "book-club.ics",
            lines: [
                "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Mozilla.org/NONSGML Mozilla Calendar V1.1//EN",
                "BEGIN:VEVENT", "UID:book-club-1", "DTSTAMP:20261101T000000Z", "DTSTART:20261210T180000Z", "DTEND:20261210T200000Z",
                "SUMMARY:Book club", "X-MOZ-GENERATION:2",
                "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:-PT2H", "DESCRIPTION:Book club", "END:VALARM",
                "BEGIN:VALARM", "ACTION:EMAIL", "TRIGGER:-P1D", "SUMMARY:Book club", "DESCRIPTION:Tomorrow",
                "ATTENDEE:mailto:me@example.com", "END:VALARM",
                "END:VEVENT", "END:VCALENDAR", ""
            ])
        #expect(try s.run("import", path).status == 0)
        #expect(try s.run("show", "Book club").stdout.contains("email alarm"))
        let edit = try s.run("edit", "Book club", "--no-alarm")
        #expect(edit.status == 0, "\(edit.stderr)")
        let show = try s.run("show", "Book club").stdout
        #expect(!show.contains("email alarm"), "\(show)")
        let export = try s.run("export").stdout
        #expect(!export.contains("BEGIN:VALARM") && export.contains("X-MOZ-GENERATION:2"), "\(export)")
    }

    /// `edit --remove-alarm email` drops only the e-mail alarm; `--alarm` replaces every alarm,
    /// the e-mail one too, as `show` lists them together.
    @Test func anEmailAlarmIsNamedByItsKindAndReplacedWithTheOthers() throws {
        let s = StoreSession()
        let path = try s.writeFile(
            "book-club.ics",
            lines: [
                "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Google Inc//Google Calendar 70.9054//EN",
                "BEGIN:VEVENT", "UID:book-club-2", "DTSTAMP:20261101T000000Z", "DTSTART:20261210T180000Z", "DTEND:20261210T200000Z",
                "SUMMARY:Book club",
                "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:-PT2H", "DESCRIPTION:This is an event reminder", "END:VALARM",
                "BEGIN:VALARM", "ACTION:EMAIL", "TRIGGER:-P1D", "SUMMARY:Alarm notification", "DESCRIPTION:This is an event reminder",
                "ATTENDEE:mailto:me@example.com", "END:VALARM",
                "END:VEVENT", "END:VCALENDAR", ""
            ])
        #expect(try s.run("import", path).status == 0)
        let wrong = try s.run("edit", "Book club", "--remove-alarm", "1d")
        #expect(wrong.status != 0 && wrong.stderr.contains("(2h (2 h before); email)"), "\(wrong.stderr)")
        let json = try s.json("show", "Book club") as? [String: Any]
        #expect(json?["kept_alarms"] as? [String] == ["email"], "\(String(describing: json))")
        // With the e-mail alarm alone left, it is the alarm shown, not "none".
        let timedGone = try s.run("edit", "Book club", "--remove-alarm", "2h")
        #expect(timedGone.status == 0 && timedGone.stdout.contains("email alarm") && !timedGone.stdout.contains("none"), "\(timedGone.stdout)")
        var show = try s.run("show", "Book club").stdout
        #expect(show.contains("email alarm") && !show.contains("none"), "\(show)")
        #expect(try s.run("edit", "Book club", "--alarm", "2h", "--remove-alarm", "E-Mail").status == 0)
        let asked = try s.run("edit", "Book club", "--alarm", "email")
        #expect(asked.status != 0 && asked.stderr.contains("--alarm: \"email\": Chime sends no e-mail"), "\(asked.stderr)")
        let removed = try s.run("edit", "Book club", "--remove-alarm", "email")
        #expect(removed.status != 0 && removed.stderr.contains("\"email\" is not one of the alarms (2h (2 h before))"), "\(removed.stderr)")
        show = try s.run("show", "Book club").stdout
        #expect(!show.contains("email alarm") && show.contains("(2 h before)"), "\(show)")
        #expect(try s.run("import", path).status == 0)  // the same file again: unchanged, the e-mail alarm stays gone
        show = try s.run("show", "Book club").stdout
        #expect(!show.contains("email alarm"), "\(show)")

        let other = s.folder + "/other.ics"
        try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(of: "book-club-2", with: "book-club-3")
            .replacingOccurrences(of: "SUMMARY:Book club", with: "SUMMARY:Reading circle").write(toFile: other, atomically: true, encoding: .utf8)
        #expect(try s.run("import", other).status == 0)
        let replaced = try s.run("edit", "Reading circle", "--alarm", "30m")
        #expect(replaced.status == 0, "\(replaced.stderr)")
        show = try s.run("show", "Reading circle").stdout
        #expect(!show.contains("email alarm") && !show.contains("(2 h before)") && show.contains("(30 min before)"), "\(show)")
        let export = try s.run("export").stdout
        #expect(!export.contains("ACTION:EMAIL"), "\(export)")
    }

    /// Thunderbird's alarm "5 minutes before the end" is removed the way it would be typed.
    @Test func anAlarmCountedFromTheEndIsRemovedAsTyped() throws {
        let s = StoreSession()
        let path = try s.writeFile(
            "review.ics",
            lines: [
                "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Mozilla.org/NONSGML Mozilla Calendar V1.1//EN",
                "BEGIN:VEVENT", "UID:review-end", "DTSTAMP:20261101T000000Z", "DTSTART:20261210T090000Z", "DTEND:20261210T103000Z",
                "SUMMARY:Quarterly review",
                "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER;RELATED=END:-PT5M", "DESCRIPTION:Wrap up", "END:VALARM",
                "END:VEVENT", "END:VCALENDAR", ""
            ])
        #expect(try s.run("import", path).status == 0)
        let wrong = try s.run("edit", "Quarterly review", "--remove-alarm", "10m")
        #expect(wrong.status != 0 && wrong.stderr.contains("(5m before the end)"), "\(wrong.stderr)")
        let removed = try s.run("edit", "Quarterly review", "--remove-alarm", "5m")
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(!(try s.run("export").stdout.contains("RELATED=END")))
        // Beside one of the same length from the start, it is named as the list names it.
        let both = try s.run("edit", "Quarterly review", "--alarm", "5m")
        #expect(both.status == 0, "\(both.stderr)")
        #expect(try s.run("import", path).status == 0)  // older than the edit: left alone
        var export = try s.run("export").stdout
        #expect(export.contains("TRIGGER:-PT5M") && !export.contains("RELATED=END"), "\(export)")
        let other = s.folder + "/both.ics"
        try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(of: "review-end", with: "review-both")
            .replacingOccurrences(of: "Quarterly review", with: "Budget review")
            .replacingOccurrences(
                of: "END:VALARM", with: "END:VALARM\r\nBEGIN:VALARM\r\nACTION:DISPLAY\r\nTRIGGER:-PT5M\r\nDESCRIPTION:Start\r\nEND:VALARM"
            )
            .write(toFile: other, atomically: true, encoding: .utf8)
        #expect(try s.run("import", other).status == 0)
        let endOnly = try s.run("edit", "Budget review", "--remove-alarm", "5m before the end")
        #expect(endOnly.status == 0, "\(endOnly.stderr)")
        export = try s.run("export").stdout
        let budget = export.components(separatedBy: "BEGIN:VEVENT").first { $0.contains("Budget review") } ?? ""
        #expect(!budget.contains("RELATED=END") && budget.contains("TRIGGER:-PT5M"), "\(budget)")
    }

    /// `--location ""` clears the place (as the form's empty line does): no empty LOCATION line
    /// in an export, no blank "Location:" in `show`.
    @Test func anEmptyValueClearsTheField() throws {
        let s = StoreSession()
        let id = try s.add("event", "Lunch", "--start", "2026-12-10T12:00", "--location", "Canteen", "--url", "https://example.org")
        #expect(try s.run("edit", String(id.prefix(8)), "--location", "", "--url", "").status == 0)
        let show = try s.run("show", String(id.prefix(8))).stdout
        #expect(!show.contains("Location:") && !show.contains("URL:"), "\(show)")
        let export = try s.run("export").stdout
        #expect(!export.contains("LOCATION") && !export.contains("URL"), "\(export)")
    }

    /// A ticked-off instance of a repeating reminder is exported with a UID of its own; the same
    /// export imported back (the other device's, or this one's) finds it, not a new to-do.
    @Test func aTickedOffInstanceComesBackAsItWent() throws {
        let s = StoreSession()
        let fixture = #filePath.replacingOccurrences(of: "ChimeCLITests/StoreCommandTests.swift", with: "ChimeICSTests/Fixtures/apple-reminders.ics")
        try FileManager.default.createDirectory(atPath: s.folder, withIntermediateDirectories: true)
        #expect(try s.run("import", fixture).status == 0)
        #expect(try s.run("complete", "Water plants").status == 0)
        #expect(try s.run("export", "-o", s.folder + "/back.ics").status == 0)
        let again = try s.run("import", s.folder + "/back.ics", "--json")
        let report = try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any]
        #expect(report?["todos_added"] as? Int == 0 && report?["events_added"] as? Int == 0, "\(again.stdout)")
        let export = try s.run("export")
        #expect(!export.stderr.contains("is in"), "\(export.stderr)")
        // The ticked-off copy changed elsewhere (a newer SEQUENCE) comes back still tied to its series.
        let text = try String(contentsOfFile: s.folder + "/back.ics", encoding: .utf8)
        let changed = text.components(separatedBy: "BEGIN:VTODO").map { block -> String in
            guard block.contains("RELATED-TO") else { return block }
            return block.components(separatedBy: "\r\n").map { line in
                line.hasPrefix("SEQUENCE:") ? "SEQUENCE:99" : line == "SUMMARY:Water plants" ? "SUMMARY:Water plants (balcony)" : line
            }.joined(separator: "\r\n")
        }.joined(separator: "BEGIN:VTODO")
        try changed.write(toFile: s.folder + "/changed.ics", atomically: true, encoding: .utf8)
        let updated = try s.json("import", s.folder + "/changed.ics") as? [String: Any]
        #expect(updated?["todos_updated"] as? Int == 1 && updated?["todos_added"] as? Int == 0, "\(updated ?? [:])")
        let done = try s.json("reminders", "--completed") as? [[String: Any]] ?? []
        let copy = done.first { $0["title"] as? String == "Water plants (balcony)" }
        #expect(copy?["series"] is String, "\(done)")
    }

    @Test func agendaListsOccurrencesGroupedByDay() throws {
        let s = StoreSession()
        try s.run("calendar", "add", "Work")
        _ = try s.add(
            "event", "Stand-up", "--start", "mon 9:00", "--duration", "15m",
            "--repeat", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", "--alarm", "-5m", "--calendar", "Work")
        _ = try s.add("event", "Dentist", "--start", "fri 14:00", "--duration", "45m", "--alarm", "-1h")
        _ = try s.add("event", "New York call", "--start", "2026-11-24T10:00", "--tz", "America/New_York", "--duration", "30m")
        _ = try s.add("event", "Holiday", "--start", "2026-11-26", "--end", "2026-11-28", "--all-day")
        let r = try s.run("agenda", "--days", "7")
        #expect(r.status == 0)
        try Snapshot.check(redactIDs(r.stdout), named: "agenda-week.txt")
        let json = try #require(try s.json("agenda", "--days", "7") as? [[String: Any]])
        #expect(json.count == 7)
        let starts = json.map { JSONDocument.time($0["start"], "local")! }  // on one clock, all-day dates included
        #expect(starts == starts.sorted())
        let call = try #require(json.first { $0["title"] as? String == "New York call" })
        #expect(JSONDocument.time(call["start"], "local") == "2026-11-24T16:00:00")  // shown on the Berlin clock
        #expect(JSONDocument.time(call["start"], "utc") == "2026-11-24T15:00:00Z")
        #expect(JSONDocument.time(call["start"], "time_zone") == "America/New_York")
    }

    @Test func editOneOccurrenceThenTheFutureOnes() throws {
        let s = StoreSession()
        let id = try s.add("event", "Daily", "--start", "2026-12-01T09:00", "--duration", "30m", "--repeat", "FREQ=DAILY;COUNT=5")
        #expect(try s.run("edit", "\(id)@20261202T080000Z", "--start", "2026-12-02T15:00", "--title", "Moved").status == 0)
        let split = try s.run("edit", "\(id)@20261204T080000Z", "--span", "future", "--title", "Later")
        #expect(split.status == 0, "\(split.stderr)")
        let all = try #require(try s.json("agenda", "--from", "2026-12-01", "--days", "10") as? [[String: Any]])
        #expect(all.map { $0["title"] as! String } == ["Daily", "Moved", "Daily", "Later", "Later"])
        #expect(all[1]["detached"] as? Bool == true && JSONDocument.time(all[1]["start"], "local") == "2026-12-02T15:00:00")
        #expect(try s.run("remove", "\(id)@20261203T080000Z").status == 0)
        let after = try #require(try s.json("agenda", "--from", "2026-12-01", "--days", "10") as? [[String: Any]])
        #expect(after.map { $0["title"] as! String } == ["Daily", "Moved", "Later", "Later"])
        #expect(try s.run("remove", id).status == 0)
        let left = try #require(try s.json("agenda", "--from", "2026-12-01", "--days", "10") as? [[String: Any]])
        #expect(left.map { $0["title"] as! String } == ["Later", "Later"])
    }

    @Test func completingARepeatingReminderAdvancesItAndUncompleteUndoes() throws {
        let s = StoreSession()
        let id = try s.add("reminder", "Water plants", "--due", "2026-11-21T10:00", "--repeat", "FREQ=WEEKLY;COUNT=4")
        let done = try s.run("complete", id)
        #expect(done.status == 0)
        #expect(done.stdout == "Completed \"Water plants\" (due Sat 2026-11-21 10:00 (floating))\nNext: Sat 2026-11-28 10:00 (floating)\n")
        let open = try #require(try s.json("reminders") as? [[String: Any]])
        #expect(open.count == 1 && JSONDocument.time(open[0]["due"], "local") == "2026-11-28T10:00:00")
        #expect(open[0]["recurrence_rules"] as? [String] == ["FREQ=WEEKLY;COUNT=3"])
        let completed = try #require(try s.json("reminders", "--completed") as? [[String: Any]])
        let copy = try #require(completed.first?["id"] as? String)
        #expect(completed.first?["series"] as? String == id)
        #expect(try s.run("uncomplete", copy).status == 0)
        let back = try #require(try s.json("reminders") as? [[String: Any]])
        #expect(JSONDocument.time(back[0]["due"], "local") == "2026-11-21T10:00:00")
        #expect(try #require(try s.json("reminders", "--completed") as? [Any]).isEmpty)
    }

    @Test func geofenceReminderAndShow() throws {
        let s = StoreSession()
        let id = try s.add("reminder", "Buy milk", "--at", "Grocery store@52.5208,13.4094,120", "--on", "leave", "--priority", "1")
        let r = try s.run("show", id)
        #expect(r.status == 0)
        try Snapshot.check(redactIDs(r.stdout), named: "show-reminder.txt")
    }

    /// The store's folder on a real read-only mount (a bind mount remounted read-only, in a mount
    /// namespace of its own): reading works, and a write says "read-only file system", not chmod.
    @Test func aReadOnlyMountReadsAndRefusesWritesSayingWhy() throws {
        let s = StoreSession()
        _ = try s.add("reminder", "Water plants", "--due", "2026-11-21T09:00")
        let folder = (s.path as NSString).deletingLastPathComponent
        func readOnly(_ arguments: String...) throws -> CLIResult {
            try CLI.run(
                [
                    "-m", "sh", "-c", "mount --bind \"$1\" \"$1\" && mount -o remount,bind,ro \"$1\" && shift && exec \"$@\"", "sh",
                    folder, CLI.binary.path
                ] + arguments, environment: s.environment, executable: "/usr/bin/unshare")
        }
        let listed = try readOnly("reminders")
        #expect(listed.status == 0 && listed.stdout.contains("Water plants"), "\(listed.stdout)\(listed.stderr)")
        let refused = try readOnly("add", "reminder", "Buy stamps")
        #expect(
            refused.status != 0 && refused.stderr.contains("read-only file system") && !refused.stderr.contains("chmod"),
            "\(refused.stdout)\(refused.stderr)")
        #expect(!(try s.run("reminders").stdout.contains("Buy stamps")))
    }

    @Test func badInputGetsOneClearLineAndExitStatusOne() throws {
        let s = StoreSession()
        let cases: [([String], String)] = [
            (["add", "event", "X", "--start", "2026-02-30T09:00"], "Error: --start: \"2026-02-30T09:00\""),
            (["add", "event", "X", "--start", "tomorrow", "--calendar", "Nope"], "Error: --calendar: no event calendar \"Nope\""),
            (["show", "0000-missing"], "Error: no event or reminder with ID, UID or title \"0000-missing\""),
            (
                ["add", "event", "X", "--start", "2026-12-01T10:00", "--end", "2026-12-01T09:00"],
                "Error: --end \"2026-12-01T09:00\" is Tue 2026-12-01 09:00, before the start, Tue 2026-12-01 10:00"
            ),
            (["add", "reminder", "X", "--at", "Pole@95,0"], "Error: --at: latitude 95.0 is outside -90…90"),
            (["add", "event", "X", "--start", "tomorrow", "--repeat", "FREQ=DAILY;BYMONTHDAY=0"], "Error: --repeat: BYMONTHDAY=0"),
            (["agenda", "--days", "0"], "Error: --days 0: must be 1…3660")
        ]
        for (arguments, expected) in cases {
            let r = try s.run(arguments)
            #expect(r.status != 0, "\(arguments)")
            #expect(r.stderr.hasPrefix(expected), "\(arguments): \(r.stderr)")
            #expect(r.stderr.split(separator: "\n").count <= 3, "\(arguments): \(r.stderr)")
            #expect(r.stdout.isEmpty)
        }
    }

    /// `remove ID@<instant>` on an event that does not repeat removed the whole event and said
    /// "(this occurrence)"; a 100 KB reference met SQLite's "LIKE or GLOB pattern too complex".
    @Test func anOccurrenceThatDoesNotExistIsRefusedAndReferencesAreBounded() throws {
        let s = StoreSession()
        let id = try s.add("event", "Dentist", "--start", "2026-11-24T10:00", "--duration", "1h")
        let wrong = try s.run("remove", "\(id)@20261125T090000Z")
        #expect(wrong.status != 0 && wrong.stderr.contains("does not repeat") && wrong.stderr.contains("no occurrence at"), "\(wrong.stderr)")
        #expect(try s.run("show", id).stdout.contains("Dentist"), "the event is still there")
        let huge = try s.run("show", String(repeating: "x", count: 100_000))
        #expect(huge.status != 0 && huge.stderr.contains("too long"), "\(huge.stderr.prefix(300))")
        #expect(huge.stderr.utf8.count < 500)
        // Its own start is its one occurrence.
        let right = try s.run("remove", "\(id)@20261124T090000Z")
        #expect(right.status == 0, "\(right.stderr)")
        #expect(try s.run("show", id).status != 0)
    }

    /// After a writing command, the store file alone (a backup without `-wal`) holds what it wrote.
    @Test func aWritingCommandLeavesItsWritesInTheStoreFileItself() throws {
        let s = StoreSession()
        for n in 0..<6 { _ = try s.add("reminder", "Backed up \(n)") }
        let backup = s.folder + "/backup.sqlite"
        try FileManager.default.copyItem(atPath: s.path, toPath: backup)
        let listed = try CLI.run(["reminders", "--store", backup], environment: ["TZ": "Europe/Berlin", "CHIME_NOW": "2026-11-20T12:00:00Z"])
        for n in 0..<6 { #expect(listed.stdout.contains("Backed up \(n)"), "\(listed.stdout)\(listed.stderr)") }
    }

    @Test func aCorruptStoreIsRefusedAndLeftUntouched() throws {
        let s = StoreSession()
        try FileManager.default.createDirectory(atPath: s.folder + "/data", withIntermediateDirectories: true)
        let garbage = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try garbage.write(to: URL(fileURLWithPath: s.path))
        let r = try s.run("agenda")
        #expect(r.status == 1)
        #expect(r.stderr == "Error: \(s.path) is not a Chime store (not an SQLite database); it was left untouched\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: s.path)) == garbage)
    }

    @Test func helpTeachesTheDateForms() throws {
        let r = try CLI.run(["add", "event", "--help"])
        #expect(r.status == 0)
        try Snapshot.check(r.stdout, named: "add-event-help.txt")
    }

    /// `account add` tells where the password goes: the Secret Service, or a command of the user's.
    @Test func accountAddHelpSaysWhereThePasswordIsKept() throws {
        let r = try CLI.run(["account", "add", "--help"], environment: ["COLUMNS": "100"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("--password-stdin") && r.stdout.contains("Secret Service"), "\(r.stdout)")
        try Snapshot.check(r.stdout, named: "account-add-help.txt")
    }

    /// The help of the commands that run after `make install` names the installed files (the unit,
    /// the config example, the GeoClue permission), never the source tree's Config/ folder.
    @Test func daemonAndWhereHelpCiteInstalledFiles() throws {
        for (command, snapshot) in [("daemon", "daemon-help.txt"), ("where", "where-help.txt")] {
            let r = try CLI.run([command, "--help"], environment: ["COLUMNS": "100"])
            #expect(r.status == 0)
            #expect(!r.stdout.contains("Config/"), "\(command) --help: \(r.stdout)")
            try Snapshot.check(r.stdout, named: snapshot)
        }
    }
}
