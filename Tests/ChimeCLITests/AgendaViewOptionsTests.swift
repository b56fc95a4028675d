import Foundation
import ChimeTestKit
import Testing

/// What the everyday views do that no other test pinned: colour (forced, refused, on a terminal),
/// `chime` alone, the agenda's named windows, and removing one alarm. Now is Friday 2026-11-20
/// 13:00 in Berlin.
@Suite("Everyday views")
struct AgendaViewOptionsTests {
    static let escape = "\u{1b}["

    /// `--color always` colours a pipe; `--color never`, and a pipe by default, print none. On a
    /// terminal (a pseudo-terminal made by `script`) colour is on, unless `NO_COLOR` or `--color never`.
    @Test func colourIsForcedOrRefusedAndFollowsNoColorOnATerminal() throws {
        let s = StoreSession()
        let id = try s.add("reminder", "Send the tax return", "--due", "2026-11-19")  // overdue
        _ = try s.add("event", "Review", "--start", "2026-11-20T16:00")
        let short = String(id.prefix(8))

        let forced = try s.run("reminders", "--color", "always").stdout
        #expect(forced.contains("\(Self.escape)31moverdue since Thu 2026-11-19\(Self.escape)0m"), "\(forced.debugDescription)")
        #expect(forced.contains("\(Self.escape)2m\(short)\(Self.escape)0m"), "\(forced.debugDescription)")
        #expect(try s.run("agenda", "--color", "always").stdout.contains(Self.escape))
        var noColor = s.environment
        noColor["NO_COLOR"] = "1"
        // The option is the user's own choice for this run: it wins over NO_COLOR.
        #expect(try CLI.run(["reminders", "--color", "always"], environment: noColor).stdout.contains(Self.escape))
        for arguments in [["reminders"], ["reminders", "--color", "never"], ["agenda"], ["agenda", "--color", "never"]] {
            let plain = try s.run(arguments).stdout
            #expect(!plain.contains("\u{1b}"), "\(arguments): \(plain.debugDescription)")
            #expect(plain.contains(short) || arguments[0] == "agenda", "\(arguments): \(plain)")
        }

        // On a terminal.
        func terminal(_ arguments: [String], _ extra: [String: String] = [:]) throws -> String {
            let command = ([CLI.binary.path] + arguments).map { "'\($0)'" }.joined(separator: " ")
            var env = s.environment
            env["TERM"] = "xterm"
            env["NO_COLOR"] = ""  // empty is unset (no-color.org); a test runner may have set it
            for (k, v) in extra { env[k] = v }
            let r = try CLI.run(["-qec", command, "/dev/null"], environment: env, executable: "/usr/bin/script")
            #expect(r.status == 0, "\(arguments): \(r.stderr)")
            #expect(r.stdout.contains("Send the tax return"), "\(arguments): \(r.stdout.debugDescription)")
            return r.stdout
        }
        let coloured = try terminal(["reminders"])
        #expect(coloured.contains("\(Self.escape)31moverdue since"), "\(coloured.debugDescription)")
        #expect(!(try terminal(["reminders"], ["NO_COLOR": "1"])).contains("\u{1b}"))
        #expect(!(try terminal(["reminders", "--color", "never"])).contains("\u{1b}"))
        #expect(!(try terminal(["reminders"], ["TERM": "dumb"])).contains("\u{1b}"))
    }

    /// `chime` alone: today's heading and events, the reminders due, the next alarm, the hint.
    @Test func chimeAloneShowsTodayTheNextAlarmAndTheHint() throws {
        let s = StoreSession()
        _ = try s.add("event", "Review", "--start", "2026-11-20T16:00", "--duration", "1h", "--alarm", "15m")
        _ = try s.add("event", "Tomorrow's hike", "--start", "2026-11-21T10:00")
        _ = try s.add("reminder", "Call the dentist", "--due", "2026-11-20T17:00", "--no-alarm")
        let r = try s.run([])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(
            redactIDs(r.stdout) == """
                Today, Fri 2026-11-20
                  16:00-17:00  Review  [Calendar]  <ID>
                Reminders due: 1 (chime reminders)
                Next alarm: Fri 2026-11-20 15:45  Review

                chime --help lists every command; chime agenda week shows the next 7 days.

                """, "\(r.stdout)")
    }

    /// `agenda tomorrow`, `week` (today and 6 more days) and `month` (to the same day next month,
    /// or that month's last day).
    @Test func namedAgendaWindows() throws {
        let s = StoreSession()
        for (title, start) in [
            ("Today", "2026-11-20T15:00"), ("Tomorrow", "2026-11-21T09:00"), ("Sixth day", "2026-11-26T09:00"),
            ("Seventh day", "2026-11-27T09:00"), ("Month end", "2026-12-19T09:00"), ("Next month", "2026-12-20T09:00")
        ] {
            _ = try s.add("event", title, "--start", start)
        }
        func titles(_ arguments: String...) throws -> [String] {
            let r = try s.run(["agenda"] + arguments)
            #expect(r.status == 0, "\(arguments): \(r.stderr)")
            return ["Today", "Tomorrow", "Sixth day", "Seventh day", "Month end", "Next month"].filter { r.stdout.contains("  \($0)  ") }
        }
        #expect(try titles("today") == ["Today"])
        #expect(try titles("tomorrow") == ["Tomorrow"])
        #expect(try titles("week") == ["Today", "Tomorrow", "Sixth day"])
        #expect(try titles("month") == ["Today", "Tomorrow", "Sixth day", "Seventh day", "Month end"])
        #expect(try s.run("agenda", "tomorrow").stdout.hasPrefix("Sat 2026-11-21\n"))

        // 31 January: the month ends with February's last day.
        let january = StoreSession(now: "2027-01-31T08:00:00Z")
        _ = try january.add("event", "Last of February", "--start", "2027-02-27T09:00")
        _ = try january.add("event", "First of March", "--start", "2027-02-28T09:00")
        let month = try january.run("agenda", "month").stdout
        #expect(month.contains("Last of February") && !month.contains("First of March"), "\(month)")
    }

    /// `edit --remove-alarm` removes the one alarm named, keeps the others, and says what is left.
    @Test func removeAlarmRemovesOnlyTheOneNamed() throws {
        let s = StoreSession()
        let id = try s.add("event", "Review", "--start", "2026-11-23T14:00", "--alarm", "15m", "--alarm", "1h")
        let r = try s.run("edit", id, "--remove-alarm", "15m")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("Alarm: Mon 2026-11-23 13:00 (1 h before)") && !r.stdout.contains("15 min"), "\(r.stdout)")
        let shown = try s.run("show", id).stdout
        #expect(shown.contains("1 h before") && !shown.contains("15 min before"), "\(shown)")
        #expect(try s.run("export").stdout.components(separatedBy: "BEGIN:VALARM").count == 2)
        // The last one goes too; then there is none to remove.
        #expect(try s.run("edit", id, "--remove-alarm", "1h").status == 0)
        #expect(try s.run("edit", id, "--remove-alarm", "1h").stderr.contains("there are none"))
    }
}
