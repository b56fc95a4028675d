import Foundation
import ChimeTestKit
import Testing

/// The default views fit an 80-column terminal with titles of an ordinary length: the agenda, the
/// alarms (whose lines carry occurrence references) and the reminders. Long titles are not cut,
/// and a reminder with every mark (priority, repeats) and a long title can still pass 80. Now is
/// Friday 2026-11-20 13:00 in Berlin.
@Suite("Default views fit 80 columns")
struct ViewWidthTests {
    @Test func agendaAlarmsAndRemindersFit80Columns() throws {
        let s = StoreSession()
        try s.run("calendar", "add", "Work")
        _ = try s.add(
            "event", "Quarterly budget review", "--start", "mon 11:00", "--duration", "1h", "--repeat", "weekdays",
            "--alarm", "15m", "--calendar", "Work")
        _ = try s.add("event", "Dentist appointment", "--start", "tomorrow 9:30", "--duration", "45m", "--alarm", "1h")
        _ = try s.add("event", "Anna's birthday", "--start", "2026-11-25", "--all-day", "--repeat", "yearly", "--alarm", "1d")
        _ = try s.add("event", "Team offsite in Leipzig", "--start", "thu 9:00", "--end", "fri 17:00", "--calendar", "Work")
        _ = try s.add("reminder", "Renew car insurance", "--due", "tomorrow 10am", "--priority", "1")
        _ = try s.add("reminder", "Water the plants", "--due", "sat 10:00", "--repeat", "weekly", "--alarm", "30m")
        _ = try s.add("reminder", "Send the tax return", "--due", "2026-11-19")  // overdue, all day

        for arguments in [["agenda"], ["agenda", "week"], ["alarms"], ["alarms", "--hours", "120"], ["reminders"]] {
            let r = try s.run(arguments)
            #expect(r.status == 0, "\(arguments): \(r.stderr)")
            let lines = r.stdout.split(separator: "\n")
            #expect(lines.count > 2, "\(arguments): \(r.stdout)")
            for line in lines {
                #expect(line.count <= 80, "\(arguments): \(line.count) columns: \(line)")
            }
        }
        // The alarms view does list occurrence references, and the reminders view due times.
        let alarms = try s.run("alarms", "--hours", "120").stdout
        #expect(alarms.contains("  10:45  Quarterly budget review  15 min before 11:00  "), "\(alarms)")
        #expect(alarms.contains("@20261123T100000Z"), "\(alarms)")
        let reminders = try s.run("reminders").stdout
        #expect(reminders.contains("[ ] Renew car insurance  !1  due Sat 2026-11-21 10:00  [Reminders]  "), "\(reminders)")
        #expect(reminders.contains("[ ] Water the plants  due Sat 2026-11-21 10:00  repeats  [Reminders]  "), "\(reminders)")
        #expect(reminders.contains("overdue since Thu 2026-11-19  [Reminders]"), "\(reminders)")
    }
}
