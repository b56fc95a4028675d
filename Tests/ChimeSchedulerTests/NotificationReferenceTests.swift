import ChimeCore
import Foundation
import Testing
@testable import ChimeScheduler

/// What the daemon prints names each firing by the reference `chime show` takes (ReferenceText),
/// not by the ledger key: `ID@UTC-start` for an occurrence of a timed series, `ID@DATE` for an
/// all-day one (the same date under any zone), the ID alone for a reminder or a single event.
@Suite("Notifications carry the reference chime show takes")
struct NotificationReferenceTests {
    let berlin = try! ZoneRules.named("Europe/Berlin")

    func firing(_ item: ItemSummary, occurrence: Instant, alarm: String = "-300") -> AlarmFiring {
        AlarmFiring(
            key: FiringKey(item: item.identifier, occurrence: occurrence, alarm: alarm), fireAt: occurrence.adding(-300),
            alarm: .relative(-300), item: item, occurrenceStart: occurrence, occurrenceEnd: occurrence.adding(900))
    }

    func series(_ id: String, allDay: Bool = false) -> ItemSummary {
        var item = ItemSummary(identifier: id, kind: .event, title: "Stand-up", isAllDay: allDay)
        item.isRecurring = true
        return item
    }

    @Test func eachKindOfFiringIsNamedAsTheCommandsNameIt() throws {
        let timed = firing(series("AAAA"), occurrence: Instant(utc: LocalDateTime(year: 2026, month: 12, day: 3, hour: 8)))
        // An all-day occurrence is stored at local midnight: 2026-11-25T23:00Z in Berlin is the 26th.
        let allDay = firing(series("BBBB", allDay: true), occurrence: Instant(utc: LocalDateTime(year: 2026, month: 11, day: 25, hour: 23)))
        let reminder = firing(
            ItemSummary(identifier: "CCCC", kind: .reminder, title: "Stretch"),
            occurrence: Instant(utc: LocalDateTime(year: 2026, month: 11, day: 26, hour: 9)), alarm: "0")
        let refs = [timed, allDay, reminder].map { NotificationText.notification(for: $0, zone: berlin, snoozeChoices: []).references }
        #expect(refs == [["AAAA@20261203T080000Z"], ["BBBB@20261126"], ["CCCC"]])
        #expect(NotificationText.missedSummary([timed, reminder], zone: berlin).references == ["AAAA@20261203T080000Z", "CCCC"])
    }

    @Test func theStdoutLineIsAVersionedDocumentWithTheReferenceBesideTheKey() throws {
        let timed = firing(series("AAAA"), occurrence: Instant(utc: LocalDateTime(year: 2026, month: 12, day: 3, hour: 8)))
        let note = NotificationText.notification(for: timed, zone: berlin, snoozeChoices: [])
        let line = StdoutSink.line(note, deliveredAtMilliseconds: note.fireAt.secondsSince1970 * 1000 + 3)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(line.hasPrefix(#"{"chime_json":1,"#))
        #expect(object["ref"] as? String == "AAAA@20261203T080000Z")
        #expect(object["key"] as? String == "AAAA@20261203T080000Z#-300")
        let missed = NotificationText.missedSummary([timed, timed], zone: berlin)
        let missedObject = try #require(
            try JSONSerialization.jsonObject(with: Data(StdoutSink.line(missed, deliveredAtMilliseconds: 0).utf8)) as? [String: Any])
        #expect(missedObject["refs"] as? [String] == ["AAAA@20261203T080000Z", "AAAA@20261203T080000Z"])
    }
}
