import Foundation
import ChimeTestKit
import ChimeTestSupport
import Testing

/// `chime import FILE --new-calendar` without a name: the new calendar (and list) is named as the
/// file names itself (X-WR-CALNAME), else after the file; a name given on the command line wins.
@Suite("chime import --new-calendar")
struct ImportNewCalendarTests {
    static func file(_ s: StoreSession, _ name: String, calendarName: String?) throws -> String {
        try FileManager.default.createDirectory(atPath: s.folder, withIntermediateDirectories: true)
        let path = s.folder + "/" + name
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Test//Holidays//EN"]
        if let calendarName { lines.append("X-WR-CALNAME:" + calendarName) }
        lines += [
            "BEGIN:VEVENT", "UID:new-year-2027", "DTSTAMP:20261101T000000Z", "DTSTART;VALUE=DATE:20270101",
            "SUMMARY:New Year's Day", "END:VEVENT",
            "BEGIN:VTODO", "UID:cards-2026", "DTSTAMP:20261101T000000Z", "SUMMARY:Send cards", "END:VTODO",
            "END:VCALENDAR", ""
        ]
        try lines.joined(separator: "\r\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Title and kind of every calendar, sorted.
    static func calendars(_ s: StoreSession) throws -> [String] {
        let all = try s.json("calendar", "list") as? [[String: Any]] ?? []
        return all.map { "\($0["title"] as? String ?? "?") \($0["kind"] as? String ?? "?")" }.sorted()
    }

    /// A German device's export names its default calendar "Kalender": an update of an item
    /// stored here in "Calendar" stays there (no calendar is made for it), while a new item of
    /// that export goes to a "Kalender" of its own, as an export's names say.
    @Test func anUpdateStaysWhereItIsWhenTheExportNamesACalendarThisStoreLacks() throws {
        let s = StoreSession()
        _ = try s.add("event", "Dentist", "--start", "2026-12-10T10:00")
        var text = try s.run("export").stdout
        text = text.replacingOccurrences(of: "X-CHIME-CALENDAR:Calendar", with: "X-CHIME-CALENDAR:Kalender")
            .replacingOccurrences(of: "SUMMARY:Dentist", with: "SUMMARY:Zahnarzt")
        text = text.replacingOccurrences(of: "SEQUENCE:0", with: "SEQUENCE:3")
        if !text.contains("SEQUENCE:3") { text = text.replacingOccurrences(of: "SUMMARY:Zahnarzt", with: "SUMMARY:Zahnarzt\r\nSEQUENCE:3") }
        try text.write(toFile: s.folder + "/de.ics", atomically: true, encoding: .utf8)
        let updated = try s.json("import", s.folder + "/de.ics") as? [String: Any]
        #expect(updated?["events_updated"] as? Int == 1 && updated?["calendars"] as? [String] == ["Calendar"], "\(updated ?? [:])")
        #expect(try Self.calendars(s) == ["Calendar event"])
        let agenda = try s.run("agenda", "--from", "2026-12-10", "--days", "1", "--calendar", "Calendar").stdout
        #expect(agenda.contains("Zahnarzt"), "\(agenda)")
    }

    /// Export then import on a new machine: every item goes back to a calendar of its own
    /// calendar's name (they all went to the default one before), and a second round trip adds
    /// nothing and repeats no marker.
    @Test func exportThenImportKeepsEachItemsCalendar() throws {
        let a = StoreSession()
        #expect(try a.run("calendar", "add", "Work").status == 0)
        #expect(try a.run("calendar", "add", "Family, and friends").status == 0)
        #expect(try a.run("calendar", "add", "Errands", "--type", "reminders").status == 0)
        _ = try a.add("event", "Standup", "--start", "mon 9:00", "--calendar", "Work", "--repeat", "weekdays")
        _ = try a.add("event", "Dinner", "--start", "sat 19:00", "--calendar", "Family, and friends")
        _ = try a.add("reminder", "Stamps", "--due", "tomorrow", "--list", "Errands")
        let export = try a.run("export")
        #expect(export.stdout.contains("X-CHIME-CALENDAR:Family\\, and friends"), "\(export.stdout)")
        let b = StoreSession()
        try FileManager.default.createDirectory(atPath: b.folder, withIntermediateDirectories: true)
        try export.stdout.write(toFile: b.folder + "/all.ics", atomically: true, encoding: .utf8)
        #expect(try b.run("import", b.folder + "/all.ics").status == 0)
        let kept = try Self.calendars(b)
        #expect(kept.contains("Work event") && kept.contains("Family, and friends event") && kept.contains("Errands reminder"), "\(kept)")
        let work = try b.run("agenda", "--from", "2026-11-23", "--days", "1", "--calendar", "Work").stdout
        #expect(work.contains("Standup"), "\(work)")
        #expect(try b.run("reminders", "--list", "Errands").stdout.contains("Stamps"))
        let again = try b.run("export").stdout
        #expect(again.components(separatedBy: "X-CHIME-CALENDAR").count == export.stdout.components(separatedBy: "X-CHIME-CALENDAR").count)
        let second = try b.json("import", b.folder + "/all.ics") as? [String: Any]
        #expect(second?["events_added"] as? Int == 0 && second?["todos_added"] as? Int == 0, "\(second ?? [:])")
    }

    @Test func withoutANameTheFilesCalendarNameIsUsed() throws {
        let s = StoreSession()
        let path = try Self.file(s, "export-2026.ics", calendarName: "Public holidays \\, Berlin")
        let r = try s.run("import", path, "--new-calendar")
        #expect(r.status == 0, "\(r.stderr)")
        // X-WR-CALNAME is TEXT: its escapes are read.
        #expect(try Self.calendars(s) == ["Public holidays , Berlin event", "Public holidays , Berlin reminder"])
        let agenda = try s.run("agenda", "--from", "2027-01-01", "--to", "2027-01-02", "--calendar", "Public holidays , Berlin")
        #expect(agenda.status == 0 && agenda.stdout.contains("New Year's Day"), "\(agenda.stdout)\(agenda.stderr)")
    }

    @Test func withoutANameOrACalendarNameTheFileNameIsUsed() throws {
        let s = StoreSession()
        let path = try Self.file(s, "team-days.ics", calendarName: nil)
        // Another option right after it: still the flag form, nothing read ahead.
        let r = try s.run("import", path, "--new-calendar", "--json")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try Self.calendars(s) == ["team-days event", "team-days reminder"])
    }

    @Test func aNameOnTheCommandLineWins() throws {
        let s = StoreSession()
        let path = try Self.file(s, "export-2026.ics", calendarName: "Holidays")
        #expect(try s.run("import", path, "--new-calendar", "Days off").status == 0)
        #expect(try Self.calendars(s) == ["Days off event", "Days off reminder"])
    }

    @Test func aBlankCalendarNameFallsBackToTheFileName() throws {
        let s = StoreSession()
        let path = try Self.file(s, "feed.ics", calendarName: "   ")
        #expect(try s.run("import", path, "--new-calendar").status == 0)
        #expect(try Self.calendars(s) == ["feed event", "feed reminder"])
    }

    /// The same file imported into a new calendar twice: the second is refused, naming the
    /// calendar, instead of making an empty twin; the first calendar keeps its items.
    @Test func aSecondNewCalendarOfOneNameIsRefused() throws {
        let s = StoreSession()
        let path = try Self.file(s, "export-2026.ics", calendarName: "Holidays")
        #expect(try s.run("import", path, "--new-calendar").status == 0)
        let again = try s.run("import", path, "--new-calendar")
        #expect(
            again.status == 1
                && again.stderr
                    == "Error: a calendar named \"Holidays\" already exists; to import into it: `chime import \(path) --calendar Holidays` (nothing was imported)\n",
            "\(again.stderr)")
        // Spaces around a name are not part of it: " Holidays " is the calendar that exists.
        let spaced = try s.run("import", path, "--new-calendar", " Holidays ")
        #expect(spaced.status == 1 && spaced.stderr.contains("a calendar named \"Holidays\" already exists"), "\(spaced.stderr)")
        let named = try s.run("import", path, "--new-calendar", "holidays")
        // Named as it is stored, whatever the case it was typed in.
        #expect(named.status == 1 && named.stderr.contains("a calendar named \"Holidays\" already exists"), "\(named.stderr)")
        #expect(try Self.calendars(s) == ["Holidays event", "Holidays reminder"])
        // Into the calendar by its name, the file's items are unchanged.
        let into = try s.run("import", path, "--calendar", "Holidays")
        #expect(into.status == 0 && into.stdout.contains("2 (same SEQUENCE)"), "\(into.stdout)\(into.stderr)")
    }

    /// `--calendar` naming a list: a file with events is refused, saying why, in the user's
    /// language. An events-only file into a calendar makes no empty list.
    @Test func aListTakesToDosAndEventsNeedACalendar() throws {
        let s = StoreSession()
        let path = try Self.file(s, "export-2026.ics", calendarName: nil)
        #expect(try s.run("calendar", "add", "Errands", "--type", "reminders").status == 0)
        let events = try s.run("import", path, "--calendar", "Errands")
        #expect(
            events.status == 1
                && events.stderr
                    == "Error: --calendar: \"Errands\" is a list of to-dos; the file's events need a calendar (see `chime calendar list`)\n",
            "\(events.stderr)")
        let german = try CLI.run(["import", path, "--calendar", "Errands"], environment: CatalogSandbox.environment(s.environment, language: "de_DE.UTF-8"))
        #expect(german.stderr.contains("„Errands“ ist eine Aufgabenliste"), "\(german.stderr)")
        let onlyEvents = s.folder + "/only-events.ics"
        try "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:e1\r\nDTSTART:20270101T090000Z\r\nSUMMARY:Brunch\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
            .write(toFile: onlyEvents, atomically: true, encoding: .utf8)
        #expect(try s.run("calendar", "add", "Work").status == 0)
        #expect(try s.run("import", onlyEvents, "--calendar", "Work").status == 0)
        #expect(try Self.calendars(s) == ["Errands reminder", "Work event"])
    }
    /// The summary names the calendars the items went into (the defaults a user may not know
    /// of, too), and so does `--json`; a file of two calendars into a new one says so.
    @Test func theSummaryNamesWhereTheItemsWent() throws {
        let s = StoreSession()
        let path = try Self.file(s, "holidays.ics", calendarName: "Holidays")
        let dry = try s.run("import", path, "--dry-run")
        #expect(dry.status == 0 && dry.stdout.hasPrefix("Dry run: nothing was stored. Would import into \"Calendar\", \"Reminders\":\n"), "\(dry.stdout)")
        let into = try s.run("import", path, "--new-calendar")
        #expect(into.status == 0 && into.stdout.hasPrefix("Imported into \"Holidays\":\n"), "\(into.stdout)")
        let json = try s.json("import", path, "--calendar", "Holidays") as? [String: Any]
        #expect(json?["calendars"] as? [String] == [] && json?["unchanged"] as? Int == 2, "\(String(describing: json))")
        let again = try s.run("import", path, "--calendar", "Holidays")
        #expect(again.stdout.hasPrefix("Imported:\n"), "nothing went anywhere: \(again.stdout)")

        let t = StoreSession()
        let two = try Self.file(t, "two.ics", calendarName: "Holidays")
        let text = try String(contentsOfFile: two, encoding: .utf8)
        try (text + text.replacingOccurrences(of: "Holidays", with: "Work").replacingOccurrences(of: "UID:", with: "UID:work-"))
            .write(toFile: two, atomically: true, encoding: .utf8)
        let both = try t.run("import", two, "--new-calendar")
        #expect(both.status == 0 && both.stdout.hasPrefix("Imported into \"Holidays\":\n  events     2 new"), "\(both.stdout)")
        #expect(
            both.stderr.contains("VCALENDAR: another calendar, \"Work\", in the file: its items are read into the first one, \"Holidays\""),
            "\(both.stderr)")
    }
    /// `chime export --calendar NAME` writes the calendar and the list of that name (what
    /// `import --new-calendar` made), named as the calendar: imported again with
    /// `--new-calendar`, nothing is lost.
    @Test func anExportOfACalendarTakesTheListOfItsName() throws {
        let s = StoreSession()
        let path = try Self.file(s, "choir.ics", calendarName: "Choir")
        #expect(try s.run("import", path, "--new-calendar").status == 0)
        #expect(try s.run("calendar", "add", "Other").status == 0)
        let backup = s.folder + "/backup.ics"
        let export = try s.run("export", "--calendar", "choir", "-o", backup)
        #expect(export.status == 0, "\(export.stderr)")
        let text = try String(contentsOfFile: backup, encoding: .utf8)
        #expect(text.contains("BEGIN:VEVENT") && text.contains("BEGIN:VTODO") && text.contains("X-WR-CALNAME:Choir"), "\(text)")
        #expect(!text.contains("X-CHIME-CALENDAR"), "one name: no item names its calendar")
        let t = StoreSession()
        let again = try t.run("import", backup, "--new-calendar")
        #expect(again.status == 0 && again.stdout.contains("1 new"), "\(again.stdout)")
        #expect(try Self.calendars(t) == ["Choir event", "Choir reminder"])
        let json = try t.json("import", backup, "--calendar", "Choir") as? [String: Any]
        #expect(json?["unchanged"] as? Int == 2, "\(String(describing: json))")
    }

    /// `--new-calendar work.ics` takes the file as the name; with no file after it, the file is
    /// what was meant. No file at all, or a blank name, says how to give one.
    @Test func theFileRightAfterNewCalendarIsTheFile() throws {
        let s = StoreSession()
        let path = try Self.file(s, "choir.ics", calendarName: "Choir")
        let r = try s.run("import", "--new-calendar", path)
        #expect(r.status == 0 && r.stdout.hasPrefix("Imported into \"Choir\":\n"), "\(r.stdout)\(r.stderr)")
        #expect(try Self.calendars(s) == ["Choir event", "Choir reminder"])
        let none = try s.run("import", "--new-calendar", "Choir 2")
        #expect(none.status == 64 && none.stderr.hasPrefix("Error: which file? Give the .ics file to import"), "\(none.stderr)")
        let german = try CLI.run(["import"], environment: CatalogSandbox.environment(s.environment, language: "de_DE.UTF-8"))
        #expect(german.status == 64 && german.stderr.contains("Welche Datei?"), "\(german.stderr)")
        let blank = try s.run("import", path, "--new-calendar", "  ")
        #expect(blank.status == 64 && blank.stderr.hasPrefix("Error: --new-calendar: the name is blank"), "\(blank.stderr)")
        #expect(try Self.calendars(s) == ["Choir event", "Choir reminder"])
    }

    /// Every item of the file already stored in other calendars: the new calendar would stay
    /// empty, so it is not kept, and the summary says so (streamed from a file and read whole
    /// from standard input alike).
    @Test func aNewCalendarThatWouldStayEmptyIsNotKept() throws {
        let s = StoreSession()
        let path = try Self.file(s, "holidays.ics", calendarName: "Holidays")
        #expect(try s.run("import", path).status == 0)
        let before = try Self.calendars(s)
        let r = try s.run("import", path, "--new-calendar", "Days off")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.hasSuffix("The new calendar \"Days off\" was not kept: every item of the file is already in another calendar.\n"), "\(r.stdout)")
        #expect(try Self.calendars(s) == before)
        let tried = try s.run("import", path, "--new-calendar", "Days off", "--dry-run")
        let notMade = "The new calendar \"Days off\" would not be made: every item of the file is already in another calendar.\n"
        #expect(tried.stdout.hasSuffix(notMade), "\(tried.stdout)")
        let piped = try CLI.run(
            ["import", "-", "--new-calendar", "--json"], stdin: try String(contentsOfFile: path, encoding: .utf8), environment: s.environment)
        let json = try JSONSerialization.jsonObject(with: Data(piped.stdout.utf8)) as? [String: Any]
        #expect(json?["new_calendar_not_kept"] as? String == "Holidays" && json?["unchanged"] as? Int == 2, "\(piped.stdout)\(piped.stderr)")
        #expect(try Self.calendars(s) == before)
    }

    /// A calendar is named by its title, its whole ID, or the first eight or more characters of
    /// its ID (any case), as items are.
    @Test func aCalendarIsNamedByTheStartOfItsID() throws {
        let s = StoreSession()
        let path = try Self.file(s, "choir.ics", calendarName: "Choir")
        #expect(try s.run("import", path, "--new-calendar").status == 0)
        let all = try s.json("calendar", "list") as? [[String: Any]] ?? []
        let id = try #require(all.first { $0["kind"] as? String == "event" }?["id"] as? String)
        let prefix = String(id.prefix(8)).lowercased()
        let export = try s.run("export", "--calendar", prefix)
        #expect(export.status == 0 && export.stdout.contains("New Year's Day"), "\(export.stderr)")
        let agenda = try s.run("agenda", "--from", "2027-01-01", "--days", "1", "--calendar", prefix)
        #expect(agenda.status == 0 && agenda.stdout.contains("New Year's Day"), "\(agenda.stderr)")
        let short = try s.run("agenda", "--from", "2027-01-01", "--days", "1", "--calendar", String(id.prefix(7)))
        #expect(short.status != 0, "seven characters name no calendar: \(short.stdout)")
        #expect(short.stderr.contains("is the start of a calendar's ID, too short to name it: give its first 8 characters or more"), "\(short.stderr)")
        let shortRename = try s.run("calendar", "rename", String(id.prefix(4)), "Chorus")
        #expect(shortRename.status != 0 && shortRename.stderr.contains("give its first 8 characters"), "\(shortRename.stderr)")
        // Said by its title, not by what was typed.
        let rename = try s.run("calendar", "rename", prefix, "Chorus", "--type", "events")
        #expect(rename.status == 0 && rename.stdout == "Renamed \"Choir\" to \"Chorus\"\n", "\(rename.stdout)\(rename.stderr)")
    }

    /// A calendar with nothing in it (an empty feed) imports nothing, says so, and makes no store.
    @Test func anEmptyCalendarSaysSoAndMakesNoStore() throws {
        let s = StoreSession()
        try FileManager.default.createDirectory(atPath: s.folder, withIntermediateDirectories: true)
        let path = s.folder + "/empty.ics"
        try "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Google Inc//Google Calendar 70.9054//EN\r\nX-WR-CALNAME:Empty\r\nEND:VCALENDAR\r\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
        let r = try s.run("import", path, "--new-calendar")
        #expect(r.status == 0 && r.stdout == "The file holds no events or to-dos: there was nothing to import.\n", "\(r.stdout)\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: s.path), "no store is made for nothing")
        // Into a store that exists, the same, and no calendar is made.
        #expect(try s.run("calendar", "add", "Work").status == 0)
        let again = try s.run("import", path, "--new-calendar")
        #expect(again.status == 0 && again.stdout.contains("there was nothing to import"), "\(again.stdout)")
        #expect(try Self.calendars(s) == ["Work event"])
    }
}
