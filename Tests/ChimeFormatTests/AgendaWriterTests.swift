import ChimeCore
import ChimeStore
import Foundation
import Testing
@testable import ChimeFormat

/// The agenda's writer in process, beside the process tests: the lines for days an event covers,
/// in the order a person reads them, from the light occurrence stream.
@Suite("Agenda writer, in process")
struct AgendaWriterTests {
    static let berlin = try! ZoneRules.named("Europe/Berlin")

    func lines(_ events: [Event], from: LocalDateTime, days: Int, json: Bool = false) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chime-writer-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = try EventStore(path: folder + "/chime.sqlite", floatingZone: Self.berlin)
        let calendar = try store.defaultCalendarForNewEvents()
        for var e in events {
            e.calendarIdentifier = calendar.identifier
            try store.save(e)
        }
        let start = Self.berlin.instant(for: from)
        let end = Self.berlin.instant(for: LocalDateTime(date: from.date.adding(days: days)))
        var writer = AgendaWriter(zone: Self.berlin, json: json, titles: [calendar.identifier: "Home"], window: (start, end))
        var out = OutputBuffer()
        var predicate = store.predicateForEvents(start: start, end: end)
        predicate.includesAlarms = false
        try store.enumerateOccurrences(matching: predicate) { o, _ in writer.write(o, to: &out) }
        writer.finish(&out)
        return out.pendingText.replacingOccurrences(of: "[0-9A-F]{8}(-[0-9A-F-]{27})?", with: "ID", options: .regularExpression)
    }

    func at(_ d: Int, _ h: Int, _ m: Int = 0) -> CalendarDate {
        .zoned(LocalDateTime(year: 2026, month: 11, day: d, hour: h, minute: m), Self.berlin)
    }

    @Test func aTimedEventOverThreeDaysShowsItsStartItsMiddleAndItsEnd() throws {
        let conference = Event(title: "Conference", start: at(23, 9), end: at(25, 17))
        let lunch = Event(title: "Lunch", start: at(24, 12), end: at(24, 13))
        let text = try lines([conference, lunch], from: LocalDateTime(year: 2026, month: 11, day: 23), days: 3)
        #expect(
            text == """
                Mon 2026-11-23
                  09:00 →      Conference (day 1/3)  [Home]  ID

                Tue 2026-11-24
                  all day      Conference (day 2/3)  [Home]  ID
                  12:00-13:00  Lunch  [Home]  ID

                Wed 2026-11-25
                  → 17:00      Conference (day 3/3)  [Home]  ID

                """)
    }

    @Test func aWindowStartingMidEventShowsOnlyItsOwnDays() throws {
        let trip = Event(
            title: "Trip", start: .allDay(CivilDate(year: 2026, month: 11, day: 22)),
            end: .allDay(CivilDate(year: 2026, month: 11, day: 26)))
        let text = try lines([trip], from: LocalDateTime(year: 2026, month: 11, day: 24), days: 1)
        #expect(text == "Tue 2026-11-24\n  all day      Trip (day 3/4)  [Home]  ID\n")
        let json = try lines([trip], from: LocalDateTime(year: 2026, month: 11, day: 24), days: 5, json: true)
        #expect(json.contains(#""days":["2026-11-24","2026-11-25"]"#), "\(json)")
    }

    @Test func aTimedEventEndingAtMidnightDoesNotReachTheNextDay() throws {
        let late = Event(title: "Late", start: at(23, 22), end: at(24, 0))
        let text = try lines([late], from: LocalDateTime(year: 2026, month: 11, day: 23), days: 2)
        #expect(text == "Mon 2026-11-23\n  22:00-00:00  Late  [Home]  ID\n")
    }
}
