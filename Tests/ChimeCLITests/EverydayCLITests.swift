import ChimeCore
import ChimeStore
import ChimeTestSupport
import Foundation
import Glibc
import ChimeTestKit
import Testing

/// The command line a person uses every day: reminders that notify without being told, alarm
/// offsets read as "before", multi-day events on every day they cover, references that are short,
/// case-blind and stable, mistyped paths and commands caught, edits other clients can see.
/// Now is Friday 2026-11-20 13:00 in Berlin.
@Suite("Everyday command line")
struct EverydayCLITests {
    @Test func aReminderWithADueTimeNotifiesThenAndAddSaysWhen() throws {
        let s = StoreSession()
        let r = try s.run("add", "reminder", "Call the dentist", "--due", "tomorrow 10am")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("Alarm: Sat 2026-11-21 10:00 (at the due time)"), "\(r.stdout)")
        let preview = try s.run("alarms", "--hours", "48")
        #expect(preview.stdout.contains("Sat 2026-11-21\n  10:00  Call the dentist  at 10:00"), "\(preview.stdout)")
        // No sign means before; + or "after" means after; --no-alarm means none, and says so.
        let before = try s.run("add", "reminder", "Before", "--due", "tomorrow 10am", "--alarm", "15m")
        #expect(before.stdout.contains("Alarm: Sat 2026-11-21 09:45 (15 min before)"), "\(before.stdout)")
        let after = try s.run("add", "event", "After", "--start", "tomorrow 10am", "--alarm", "after 15m")
        #expect(after.stdout.contains("Alarm: Sat 2026-11-21 10:15 (15 min after)"), "\(after.stdout)")
        let quiet = try s.run("add", "reminder", "Quiet", "--due", "tomorrow 11am", "--no-alarm")
        #expect(quiet.stdout.contains("Alarm: none"), "\(quiet.stdout)")
        #expect(!(try s.run("alarms", "--hours", "48")).stdout.contains("Quiet"))
        // An all-day item's alarm counts from 09:00: a day before a birthday is 09:00 the day before.
        let birthday = try s.run("add", "event", "Birthday", "--start", "2026-11-25", "--all-day", "--alarm", "1d")
        #expect(birthday.stdout.contains("Alarm: Tue 2026-11-24 09:00 (1 day before)"), "\(birthday.stdout)")
        // A reminder without a date cannot notify, and add says what would make it.
        let undated = try s.run("add", "reminder", "Someday")
        #expect(undated.stdout.contains("Alarm: none (no due date"), "\(undated.stdout)")
    }

    @Test func aMultiDayEventIsListedOnEveryDayItCovers() throws {
        let s = StoreSession()
        // Mon 23 09:00 → Wed 25 17:00; the end's weekday counts from the start.
        let id = try s.add("event", "Conference", "--start", "mon 9:00", "--end", "wed 17:00")
        _ = try s.add("event", "Trip", "--start", "2026-11-24", "--end", "2026-11-26", "--all-day")  // the last day, included
        _ = try s.add("event", "Lunch", "--start", "2026-11-24T12:00", "--duration", "1h")
        let week = try s.run("agenda", "--from", "2026-11-23", "--days", "4")
        #expect(week.status == 0, "\(week.stderr)")
        try Snapshot.check(redactIDs(week.stdout), named: "agenda-multi-day.txt")
        // Asked for Tuesday alone: Tuesday's heading, the conference's middle day, nothing of Monday.
        let tuesday = try s.run("agenda", "--from", "2026-11-24", "--days", "1").stdout
        #expect(tuesday.hasPrefix("Tue 2026-11-24\n"), "\(tuesday)")
        #expect(tuesday.contains("all day      Conference (day 2/3)"), "\(tuesday)")
        #expect(!tuesday.contains("Mon"))
        let json = try #require(try s.json("agenda", "--from", "2026-11-23", "--days", "4") as? [[String: Any]])
        let conference = try #require(json.first { $0["id"] as? String == id })
        #expect(conference["days"] as? [String] == ["2026-11-23", "2026-11-24", "2026-11-25"])
    }

    @Test func referencesAreShortCaseBlindAndTheSameEverywhere() throws {
        let s = StoreSession()
        let id = try s.add("event", "Stand-up", "--start", "mon 9:00", "--duration", "15m", "--repeat", "weekdays", "--alarm", "5m")
        let short = String(id.prefix(8))
        // The agenda prints the short reference; show takes it, in lower case too.
        let agenda = try s.run("agenda", "--days", "4").stdout
        let reference = try #require(agenda.split(separator: " ").last { $0.hasPrefix(short) }.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) })
        #expect(reference == "\(short)@20261123T080000Z", "\(agenda)")
        #expect(try s.run("show", reference.lowercased()).stdout.contains("Starts:    Mon 2026-11-23 09:00"))
        #expect(try s.run("show", "stand-up").stdout.contains("every weekday"))
        // A moved occurrence keeps the reference of the start it replaced, in alarms too.
        #expect(try s.run("edit", reference, "--start", "10:00").status == 0)
        let alarms = try s.run("alarms", "--hours", "72").stdout
        #expect(alarms.contains("Mon 2026-11-23\n  09:55  Stand-up  5 min before 10:00  \(short)@20261123T080000Z"), "\(alarms)")
        #expect(try s.run("show", "\(short)@20261123T080000Z").stdout.contains("Starts:    Mon 2026-11-23 10:00"))
        // An all-day series is referenced by its date, the same under any $TZ.
        let daily = try s.add("event", "Water plants", "--start", "2026-11-21", "--all-day", "--repeat", "daily")
        for zone in ["Europe/Berlin", "America/Los_Angeles", "Pacific/Auckland"] {
            var env = s.environment
            env["TZ"] = zone
            let out = try CLI.run(["agenda", "--from", "2026-11-22", "--days", "1"], environment: env).stdout
            #expect(out.contains("\(daily.prefix(8))@20261122"), "\(zone): \(out)")
            #expect(try CLI.run(["show", "\(daily.prefix(8))@20261122"], environment: env).status == 0, "\(zone)")
        }
    }

    @Test func editsRaiseSequenceAndCanMoveToAnotherCalendar() throws {
        let s = StoreSession()
        try s.run("calendar", "add", "Work")
        let id = try s.add("event", "Review", "--start", "2026-11-23T14:00")
        #expect(try s.run("edit", id, "--title", "Review (moved)", "--calendar", "Work").status == 0)
        let shown = try s.run("show", id).stdout
        #expect(shown.contains("Calendar:  Work"), "\(shown)")
        let ics = try s.run("export").stdout
        #expect(ics.contains("SEQUENCE:1"), "\(ics)")
        #expect(try s.run("edit", id, "--remove-alarm", "15m").stderr.contains("is not one of the alarms"))
    }

    /// A start the rule's days leave out is an occurrence too (RFC 5545 counts DTSTART): `add`
    /// says so for weekly and monthly rules, and says nothing when the start is one of the days.
    @Test func aStartOutsideTheRuleIsSaidToBeAnOccurrenceToo() throws {
        let s = StoreSession()
        func note(_ start: String, _ rule: String) throws -> String? {
            let r = try s.run("add", "event", "Class", "--start", start, "--repeat", rule)
            #expect(r.status == 0, "\(r.stderr)")
            return r.stdout.split(separator: "\n").first { $0.hasPrefix("Note: the start") }.map(String.init)
        }
        #expect(try note("2026-11-23T18:00", "every friday")?.hasPrefix("Note: the start (a Monday) is the first occurrence too") == true)
        #expect(try note("2026-11-27T18:00", "every friday") == nil)
        #expect(try note("2026-11-23T18:00", "last friday of the month")?.hasPrefix("Note: the start (Mon 2026-11-23) is the first occurrence too") == true)
        #expect(try note("2026-11-27T18:00", "last friday of the month") == nil, "the 27th is November's last Friday")
        #expect(try note("2026-11-10T18:00", "second tuesday of the month") == nil)
        #expect(try note("2026-11-17T18:00", "second tuesday of the month") != nil)
        #expect(try note("2026-11-23T18:00", "monthly on the 15th") != nil)
        #expect(try note("2026-12-15T18:00", "monthly on the 15th") == nil)
        #expect(try note("2026-11-23T18:00", "monthly") == nil, "a rule on the start's own day")
    }

    /// Renaming a series renames its moved occurrence too (it kept the series' title); an
    /// occurrence given a title of its own keeps it.
    @Test func aSeriesEditReachesDetachedOccurrencesForFieldsTheyDidNotChange() throws {
        let s = StoreSession()
        let id = try s.add("event", "Stand-up", "--start", "mon 9:00", "--duration", "15m", "--repeat", "weekdays", "--location", "Room 1")
        let short = String(id.prefix(8))
        #expect(try s.run("edit", "\(short)@20261124T080000Z", "--start", "10:00").status == 0)
        #expect(try s.run("edit", "\(short)@20261125T080000Z", "--title", "Retro").status == 0)
        #expect(try s.run("edit", short, "--title", "Daily", "--location", "Room 2").status == 0)
        let week = try s.run("agenda", "--from", "2026-11-23", "--days", "3").stdout
        #expect(week.contains("10:00-10:15  Daily"), "\(week)")  // moved, renamed with the series
        #expect(week.contains("09:00-09:15  Retro"), "\(week)")  // its own title stays
        let moved = try s.run("show", "\(short)@20261124T080000Z").stdout
        #expect(moved.contains("Location:  Room 2") && moved.contains("Starts:    Tue 2026-11-24 10:00"), "\(moved)")
        #expect(try s.run("show", "\(short)@20261125T080000Z").stdout.contains("Location:  Room 2"))
    }

    /// What a new user's trial found: a time alone keeps the item's day, an all-day --end is the
    /// last day, an end before the start is an error, and an offset needs something to count from.
    @Test func timesAloneKeepTheDayAndEndsReadAsPeopleMeanThem() throws {
        let s = StoreSession()
        let holiday = try s.run("add", "event", "Holiday", "--start", "Dec 7", "--end", "Dec 9", "--all-day")
        #expect(holiday.stdout.hasPrefix("Added event \"Holiday\" to Calendar: Mon 2026-12-07 (all day) – Wed 2026-12-09"), "\(holiday.stdout)")
        #expect(try s.run("agenda", "--from", "2026-12-09", "--days", "1").stdout.contains("Holiday (day 3/3)"))
        let timed = try s.run("edit", "holiday", "--start", "10:00")
        #expect(timed.stdout.hasPrefix("Saved \"Holiday\": Mon 2026-12-07 10:00"), "\(timed.stdout)")
        #expect(try s.run("show", "holiday").stdout.contains("Ends:      Mon 2026-12-07 11:00"))
        _ = try s.add("event", "Yoga", "--start", "Dec 1", "--all-day", "--repeat", "daily")
        let yoga = try #require(try s.run("find", "yoga").stdout.split(separator: " ").last?.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(try s.run("edit", "\(yoga)@20261204", "--start", "10:00").stdout.hasPrefix("Saved \"Yoga\" (this occurrence only): Fri 2026-12-04 10:00"))
        _ = try s.add("reminder", "Rent", "--due", "Dec 20")
        #expect(try s.run("edit", "rent", "--due", "18:00").stdout.hasPrefix("Saved \"Rent\", due Sun 2026-12-20 18:00"))
        let backwards = try s.run("add", "event", "Backwards", "--start", "fri 10:00", "--end", "9:00")
        #expect(
            backwards.status != 0 && backwards.stderr.contains("before the start") && backwards.stderr.contains("\"sat 9:00\""),
            "\(backwards.stdout)\(backwards.stderr)")
        let undated = try s.run("add", "reminder", "Undated", "--alarm", "15m")
        #expect(undated.status != 0 && undated.stderr.contains("this reminder has none; give --due"), "\(undated.stderr)")
        let words = try s.run("add", "event", "Words", "--start", "fri 10:00", "--alarm", "15 min", "--alarm", "1 hour before")
        #expect(words.stdout.contains("Alarm: Fri 2026-11-27 09:45 (15 min before)") && words.stdout.contains("(1 h before)"), "\(words.stdout)")
        #expect(try s.run("add", "event", "X", "--start", "9.30").stderr.contains("not a date; for a time write 9:30"))
    }

    /// An end names its day as the start does: day words count from now, a bare time from the
    /// start's day (past midnight for a short evening), an offset from the start, a weekday alone
    /// from the start's day; an item in another zone keeps its weekday (a week late before).
    @Test func anEndMeansTheDayItsWordsName() throws {
        let s = StoreSession()  // Friday 2026-11-20 13:00 in Berlin
        func ends(_ arguments: String...) throws -> String {
            let r = try s.run(["add", "event", "E"] + arguments)
            #expect(r.status == 0, "\(arguments): \(r.stderr)")
            let id = try #require(r.stdout.split(separator: "\n").last { $0.hasPrefix("ID ") }?.dropFirst(3))
            let shown = try s.run("show", String(id)).stdout
            _ = try s.run("remove", String(id))
            return shown.split(separator: "\n").filter { $0.hasPrefix("Starts:") || $0.hasPrefix("Ends:") }
                .map { $0.split(separator: " ", omittingEmptySubsequences: true).dropFirst().joined(separator: " ") }.joined(separator: " – ")
        }
        #expect(try ends("--start", "tomorrow 9:00", "--end", "tomorrow 10:00") == "Sat 2026-11-21 09:00 – Sat 2026-11-21 10:00")
        #expect(try ends("--start", "tomorrow 23:00", "--end", "1:00") == "Sat 2026-11-21 23:00 – Sun 2026-11-22 01:00")
        #expect(try ends("--start", "tomorrow 9:00", "--end", "+90m") == "Sat 2026-11-21 09:00 – Sat 2026-11-21 10:30")
        #expect(try ends("--start", "tomorrow 9:00", "--end", "fri 10:00") == "Sat 2026-11-21 09:00 – Fri 2026-11-27 10:00")
        #expect(try ends("--start", "sat 11:15", "--end", "sat 14:05") == "Sat 2026-11-21 11:15 – Sat 2026-11-21 14:05")
        // Written in New York, shown in Berlin: the same Saturday.
        let brunch = try s.run("add", "event", "NY brunch", "--start", "sat 11:15", "--end", "sat 14:05", "--tz", "America/New_York")
        #expect(
            brunch.stdout.hasPrefix("Added event \"NY brunch\" to Calendar: Sat 2026-11-21 17:15 (11:15 America/New_York) – 20:05\n"),
            "\(brunch.stdout)")
        // From a Tuesday, Monday to Wednesday is next week's.
        let tuesday = StoreSession(now: "2026-11-24T12:00:00Z")
        let conference = try tuesday.run("add", "event", "Conference", "--start", "mon 9:00", "--end", "wed 17:00")
        #expect(conference.stdout.contains("Mon 2026-11-30 09:00 – Wed 2026-12-02 17:00"), "\(conference.stdout)")
        // The same with edit: a day word in --end is that day.
        let id = try s.add("event", "Review", "--start", "tomorrow 9:00")
        #expect(try s.run("edit", id, "--end", "tomorrow 11:00").status == 0)
        #expect(try s.run("show", id).stdout.contains("Ends:      Sat 2026-11-21 11:00"))
        let refused = try s.run("edit", id, "--end", "today 8:00")
        #expect(refused.status != 0 && refused.stderr.contains("before the start, Sat 2026-11-21 09:00"), "\(refused.stderr)")
    }

    /// A reminder list is a calendar (EventKit): `--calendar` names it too, and a wrong name says
    /// which lists there are.
    @Test func aReminderTakesCalendarAndAWrongNameListsTheChoices() throws {
        let s = StoreSession()
        #expect(try s.run("calendar", "add", "Work").status == 0)
        #expect(try s.run("calendar", "add", "Errands", "--type", "reminders").status == 0)
        let added = try s.run("add", "reminder", "Buy stamps", "--calendar", "Errands")
        #expect(added.status == 0 && added.stdout.hasPrefix("Added reminder \"Buy stamps\" to Errands"), "\(added.stdout)\(added.stderr)")
        let wrong = try s.run("add", "reminder", "Buy stamps", "--calendar", "Work")
        #expect(
            wrong.status != 0 && wrong.stderr.contains("no reminder list \"Work\" (\"Work\" holds events only); lists: ")
                && wrong.stderr.contains("\"Errands\""), "\(wrong.stderr)")
        let typo = try s.run("add", "event", "Standup", "--start", "tomorrow 9:00", "--calendar", "Wrok")
        #expect(typo.status != 0 && typo.stderr.contains("calendars: \"Work\""), "\(typo.stderr)")
    }

    /// Phrases a new user typed that were refused, the README's own "last Friday of each month"
    /// among them; and a misspelt day gets a did-you-mean, as commands do.
    @Test func phrasesPeopleTypeForRepeatsLengthsAndDays() throws {
        let s = StoreSession()  // Friday 2026-11-20 13:00 in Berlin
        let review = try s.run("add", "event", "Review", "--start", "2026-11-27 15:00", "--duration", "1.5h", "--repeat", "last friday of the month")
        #expect(
            review.stdout.contains("Fri 2026-11-27 15:00 – 16:30") && review.stdout.contains("Repeats: monthly on the last Friday"),
            "\(review.stdout)\(review.stderr)")
        let gym = try s.run("add", "event", "Gym", "--start", "tue 18:00", "--duration", "90 min", "--repeat", "every other tuesday")
        #expect(gym.stdout.contains("18:00 – 19:30") && gym.stdout.contains("Repeats: every 2 weeks on Tuesday"), "\(gym.stdout)\(gym.stderr)")
        let rent = try s.run("add", "reminder", "Rent", "--due", "2026-12-15", "--repeat", "monthly on the 15th")
        #expect(rent.stdout.contains("Repeats: monthly on the 15th"), "\(rent.stdout)\(rent.stderr)")
        let course = try s.run("add", "event", "Course", "--start", "mon 19:00", "--repeat", "weekly until 2027-03-01")
        #expect(course.stdout.contains("Repeats: weekly, until 2027-03-01"), "\(course.stdout)\(course.stderr)")
        // The last meeting is on the day named, and the file says it as RFC 5545 wants (UTC, end of that day).
        let export = try s.run("export")
        #expect(export.stdout.contains("RRULE:FREQ=WEEKLY;UNTIL=20270301T225959Z"), "\(export.stdout)")
        let agenda = try s.run("agenda", "--from", "2027-02-22", "--days", "14").stdout
        #expect(agenda.contains("Mon 2027-03-01") && !agenda.contains("Mon 2027-03-08"), "\(agenda)")
        let tonight = try s.run("add", "event", "Dinner", "--start", "tonight 8pm")
        #expect(tonight.stdout.contains("Fri 2026-11-20 20:00"), "\(tonight.stdout)\(tonight.stderr)")
        let typo = try s.run("add", "event", "Dentist", "--start", "tomorow 9:00")
        #expect(typo.status != 0 && typo.stderr.contains("did you mean \"tomorrow\"?"), "\(typo.stderr)")
    }

    /// Editing a weekday stand-up by title: a new time keeps its days, its moved occurrence and its
    /// removed one; a new first day says what it drops and, without a terminal, needs --span all.
    @Test func movingASeriesKeepsWhatItCanAndNamesWhatItDrops() throws {
        let s = StoreSession(now: "2026-12-04T12:00:00Z")  // Friday
        let id = try s.add("event", "Standup", "--start", "mon 9:00", "--duration", "15m", "--repeat", "weekdays")
        #expect(try s.run("edit", "\(id)@20261208T080000Z", "--start", "11:00").status == 0)  // Tuesday's, moved
        #expect(try s.run("remove", "\(id)@20261210T080000Z").status == 0)  // Thursday's, cancelled
        func week() throws -> [String] {
            try #require(try s.json("agenda", "--from", "2026-12-07", "--days", "5") as? [[String: Any]])
                .compactMap { ($0["start"] as? [String: Any])?["local"] as? String }
        }
        let retimed = try s.run("edit", "Standup", "--start", "10:15")
        #expect(retimed.status == 0 && !retimed.stdout.contains("Dropped"), "\(retimed.stdout)\(retimed.stderr)")
        #expect(try week() == ["2026-12-07T10:15:00", "2026-12-08T11:00:00", "2026-12-09T10:15:00", "2026-12-11T10:15:00"])
        let refused = try s.run("edit", "Standup", "--start", "wed 10:15")
        #expect(refused.status != 0, "\(refused.stdout)")
        #expect(
            refused.stderr.contains("drops the 2 occurrences (Mon 2026-12-07 10:15, Tue 2026-12-08 10:15) before it")
                && refused.stderr.contains("the changed occurrence of Tue 2026-12-08") && refused.stderr.contains("--span all"), "\(refused.stderr)")
        #expect(try week().count == 4)
        let moved = try s.run("edit", "Standup", "--start", "wed 10:15", "--span", "all")
        #expect(moved.status == 0 && moved.stdout.contains("Dropped the changed occurrence of Tue 2026-12-08"), "\(moved.stdout)\(moved.stderr)")
        #expect(try week() == ["2026-12-09T10:15:00", "2026-12-11T10:15:00"])
    }

    /// A repeating reminder and its completed copy share a title: `complete` by title takes the
    /// open one, `uncomplete` by title the one done last.
    @Test func completeAndUncompleteByTitleTakeTheOneThatFits() throws {
        let s = StoreSession()
        _ = try s.add("reminder", "Bins", "--due", "fri 7:00", "--repeat", "weekly")
        #expect(try s.run("complete", "bins").stdout.hasPrefix("Completed \"Bins\""))
        let second = try s.run("complete", "bins")
        #expect(second.status == 0 && second.stdout.hasPrefix("Completed \"Bins\""), "\(second.stderr)")
        let undo = try s.run("uncomplete", "bins")
        #expect(undo.status == 0 && undo.stdout.contains("is not done"), "\(undo.stdout)\(undo.stderr)")
    }

    /// `edit --repeat` says the new rule back, as `add` does: a phrase may read otherwise than meant.
    @Test func editWithARepeatSaysTheRuleBack() throws {
        let s = StoreSession()
        let id = try s.add("event", "Yoga", "--start", "mon 18:00")
        let r = try s.run("edit", id, "--repeat", "every monday and thursday until 2027-03-01")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("Repeats: every week on Monday and Thursday") || r.stdout.contains("Repeats: weekly on Monday and Thursday"), "\(r.stdout)")
        let plain = try s.run("edit", id, "--title", "Yoga class")
        #expect(plain.status == 0 && !plain.stdout.contains("Repeats:"), "\(plain.stdout)")
    }

    /// A command that adds things creates the store, but not when what was typed is refused:
    /// a first try with a typo must not leave an empty store (and its calendars) behind.
    /// `chime import` stores each item as it reads it; a file only the whole-file read reads
    /// right (one UID twice) is read again from its start, and the store ends the same.
    @Test func anImportStoresAsItReadsAndReadsAgainWhereTheWholeFileDecides() throws {
        let s = StoreSession()
        _ = try s.add("event", "Dentist", "--start", "tomorrow 9:00")
        var events = ""
        for i in 0..<1_500 { events += "BEGIN:VEVENT\r\nUID:e\(i)\r\nDTSTART:20270101T090000Z\r\nSUMMARY:Event \(i)\r\nEND:VEVENT\r\n" }
        let twice = "BEGIN:VEVENT\r\nUID:e7\r\nDTSTART:20270102T090000Z\r\nSUMMARY:Event 7 again\r\nSEQUENCE:1\r\nEND:VEVENT\r\n"
        for (name, body, summary) in [
            ("many.ics", events, "1500 new"), ("twice.ics", events + twice, "1500 new")
        ] {
            let file = s.folder + "/" + name
            try ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n" + body + "END:VCALENDAR\r\n").write(toFile: file, atomically: true, encoding: .utf8)
            let store = s.folder + "/" + name + ".sqlite"
            _ = try CLI.run(["add", "event", "Dentist", "--start", "tomorrow 9:00", "--store", store, "--create"], environment: s.environment)
            let r = try CLI.run(["import", file, "--store", store], environment: s.environment)
            #expect(r.status == 0 && r.stdout.contains(summary), "\(r.stdout)\(r.stderr)")
            let agenda = try CLI.run(["export", "--store", store], environment: s.environment).stdout
            #expect(agenda.components(separatedBy: "BEGIN:VEVENT").count - 1 == 1_501, "\(name)")
            if name == "twice.ics" {
                #expect(r.stderr.contains("warning: twice.ics:") && r.stderr.contains("e7 also appears at line"), "\(r.stderr)")
                #expect(agenda.contains("Event 7 again") && !agenda.contains("SUMMARY:Event 7\r\n"))
            }
        }
    }

    @Test func aRefusedFirstCommandCreatesNoStore() throws {
        let s = StoreSession()
        let bad = s.folder + "/bad.ics"
        try FileManager.default.createDirectory(atPath: s.folder, withIntermediateDirectories: true)
        try "not a calendar\n".write(toFile: bad, atomically: true, encoding: .utf8)
        // A calendar whose only event cannot be read (no DTSTART): nothing to import is a failure.
        let unreadable = s.folder + "/unreadable.ics"
        try "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:u1\r\nSUMMARY:Lunch\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
            .write(toFile: unreadable, atomically: true, encoding: .utf8)
        let good = s.folder + "/good.ics"
        try "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:g1\r\nDTSTART:20261201T090000Z\r\nSUMMARY:Lunch\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
            .write(toFile: good, atomically: true, encoding: .utf8)
        for arguments in [
            ["add", "event", "Dentist", "--start", "the day after never"],
            ["import", good, "--calendar", "Nope"],
            ["add", "event", "Dentist", "--start", "tomorrow 9:00", "--repeat", "every blue moon"],
            ["add", "reminder", "Call", "--due", "someday"],
            ["add", "reminder", "Call", "--alarm", "10m"],
            ["import", s.folder + "/missing.ics"],
            ["import", bad],
            ["import", unreadable]
        ] {
            let r = try s.run(arguments)
            #expect(r.status != 0, "\(arguments)")
            #expect(!FileManager.default.fileExists(atPath: s.path), "\(arguments) created the store: \(r.stderr)")
        }
        // Why a file cannot be read, as the system says it.
        let missing = try s.run("import", s.folder + "/missing.ics")
        #expect(
            missing.stderr == "Error: \(s.folder)/missing.ics: cannot read the file (No such file or directory); nothing was imported\n", "\(missing.stderr)")
        let folder = try s.run("import", s.folder)
        #expect(folder.stderr.contains("cannot read the file (Is a directory)"), "\(folder.stderr)")
        // A dry run says what a new store would take, and makes none.
        let dry = try s.run("import", good, "--dry-run")
        #expect(dry.status == 0 && dry.stdout.contains("1 new"), "\(dry.stdout)\(dry.stderr)")
        #expect(!FileManager.default.fileExists(atPath: s.path), "a dry run created the store")
        let nope = try s.run("import", good, "--calendar", "Nope")
        #expect(nope.stderr == "Error: --calendar: no calendar or list \"Nope\" (see `chime calendar list`)\n", "\(nope.stderr)")
        let nothing = try s.run("import", unreadable)
        #expect(
            nothing.stderr.contains("warning: unreadable.ics:3:") && nothing.stderr.contains("unreadable.ics: nothing could be imported"), "\(nothing.stderr)")
        _ = try s.add("event", "Dentist", "--start", "tomorrow 9:00")
        #expect(FileManager.default.fileExists(atPath: s.path))
        // Into a store that exists, the same: an error, and no "Imported: 0" summary.
        let again = try s.run("import", unreadable)
        #expect(again.status == 1 && again.stdout.isEmpty, "\(again.stdout)")
    }

    @Test func mistypedPathsCommandsAndZonesAreSaidNotGuessed() throws {
        let s = StoreSession()
        let missing = s.folder + "/typo/chime.sqlite"
        let r = try CLI.run(["agenda", "--store", missing], environment: s.environment)
        #expect(r.status != 0 && r.stderr.contains("no store at \(missing) (from --store)"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: s.folder + "/typo"))
        #expect(try CLI.run(["agenda", "--store", missing, "--create"], environment: s.environment).stdout == "No events.\n")
        let typo = try s.run("agnda")
        #expect(typo.status != 0 && typo.stderr.contains("Did you mean 'chime agenda'?"), "\(typo.stderr)")
        #expect(try s.run("agenda", "today", "--create").status == 0)
        #expect(
            try s.run("--color", "always", "agenda", "today").stderr
                == "Error: options go after the command's name: chime agenda today --color always\n")
        var posix = s.environment
        posix["TZ"] = "CET-1CEST,M3.5.0,M10.5.0/3"
        let zoned = try CLI.run(["add", "event", "Call", "--start", "2026-11-23T09:00"], environment: posix)
        #expect(zoned.status == 0 && zoned.stderr.isEmpty, "\(zoned.stderr)")
        var bad = s.environment
        bad["TZ"] = "Mars/Olympus"
        #expect(try CLI.run(["agenda"], environment: bad).stderr.contains("TZ=\"Mars/Olympus\" is neither a zone name"))
        // Removing a calendar with items in it asks; without a terminal, --yes is needed.
        try s.run("calendar", "add", "Old")
        _ = try s.add("event", "Something", "--start", "2026-11-23T09:00", "--calendar", "Old")
        let refused = try s.run("calendar", "remove", "Old")
        #expect(refused.status != 0 && refused.stderr.contains("\"Old\" and its 1 event; run it again with --yes"), "\(refused.stderr)")
        #expect(try s.run("calendar", "remove", "Old", "--yes").stdout.contains("Removed \"Old\" and its 1 event"))
    }

    /// A repeating event named by its title is a guess: removing the whole series asks, and
    /// without a terminal needs --yes. Its ID (or one occurrence, or a single event by title)
    /// removes as before.
    @Test func removingARepeatingSeriesByItsTitleAsksFirst() throws {
        let s = StoreSession()
        let yoga = try s.add("event", "Yoga", "--start", "2026-11-23T18:00", "--repeat", "weekly")
        let refused = try s.run("remove", "yoga")
        #expect(refused.status != 0, "\(refused.stderr)")
        #expect(refused.stderr.contains("\"Yoga\" repeats, and this removes the whole series; run it again with --yes"), "\(refused.stderr)")
        #expect(try s.run("show", yoga).status == 0, "the series is still there")
        #expect(try s.run("remove", "Yoga", "--yes").stdout.contains("Removed \"Yoga\" (the whole series"))
        #expect(try s.run("show", yoga).status != 0)

        let standup = try s.add("event", "Standup", "--start", "2026-11-23T09:00", "--repeat", "daily")
        #expect(try s.run("remove", String(standup.prefix(8))).stdout.contains("Removed \"Standup\" (the whole series"), "by ID: no question")
        _ = try s.add("event", "Dentist", "--start", "2026-11-24T10:00")
        #expect(try s.run("remove", "Dentist").stdout.contains("Removed \"Dentist\""), "a single event by title: no question")

        let german = CatalogSandbox.environment(s.environment, language: "de_DE.UTF-8")
        _ = try s.add("event", "Chor", "--start", "2026-11-25T19:00", "--repeat", "weekly")
        let deRefused = try CLI.run(["remove", "Chor"], environment: german)
        #expect(deRefused.stderr.contains("„Chor“ wiederholt sich"), "\(deRefused.stderr)")
        // An alarm --remove-alarm does not find: the ones there are, as typed, then in German.
        let probe = try s.add("event", "Probe", "--start", "2026-11-26T19:00", "--alarm", "30m", "--alarm", "+10m")
        let notThere = try CLI.run(["edit", probe, "--remove-alarm", "2h"], environment: german)
        #expect(notThere.status != 0, "\(notThere.stdout)")
        #expect(notThere.stderr.contains("ist keiner der Hinweise (30m (30 "), "\(notThere.stderr)")
        #expect(notThere.stderr.contains("vorher); +10m (10 ") && notThere.stderr.contains("danach))"), "\(notThere.stderr)")
    }

    /// A place's alarm and one counted from the end (as Thunderbird writes them) read in the
    /// user's language wherever they are listed: `add`'s echo, `show`, `alarms` and the alarms
    /// `--remove-alarm` offers; the German words remove the place's alarm as the English do.
    @Test func placeAndEndAlarmsReadInTheUsersLanguage() throws {
        let s = StoreSession(now: "2026-11-23T08:00:00Z")
        let german = CatalogSandbox.environment(s.environment, language: "de_DE.UTF-8")
        let added = try CLI.run(["add", "reminder", "Milch kaufen", "--at", "Supermarkt@52.525,13.402"], environment: german)
        #expect(added.stdout.contains("beim Ankommen bei Supermarkt (52.525,13.402, Standardradius)"), "\(added.stdout)")
        let milk = try #require(added.stdout.split(separator: "\n").first { $0.hasPrefix("ID ") }.map { String($0.dropFirst(3)) })
        #expect(try CLI.run(["show", milk], environment: german).stdout.contains("beim Ankommen bei Supermarkt"))
        let alarms = try CLI.run(["alarms", "--hours", "48"], environment: german)
        #expect(alarms.stdout.contains("Milch kaufen  beim Ankommen bei Supermarkt (52.525,13.402, Standardradius)"), "\(alarms.stdout)")
        #expect(!alarms.stdout.contains("arriving"), "\(alarms.stdout)")

        let file = try s.writeFile(
            "thunderbird.ics",
            lines: [
                "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Mozilla.org/NONSGML Mozilla Calendar V1.1//EN", "BEGIN:VEVENT",
                "UID:end-alarm@example.org", "DTSTAMP:20261120T100000Z", "DTSTART:20261124T090000Z", "DTEND:20261124T100000Z",
                "SUMMARY:Workshop", "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:Workshop", "TRIGGER;RELATED=END:-PT5M", "END:VALARM",
                "END:VEVENT", "END:VCALENDAR", ""
            ])
        #expect(try s.run("import", file).status == 0)
        let hint = try CLI.run(["edit", "Workshop", "--remove-alarm", "2h"], environment: german)
        #expect(hint.status != 0)
        #expect(hint.stderr.contains("(5m before the end (5 Min. vor dem Ende))"), "typed as the option takes it, then in German: \(hint.stderr)")

        let placeHint = try CLI.run(["edit", milk, "--remove-alarm", "2h"], environment: german)
        #expect(placeHint.stderr.contains("(beim Ankommen bei Supermarkt (52.525,13.402, Standardradius))"), "\(placeHint.stderr)")
        let removed = try CLI.run(["edit", milk, "--remove-alarm", "beim Ankommen bei Supermarkt (52.525,13.402, Standardradius)"], environment: german)
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(!(try s.run("show", milk).stdout.contains("arriving")), "the German words named the alarm that went")
        // The English words still name it, in German too; a radius of its own is said in the language's unit.
        let bread = try s.add("reminder", "Brot", "--at", "Bäcker@52.5,13.4,120")
        #expect(try CLI.run(["show", bread], environment: german).stdout.contains("beim Ankommen bei Bäcker (52.5,13.4, 120 m)"))
        #expect(try CLI.run(["show", bread], environment: CatalogSandbox.environment(s.environment, language: "ru_RU.UTF-8")).stdout.contains("120 м)"))
        let english = try CLI.run(["edit", bread, "--remove-alarm", "on arriving at Bäcker (52.5,13.4, 120 m)"], environment: german)
        #expect(english.status == 0, "\(english.stderr)")
        // An alarm at a date is offered by the date it is removed with.
        let flight = try s.add("event", "Flight", "--start", "2026-12-20T10:00", "--alarm", "2026-12-19T18:00")
        let dated = try s.run("edit", flight, "--remove-alarm", "1h")
        #expect(dated.stderr.contains("(2026-12-19T17:00:00Z)"), "\(dated.stderr)")
        #expect(try s.run("edit", flight, "--remove-alarm", "2026-12-19T17:00:00Z").status == 0)
    }

    /// An Apple event's location runs over two lines (the place, then its address) and a Google
    /// event keeps its e-mail alarm: the form shows the break as `\n` and the alarm as `email`,
    /// saves a title-only change with both as they were, and drops the alarm when the word goes.
    @Test func theFormKeepsATwoLineLocationAndNamesTheEmailAlarm() throws {
        let s = StoreSession()
        let path = try s.writeFile(
            "apple.ics",
            lines: [
                "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Apple Inc.//macOS 15.1//EN",
                "BEGIN:VEVENT", "UID:apple-two-lines", "DTSTAMP:20261101T000000Z", "DTSTART:20261210T090000Z", "DTEND:20261210T100000Z",
                "SUMMARY:Review", "LOCATION:Office\\nAlexanderplatz 1\\, Berlin",
                "X-APPLE-STRUCTURED-LOCATION;VALUE=URI;X-APPLE-RADIUS=70;X-TITLE=Office:geo:52.521918,13.413215",
                "BEGIN:VALARM", "ACTION:EMAIL", "TRIGGER:-P1D", "SUMMARY:Review", "DESCRIPTION:Tomorrow", "ATTENDEE:mailto:me@example.com",
                "END:VALARM", "END:VEVENT", "END:VCALENDAR", ""
            ])
        #expect(try s.run("import", path).status == 0)
        func edit(_ script: String) throws -> CLIResult { try s.runEditing(script, ["edit", "apple-two-lines"]) }
        let titled = try edit("cp \"$1\" \(s.folder)/form.txt; sed -i 's/^title: .*/title: Design review/' \"$1\"")
        #expect(titled.status == 0, "\(titled.stdout)\(titled.stderr)")
        let form = try String(contentsOfFile: s.folder + "/form.txt", encoding: .utf8)
        #expect(form.contains("\nlocation: Office\\nAlexanderplatz 1, Berlin\n") && form.contains("\nalarms: email\n"), "\(form)")
        #expect(form.contains("# A line break inside a one-line field is written \\n, a backslash \\\\."), "\(form)")
        var export = try s.run("export").stdout
        #expect(export.contains("SUMMARY:Design review") && export.contains("LOCATION:Office\\nAlexanderplatz 1\\, Berlin"), "\(export)")
        #expect(export.contains("X-APPLE-STRUCTURED-LOCATION") && export.contains("ACTION:EMAIL"), "\(export)")
        let dropped = try edit("sed -i 's/^alarms: .*/alarms: 30m/' \"$1\"")
        #expect(dropped.status == 0, "\(dropped.stdout)\(dropped.stderr)")
        export = try s.run("export").stdout
        #expect(!export.contains("ACTION:EMAIL") && export.contains("TRIGGER:-PT30M") && export.contains("X-APPLE-STRUCTURED-LOCATION"), "\(export)")
    }

    /// `chime edit ID` alone opens the item as a form in $EDITOR (a script here): a change is saved,
    /// an unchanged form saves nothing, and a form that does not read comes back with the error on top.
    @Test func editWithoutOptionsOpensTheItemInTheEditor() throws {
        let s = StoreSession()
        let id = try s.add("event", "Review", "--start", "2026-11-23T14:00", "--duration", "1h", "--alarm", "15m")
        func edit(_ script: String, reference: String? = nil) throws -> CLIResult {
            try s.runEditing(script, ["edit", reference ?? String(id.prefix(8))])
        }
        let form = try edit("cp \"$1\" \(s.folder)/form.txt")
        #expect(form.stdout == "No change.\n", "\(form.stdout)\(form.stderr)")
        let shown = try String(contentsOfFile: s.folder + "/form.txt", encoding: .utf8)
        #expect(shown.contains("title: Review\nstart: 2026-11-23 14:00\nend: 2026-11-23 15:00\nzone: Europe/Berlin\n"), "\(shown)")
        #expect(shown.contains("alarms: 15m\n"), "\(shown)")
        let saved = try edit(
            "sed -i -e 's/^title: .*/title: Design review/' -e 's/^start: .*/start: 2026-11-24 10:00/' -e 's/^end: .*/end: 2026-11-24 11:30/' -e 's/^alarms: .*/alarms: 30m, +5m/' \"$1\""
        )
        #expect(saved.status == 0 && saved.stdout.hasPrefix("Saved \"Design review\": Tue 2026-11-24 10:00"), "\(saved.stdout)\(saved.stderr)")
        #expect(saved.stdout.contains("Alarm: Tue 2026-11-24 09:30 (30 min before)"), "\(saved.stdout)")
        // A bad date: the editor sees the form again, the error on its first line; then it is fixed.
        let counter = s.folder + "/rounds"
        let retried = try edit(
            """
            n=$(cat \(counter) 2>/dev/null || echo 0); echo $((n+1)) > \(counter)
            if [ "$n" = 0 ]; then sed -i 's/^start: .*/start: 2026-02-30 10:00/' "$1"; exit 0; fi
            head -1 "$1" > \(s.folder)/first-line.txt
            sed -i -e 's/^start: .*/start: 2026-11-25 10:00/' -e 's/^end: .*/end: 2026-11-25 11:00/' "$1"
            """)
        #expect(retried.status == 0 && retried.stdout.contains("Wed 2026-11-25 10:00"), "\(retried.stdout)\(retried.stderr)")
        let firstLine = try String(contentsOfFile: s.folder + "/first-line.txt", encoding: .utf8)
        #expect(firstLine.hasPrefix("# error: start: \"2026-02-30 10:00\": no such calendar date"), "\(firstLine)")
        #expect(try s.run("export").stdout.contains("SEQUENCE:2"))
        // Only the start line moved: the event keeps its hour, as `edit --start` does (it had
        // become 22 hours long, or "end before start").
        let moved = try edit("sed -i 's/^start: .*/start: 2026-11-25 16:00/' \"$1\"")
        #expect(moved.status == 0, "\(moved.stderr)")
        #expect(try s.run("show", String(id.prefix(8))).stdout.contains("Ends:      Wed 2026-11-25 17:00"))
        // A script that brings back the same error twice stops instead of reopening for ever.
        let stuck = try edit("sed -i 's/^start: .*/start: 2026-02-30 10:00/' \"$1\"")
        #expect(
            stuck.status != 0 && stuck.stderr.contains("no such calendar date") && stuck.stderr.contains("nothing was saved"),
            "\(stuck.stderr)")
        // A series moved in the form is named by its ID alone (it printed the old first
        // occurrence, which `chime show` then did not find).
        let weekly = try s.add("event", "Choir", "--start", "2026-11-23T19:00", "--repeat", "weekly")
        let series = try edit(
            "sed -i -e 's/^start: .*/start: 2026-11-24 20:00/' -e 's/^end: .*/end: 2026-11-24 21:00/' \"$1\"", reference: weekly)
        #expect(series.status == 0 && series.stdout.contains("\nID \(weekly)\n"), "\(series.stdout)\(series.stderr)")
        #expect(try s.run("show", weekly).stdout.contains("Tue 2026-11-24 20:00"))
    }

    /// A notification snoozed in the daemon comes back later: `chime alarms` lists it in the window
    /// where it shows again.
    @Test func aPendingSnoozeIsListedWhereItComesBack() throws {
        let s = StoreSession(zone: "UTC")
        _ = try s.add("reminder", "Stretch", "--due", "2026-11-20T12:30")
        let store = try EventStore(path: s.path, floatingZone: .utc)
        let now = Instant(secondsSince1970: 1_795_177_800)  // 2026-11-20T12:30:00Z
        let due = AlarmAgenda.firings(
            of: try store.alarmSources(from: now).map { ($0.item, $0.replaced) }, zone: .utc,
            from: now, to: now.adding(60))
        let firing = try #require(due.first)
        _ = try store.ledger.claimDeliveries([firing], checkedUntil: nil, deliveredAtMilliseconds: now.secondsSince1970 * 1000)
        try store.ledger.confirmDeliveries([firing.key], deliveredAtMilliseconds: now.secondsSince1970 * 1000)
        #expect(try store.ledger.snooze(firing.key, until: now.adding(3600), now: now))
        let later = try s.run("alarms", "--from", "2026-11-20T13:00:00Z", "--hours", "2").stdout
        #expect(later.contains("Snoozed, shown again: 1\nFri 2026-11-20 13:30  Stretch  (first at Fri 2026-11-20 12:30)"), "\(later)")
        #expect(!(try s.run("alarms", "--from", "2026-11-20T14:00:00Z", "--hours", "2")).stdout.contains("Snoozed"))
    }

    /// A store the user can read but not write (a backup, a shared copy) shows what it holds and
    /// refuses changes with the reason. Tests run as root, who may write anything: the binary and
    /// the store are handed to `nobody` and run through setpriv.
    @Test func aReadOnlyStoreIsReadable() throws {
        let s = StoreSession()
        _ = try s.add("event", "Review", "--start", "2026-11-23T14:00")
        // A folder of its own: the session's folder is private to root (0700).
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chime-ro-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { _ = try? CLI.run(["-c", "chmod -R u+w \(folder) && rm -rf \(folder)"], executable: "/bin/sh") }
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: s.path + suffix) {
            try FileManager.default.copyItem(atPath: s.path + suffix, toPath: folder + "/chime.sqlite" + suffix)
        }
        try FileManager.default.copyItem(atPath: CLI.binary.path, toPath: folder + "/chime")
        let prepare = try CLI.run(
            ["-c", "chown -R 65534:65534 \(folder) && chmod 444 \(folder)/chime.sqlite* && chmod 555 \(folder)"],
            executable: "/bin/sh")
        #expect(prepare.status == 0, "\(prepare.stderr)")
        let asNobody = [
            "/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "env", "HOME=/tmp", "TZ=Europe/Berlin",
            "CHIME_NOW=2026-11-20T12:00:00Z", folder + "/chime"
        ]
        let read = try CLI.run(Array(asNobody.dropFirst()) + ["agenda", "--store", folder + "/chime.sqlite", "--days", "7"], executable: asNobody[0])
        #expect(read.status == 0 && read.stdout.contains("Review"), "\(read.stdout)\(read.stderr)")
        let write = try CLI.run(
            Array(asNobody.dropFirst()) + ["add", "event", "X", "--start", "tomorrow", "--store", folder + "/chime.sqlite"],
            executable: asNobody[0])
        #expect(write.status != 0 && write.stderr.contains("is read-only: Chime can show what it holds but not change it"), "\(write.stderr)")
    }

    @Test func datesAsPeopleTypeThem() throws {
        let s = StoreSession()
        for (phrase, expected) in [
            ("tomorrow at 9", "Sat 2026-11-21 09:00"), ("9:30pm", "Fri 2026-11-20 21:30"),
            ("next friday", "Fri 2026-11-27 (all day)"), ("Dec 1 noon", "Tue 2026-12-01 12:00"),
            ("in 2 hours", "Fri 2026-11-20 15:00"), ("01.12.", "Tue 2026-12-01 (all day)")
        ] {
            let r = try s.run("add", "event", phrase, "--start", phrase)
            #expect(r.stdout.contains(": \(expected)"), "\(phrase): \(r.stdout)\(r.stderr)")
        }
        let ambiguous = try s.run("add", "event", "X", "--start", "03/04")
        #expect(ambiguous.stderr.contains("ambiguous: 4 March or 3 April"), "\(ambiguous.stderr)")
        // A negative offset after --from is a value, not an option.
        #expect(try s.run("agenda", "--from", "-30m", "--days", "1").status == 0)
    }

    /// Every example line in every --help fits 80 columns (so no terminal wraps it mid-argument) and
    /// parses: pasted as printed, the parser accepts it (what it then finds is the store's business).
    @Test func helpExamplesPasteAsPrinted() throws {
        let s = StoreSession()
        // `add … --edit` opens the editor: one that exits at once, so the form comes back unchanged.
        var environment = s.environment
        environment["EDITOR"] = "true"
        environment["VISUAL"] = ""
        let commands = [
            [], ["agenda"], ["alarms"], ["reminders"], ["add", "event"], ["add", "reminder"], ["show"], ["edit"],
            ["remove"], ["complete"], ["import"], ["export"], ["calendar", "remove"], ["expand"], ["daemon"],
            ["doctor"], ["find"], ["geofence"], ["geofence", "list"], ["geofence", "simulate"]
        ]
        // Not run: `where` waits for a position, and `account add` and `calendar subscribe` go on the network.
        var checked = 0
        for command in commands {
            let help = try CLI.run(command + ["--help"], environment: s.environment).stdout
            var examples: [String] = []
            var pending = ""
            for raw in help.split(separator: "\n", omittingEmptySubsequences: false) {
                let line = raw.trimmingCharacters(in: .whitespaces)
                if pending.isEmpty && !line.hasPrefix("chime ") { continue }
                // Prose may be re-wrapped to the terminal; an example line must never need it.
                #expect(raw.count <= 80, "\(command): an example line is \(raw.count) columns: \(raw)")
                pending += (pending.isEmpty ? "" : " ") + line
                if pending.hasSuffix("\\") { pending.removeLast(); continue }
                examples.append(pending.components(separatedBy: "  #")[0])
                pending = ""
            }
            // The daemon runs until stopped, and -o writes a file: those are parsed by the other tests.
            for example in examples where !example.contains("--help") && !example.hasPrefix("chime daemon") && !example.contains(" -o ") {
                var words = CLI.shellWords(String(example.dropFirst("chime ".count)))
                if let redirect = words.firstIndex(of: ">") { words.removeSubrange(redirect...) }  // `> year.json`
                let r = try CLI.run(words, environment: environment)
                for usageError in ["Unexpected argument", "Missing expected argument", "Unknown option", "is not a chime command", "Missing value"] {
                    #expect(!r.stderr.contains(usageError), "\(example): \(r.stderr)")
                }
                checked += 1
            }
        }
        #expect(checked >= 20)
    }

}
