import Foundation
import ChimeTestKit
import ChimeTestSupport
import Testing

/// `chime calendar subscribe` against a real HTTP server (Python's http.server, which answers
/// If-Modified-Since with 304) serving a feed the test rewrites.
@Suite("Subscribed calendars", .serialized)
struct SubscriptionTests {
    private func feed(_ events: [(uid: String, title: String, day: Int)], name: String = "Public holidays") -> String {
        var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//feeds//EN\r\nX-WR-CALNAME:\(name)\r\n"
        for e in events {
            // The empty RRULE real holiday feeds carry: repaired, not refused.
            text +=
                "BEGIN:VEVENT\r\nUID:\(e.uid)\r\nDTSTAMP:20261101T000000Z\r\nDTSTART;VALUE=DATE:202612\(String(format: "%02d", e.day))\r\nSUMMARY:\(e.title)\r\nRRULE:\r\nEND:VEVENT\r\n"
        }
        text += "BEGIN:VTODO\r\nUID:todo-1\r\nDTSTAMP:20261101T000000Z\r\nSUMMARY:Not for a subscription\r\nEND:VTODO\r\n"
        return text + "END:VCALENDAR\r\n"
    }

    /// Python's http.server on a free port, serving `site`.
    private func serve(_ site: String) throws -> (Process, Int) {
        let port = try closedLoopbackPort()
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        server.arguments = ["python3", "-m", "http.server", "\(port)", "--bind", "127.0.0.1", "--directory", site]
        server.standardOutput = FileHandle.nullDevice
        server.standardError = FileHandle.nullDevice
        try server.run()
        return (server, port)
    }

    private func subscribe(_ s: StoreSession, _ url: String) throws -> CLIResult {
        var subscribed = try s.run("calendar", "subscribe", url, "--refresh", "1d")
        for _ in 0..<100 where subscribed.stderr.contains("no answer") {
            usleep(50_000)  // the server is still starting
            subscribed = try s.run("calendar", "subscribe", url, "--refresh", "1d")
        }
        return subscribed
    }

    /// A feed is read as it downloads (many chunks here: 3,000 events, about 1 MB); a page that is
    /// not a calendar (a login page in place of the feed) leaves nothing subscribed.
    @Test func aLargeFeedIsReadAsItDownloadsAndAPageThatIsNotOneLeavesNothing() throws {
        let s = StoreSession(zone: "Europe/Berlin")
        let site = s.folder + "/site"
        try FileManager.default.createDirectory(atPath: site, withIntermediateDirectories: true)
        // Clean events (a repair note for each would be 3,000 warnings).
        let many = (0..<3_000).map {
            "BEGIN:VEVENT\r\nUID:big-\($0)\r\nDTSTAMP:20261101T000000Z\r\nDTSTART;VALUE=DATE:202612\(String(format: "%02d", 1 + $0 % 28))\r\n"
                + "SUMMARY:Match \($0) \(String(repeating: "·", count: 100))\r\nEND:VEVENT\r\n"
        }
        try ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//feeds//EN\r\nX-WR-CALNAME:Fixtures\r\n" + many.joined() + "END:VCALENDAR\r\n")
            .write(toFile: site + "/big.ics", atomically: true, encoding: .utf8)
        try "<!DOCTYPE html><html><body>Please sign in</body></html>\n".write(toFile: site + "/login.ics", atomically: true, encoding: .utf8)
        let (server, port) = try serve(site)
        defer { kill(server.processIdentifier, SIGKILL); server.waitUntilExit() }
        let big = try subscribe(s, "http://127.0.0.1:\(port)/big.ics")
        #expect(big.status == 0, "\(big.stderr)")
        #expect(big.stdout.contains("Fixtures: 3000 new"), "\(big.stdout)")
        let login = try subscribe(s, "http://127.0.0.1:\(port)/login.ics")
        #expect(
            login.status != 0 && login.stderr.contains("no BEGIN:VCALENDAR") && login.stderr.contains("nothing subscribed"),
            "\(login.stderr)")
        let calendars = try s.run("calendar", "list").stdout
        #expect(calendars.contains("Fixtures") && !calendars.contains("login"), "\(calendars)")
    }

    /// The same feed imported into a local calendar and subscribed to: two calendars hold its
    /// UIDs (as two CalDAV collections may), and an export of the whole store writes each once.
    @Test func aFeedBothImportedAndSubscribedIsExportedOncePerUID() throws {
        let s = StoreSession(zone: "Europe/Berlin")
        let site = s.folder + "/site"
        try FileManager.default.createDirectory(atPath: site, withIntermediateDirectories: true)
        let file = site + "/holidays.ics"
        try feed([("h1", "St Nicholas", 6), ("h2", "Christmas Day", 25)]).write(toFile: file, atomically: true, encoding: .utf8)
        #expect(try s.run("import", file).status == 0)
        let (server, port) = try serve(site)
        defer { kill(server.processIdentifier, SIGKILL); server.waitUntilExit() }
        let subscribed = try subscribe(s, "http://127.0.0.1:\(port)/holidays.ics")
        #expect(subscribed.status == 0, "\(subscribed.stderr)")

        let export = try s.run("export", "-o", s.folder + "/all.ics")
        #expect(export.status == 0, "\(export.stderr)")
        let text = try String(contentsOfFile: s.folder + "/all.ics", encoding: .utf8)
        #expect(text.components(separatedBy: "UID:h1\r\n").count == 2 && text.components(separatedBy: "UID:h2\r\n").count == 2, "\(text)")
        #expect(export.stderr.contains("warning: UID h1 is in ") && export.stderr.contains("wrote the copy in"), "\(export.stderr)")
        // Chime reads its export without a repair; one calendar alone is exported whole.
        let again = StoreSession(zone: "Europe/Berlin")
        let strict = try again.run("import", "--strict", s.folder + "/all.ics")
        #expect(strict.status == 0, "\(strict.stderr)")
        #expect(try s.run("export", "--calendar", "Public holidays").stdout.contains("UID:h1\r\n"))
    }

    @Test func aFeedBecomesAReadOnlyCalendarThatFollowsItsSource() throws {
        let s = StoreSession(zone: "Europe/Berlin")
        let site = s.folder + "/site"
        try FileManager.default.createDirectory(atPath: site, withIntermediateDirectories: true)
        let file = site + "/holidays.ics"
        try feed([("h1", "St Nicholas", 6), ("h2", "Christmas Day", 25)]).write(toFile: file, atomically: true, encoding: .utf8)
        // Back-dated, so that the rewrites below always look newer to If-Modified-Since.
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: file)
        let (server, port) = try serve(site)
        defer { kill(server.processIdentifier, SIGKILL); server.waitUntilExit() }
        let url = "http://127.0.0.1:\(port)/holidays.ics"
        let subscribed = try subscribe(s, url)
        #expect(subscribed.status == 0, "\(subscribed.stderr)")
        #expect(subscribed.stdout.contains("Public holidays: 2 new, 0 updated, 0 removed"), "\(subscribed.stdout)")
        #expect(
            subscribed.stderr.contains("RRULE") && subscribed.stderr.contains("to-dos in the feed left out (1): a subscription holds events"),
            "\(subscribed.stderr)")
        // The warnings in the user's language, as an import's.
        let german = StoreSession(zone: "Europe/Berlin")
        let deutsch = try CLI.run(
            ["calendar", "subscribe", url, "--name", "Feiertage"], environment: CatalogSandbox.environment(german.environment, language: "de_DE.UTF-8"))
        #expect(deutsch.status == 0, "\(deutsch.stderr)")
        #expect(
            deutsch.stderr.contains("Warnung: Feiertage: Aufgaben im Feed ausgelassen (1): ein Abonnement enthält Termine")
                && !deutsch.stderr.contains("warning:"), "\(deutsch.stderr)")
        let agenda = try s.run("agenda", "--from", "2026-12-01", "--days", "31").stdout
        #expect(agenda.contains("St Nicholas") && agenda.contains("Christmas Day"))
        // Read-only: nothing can be added to it or changed in it here.
        let add = try s.run("add", "event", "Party", "--start", "2026-12-24T20:00", "--calendar", "Public holidays")
        #expect(add.status != 0 && add.stderr.contains("does not allow modifications"), "\(add.stderr)")

        // Unchanged: the server answers 304 and nothing is written.
        #expect(try s.run("calendar", "refresh").stdout.contains("Public holidays: unchanged"))

        // The source changes: one renamed, one gone, one new.
        try feed([("h2", "Christmas Day (observed)", 25), ("h3", "Boxing Day", 26)]).write(toFile: file, atomically: true, encoding: .utf8)
        let refreshed = try s.run("calendar", "refresh", "Public holidays")
        #expect(refreshed.stdout.contains("Public holidays: 1 new, 1 updated, 1 removed"), "\(refreshed.stdout)\(refreshed.stderr)")
        let after = try s.run("agenda", "--from", "2026-12-01", "--days", "31").stdout
        #expect(!after.contains("St Nicholas") && after.contains("Christmas Day (observed)") && after.contains("Boxing Day"), "\(after)")

        // A feed that is gone: a clear error, the calendar and its events kept.
        try FileManager.default.removeItem(atPath: file)
        let missing = try s.run("calendar", "refresh")
        #expect(missing.status != 0 && missing.stderr.contains("HTTP 404"), "\(missing.stderr)")
        #expect(try s.run("agenda", "--from", "2026-12-01", "--days", "31").stdout.contains("Boxing Day"))
        // A wrong URL subscribes nothing.
        let wrong = try s.run("calendar", "subscribe", "http://127.0.0.1:\(port)/nothing.ics")
        #expect(wrong.status != 0 && wrong.stderr.contains("nothing subscribed"), "\(wrong.stderr)")
        #expect(try !s.run("calendar", "list").stdout.contains("nothing"))
    }
}
