import Foundation
import Glibc
import ChimeTestKit
import Testing

/// `chime add event|reminder --edit`: the `chime edit` form in $EDITOR (a script here), empty
/// but for the options given; saved filled in, it adds the item; saved unchanged or emptied, it
/// adds nothing and says so.
@Suite("chime add --edit")
struct AddFormTests {
    /// Runs `chime add ARGUMENTS --edit` with `script` as the editor (`$1` is the form's file).
    func add(_ s: StoreSession, _ arguments: [String], editor script: String) throws -> CLIResult {
        try s.runEditing(script, ["add"] + arguments + ["--edit"])
    }

    @Test func aBlankFormFilledInAddsTheEventAndABadDateComesBackWithTheError() throws {
        let s = StoreSession()
        defer { try? FileManager.default.removeItem(atPath: s.folder) }
        let rounds = s.folder + "/rounds"
        let r = try add(
            s, ["event"],
            editor: """
                n=$(cat \(rounds) 2>/dev/null || echo 0); echo $((n+1)) > \(rounds)
                if [ "$n" = 0 ]; then
                  cp "$1" \(s.folder)/blank.txt
                  sed -i -e 's/^title:.*/title: Dentist/' -e 's/^start:.*/start: 2026-02-30 14:00/' -e 's/^alarms:.*/alarms: 30m/' \\
                    -e 's/^location:.*/location: Praxis Dr. Weiss/' "$1"
                  exit 0
                fi
                head -1 "$1" > \(s.folder)/first-line.txt
                sed -i -e 's/^start:.*/start: 2026-11-24 14:00/' -e 's/^end:.*/end: 14:45/' "$1"
                """)
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        let blank = try String(contentsOfFile: s.folder + "/blank.txt", encoding: .utf8)
        #expect(blank.contains("\ntitle: \nstart: \nend: \nzone: \nrepeat: \nalarms: \nlocation: \nurl: \nnotes: \n"), "\(blank)")
        let firstLine = try String(contentsOfFile: s.folder + "/first-line.txt", encoding: .utf8)
        #expect(firstLine.hasPrefix("# error: start: \"2026-02-30 14:00\": no such calendar date"), "\(firstLine)")
        #expect(r.stdout.hasPrefix("Added event \"Dentist\" to Calendar: Tue 2026-11-24 14:00 – 14:45\n"), "\(r.stdout)")
        #expect(r.stdout.contains("Alarm: Tue 2026-11-24 13:30 (30 min before)"), "\(r.stdout)")
        let item = try #require(try s.json("show", "Dentist") as? [String: Any])
        #expect(item["location"] as? String == "Praxis Dr. Weiss")
        #expect((item["alarms"] as? [[String: Any]])?.first?["offset_seconds"] as? Int == -1800)
    }

    @Test func theOptionsGivenFillTheFormAndAnUnchangedFormAddsNothing() throws {
        let s = StoreSession()
        defer { try? FileManager.default.removeItem(atPath: s.folder) }
        let r = try add(s, ["reminder", "Call mum", "--due", "sun 18:00", "--priority", "1"], editor: "cp \"$1\" \(s.folder)/form.txt")
        #expect(r.status == 1)
        #expect(r.stderr == "Error: the form was saved unchanged or empty; no reminder was added\n", "\(r.stderr)")
        let form = try String(contentsOfFile: s.folder + "/form.txt", encoding: .utf8)
        #expect(form.contains("\ntitle: Call mum\ndue: sun 18:00\nzone: \npriority: 1\n"), "\(form)")
        #expect(try #require(try s.json("reminders") as? [Any]).isEmpty)
    }

    @Test func anEmptiedFormAddsNothing() throws {
        let s = StoreSession()
        defer { try? FileManager.default.removeItem(atPath: s.folder) }
        let r = try add(s, ["event", "Review", "--start", "mon 10:00"], editor: ": > \"$1\"")
        #expect(r.status == 1 && r.stderr.contains("no event was added"), "\(r.stdout)\(r.stderr)")
        #expect(try #require(try s.json("agenda", "--days", "30") as? [Any]).isEmpty)
    }

    /// A filled reminder form saves with the form's due date, read floating as `add reminder` reads it.
    @Test func aReminderFormAddsTheReminder() throws {
        let s = StoreSession()
        defer { try? FileManager.default.removeItem(atPath: s.folder) }
        let r = try add(
            s, ["reminder"],
            editor: "sed -i -e 's/^title:.*/title: Water plants/' -e 's/^due:.*/due: 2026-11-21 10:00/' -e 's/^repeat:.*/repeat: weekly/' \"$1\"")
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.hasPrefix("Added reminder \"Water plants\" to Reminders, due Sat 2026-11-21 10:00 (floating)\nRepeats: weekly"), "\(r.stdout)")
    }

    /// The form says a repeat in the words `chime show` uses when they read back as the same rule
    /// (else the RRULE); saving the form with another change keeps the rule as it was.
    @Test func theFormSaysARepeatInWordsThatReadBackAsTheSameRule() throws {
        let s = StoreSession()
        defer { try? FileManager.default.removeItem(atPath: s.folder) }
        try FileManager.default.createDirectory(atPath: s.folder, withIntermediateDirectories: true)
        let rules = ["every 2 weeks on mon,thu", "weekdays", "FREQ=MONTHLY;BYDAY=-1FR", "FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU"]
        var shown: [String] = []
        for (n, rule) in rules.enumerated() {
            let id = try s.add("event", "Series \(n)", "--start", "2026-11-23T09:00", "--repeat", rule)
            let before = try #require(try s.json("show", id) as? [String: Any])["recurrence_rules"] as? [String]
            let path = s.folder + "/editor-\(n).sh"
            try "#!/bin/sh\ngrep '^repeat:' \"$1\" > \(s.folder)/repeat-\(n).txt\nsed -i 's/^title:.*/title: Renamed \(n)/' \"$1\"\n"
                .write(toFile: path, atomically: true, encoding: .utf8)
            chmod(path, 0o755)
            var env = s.environment
            env["EDITOR"] = path
            env["VISUAL"] = ""
            let r = try CLI.run(["edit", String(id.prefix(8))], environment: env)
            #expect(r.status == 0, "\(rule): \(r.stdout)\(r.stderr)")
            shown.append(try String(contentsOfFile: s.folder + "/repeat-\(n).txt", encoding: .utf8).trimmingCharacters(in: .newlines))
            let after = try #require(try s.json("show", id) as? [String: Any])
            #expect(after["title"] as? String == "Renamed \(n)")
            #expect(after["recurrence_rules"] as? [String] == before, "\(rule)")
        }
        #expect(shown[0] == "repeat: every 2 weeks on Monday and Thursday", "\(shown)")
        #expect(shown[1] == "repeat: every weekday", "\(shown)")
        #expect(shown.allSatisfy { !$0.contains("FREQ=WEEKLY") }, "\(shown)")
    }
}
