import ChimeCore
import ChimeStore
import Foundation
import Testing
@testable import ChimeFormat

/// The `chime alarms` writer in process, beside the process tests: each firing's line with the
/// start it is for, its state in the ledger and the armed location alarms; and the JSON objects.
@Suite("Alarms writer, in process")
struct AlarmsWriterTests {
    static let berlin = try! ZoneRules.named("Europe/Berlin")

    /// Monday 2026-11-23 00:00 to Wednesday 2026-11-25 00:00, Berlin.
    static let from = berlin.instant(for: LocalDateTime(year: 2026, month: 11, day: 23))
    static let to = berlin.instant(for: LocalDateTime(year: 2026, month: 11, day: 25))

    func at(_ d: Int, _ h: Int, _ m: Int = 0) -> CalendarDate {
        .zoned(LocalDateTime(year: 2026, month: 11, day: d, hour: h, minute: m), Self.berlin)
    }

    /// The items saved in a fresh store, their firings in the window (sorted as `chime alarms`
    /// sorts them), the ledger's states and the armed location alarms, written as text or JSON.
    /// `deliver` names the titles whose firings are claimed as delivered first.
    func written(_ items: [AnyCalendarItem], deliver: Set<String> = [], json: Bool = false) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chime-alarms-writer-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = try EventStore(path: folder + "/chime.sqlite", floatingZone: Self.berlin)
        let events = try store.defaultCalendarForNewEvents(), lists = try store.defaultCalendarForNewReminders()
        for item in items {
            switch item {
            case .event(var e): e.calendarIdentifier = events.identifier; try store.save(e)
            case .reminder(var r): r.calendarIdentifier = lists.identifier; try store.save(r)
            }
        }
        let sources = try store.alarmSources(from: Self.from)
        let firings = AlarmAgenda.firings(of: sources.map { ($0.item, $0.replaced) }, zone: Self.berlin, from: Self.from, to: Self.to)
            .sorted { ($0.fireAt, $0.item.title, $0.key) < ($1.fireAt, $1.item.title, $1.key) }
        _ = try store.ledger.claimDeliveries(firings.filter { deliver.contains($0.item.title) }, checkedUntil: nil, deliveredAtMilliseconds: 0)
        let states = try store.ledger.entries(for: firings.map(\.key))
        let armed = try store.locationAlarmSources(from: Self.from)
        Style.use(.never)
        var out = OutputBuffer()
        let writer = AlarmsWriter(zone: Self.berlin)
        if json {
            writer.json(firings, states: states, armed: armed, to: &out)
        } else {
            writer.text(firings, states: states, armed: armed, from: Self.from, to: Self.to, into: &out)
        }
        return out.pendingText.replacingOccurrences(of: "[0-9A-F]{8}(-[0-9A-F-]{27})?", with: "ID", options: .regularExpression)
    }

    func milkRun() -> Reminder {
        var milk = Reminder(title: "Buy milk")
        milk.alarms = [.location(StructuredLocation(title: "Shop", latitude: 52.5, longitude: 13.4), .enter)]
        return milk
    }

    @Test func eachFiringIsOneLineUnderItsDayWithTheStartItIsForItsStateAndTheArmedPlacesAfter() throws {
        var late = Event(title: "Late show", start: at(24, 0, 15), duration: 45 * 60)
        late.alarms = [.relative(-30 * 60)]
        var review = Event(title: "Review", start: at(23, 16), duration: 3600)
        review.alarms = [
            .absolute(Self.berlin.instant(for: LocalDateTime(year: 2026, month: 11, day: 23, hour: 14, minute: 0, second: 30))),
            .relative(-10 * 60)
        ]
        let text = try written([.event(late), .event(review), .reminder(milkRun())], deliver: ["Review"])
        #expect(
            text == """
                Alarms Mon 2026-11-23 00:00 – Wed 2026-11-25 00:00 (Europe/Berlin): 3
                Mon 2026-11-23
                  14:00:30  Review  absolute alarm  (delivered)  ID
                  15:50  Review  10 min before 16:00  (delivered)  ID
                  23:45  Late show  30 min before Tue 2026-11-24 00:15  ID
                Armed location alarms (fire on crossing the place, not at a time): 1
                  Buy milk  on arriving at Shop (52.5,13.4, default radius)  ID

                """)
    }

    @Test func aTitleWithControlCharactersStaysOnItsOwnLine() throws {
        var forged = Event(title: "Lunch\n09:00  Fake\u{1b}[2J", start: at(23, 12), duration: 3600)
        forged.alarms = [.relative(0)]
        let text = try written([.event(forged)])
        #expect(
            text == """
                Alarms Mon 2026-11-23 00:00 – Wed 2026-11-25 00:00 (Europe/Berlin): 1
                Mon 2026-11-23
                  12:00  Lunch 09:00  Fake[2J  at 12:00  ID

                """)
    }

    @Test func jsonGivesEachFiringItsInstantsAlarmAndStateAndEachArmedPlace() throws {
        var late = Event(title: "Late show", start: at(24, 0, 15), duration: 45 * 60)
        late.alarms = [.relative(-30 * 60)]
        let text = try written([.event(late), .reminder(milkRun())], deliver: ["Late show"], json: true)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(document["chime_json"] as? Int == 1)
        let objects = try #require(document["alarms"] as? [[String: Any]])
        let armed = try #require(document["armed"] as? [[String: Any]])
        #expect(objects.count == 1 && armed.count == 1)
        let firing = objects[0]
        #expect(firing["fire"] as? String == "2026-11-23T22:45:00Z")
        #expect(firing["ref"] as? String == firing["id"] as? String, "a single event is named by its ID alone")
        #expect(firing["title"] as? String == "Late show")
        #expect(firing["kind"] as? String == "event")
        #expect(firing["occurrence"] as? String == "2026-11-23T23:15:00Z")
        #expect(firing["state"] as? String == "delivered")
        let alarm = try #require(firing["alarm"] as? [String: Any])
        #expect(alarm["type"] as? String == "relative" && alarm["offset_seconds"] as? Int == -1800 && alarm["related_to"] as? String == "start")
        let place = armed[0]
        #expect(place["title"] as? String == "Buy milk" && place["kind"] as? String == "reminder")
        let location = try #require(place["alarm"] as? [String: Any])
        #expect(location["type"] as? String == "location" && location["title"] as? String == "Shop" && location["proximity"] as? String == "enter")
    }
}
