import Foundation
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
        lines += ["BEGIN:VEVENT", "UID:new-year-2027", "DTSTAMP:20261101T000000Z", "DTSTART;VALUE=DATE:20270101",
                  "SUMMARY:New Year's Day", "END:VEVENT",
                  "BEGIN:VTODO", "UID:cards-2026", "DTSTAMP:20261101T000000Z", "SUMMARY:Send cards", "END:VTODO",
                  "END:VCALENDAR", ""]
        try lines.joined(separator: "\r\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Title and kind of every calendar, sorted.
    static func calendars(_ s: StoreSession) throws -> [String] {
        let all = try s.json("calendar", "list") as? [[String: Any]] ?? []
        return all.map { "\($0["title"] as? String ?? "?") \($0["kind"] as? String ?? "?")" }.sorted()
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
}
