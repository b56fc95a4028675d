import Testing

@testable import ChimeCore

@Suite("Values as a store reads them")
struct StoredValueTests {
    /// Every form the store writes, the forms only the general reading takes, and damaged texts.
    static let texts = [
        "20261224", "20261201T090000", "20261201T090000Z", "20261201T090000;Europe/Berlin",
        "20260329T023000;Europe/Berlin", "20261201T090000;America/New_York", "20261201T090000;UTC",
        "20261201T090000;POSIX:CET-1CEST,M3.5.0,M10.5.0/3", "20261201T090000;Not/AZone", "20261201T090000;",
        "2026120", "20261301", "20261201T250000", "20261201T090000;Europe/Berlin;x", "", "not a date"
    ]

    /// The bytes reading a query uses says what the text reading says, for every text, and a
    /// name met again is found among those read before.
    @Test func theBytesReadingAgreesWithTheTextReading() {
        var zones = ZoneNames()
        for round in 0..<2 {
            for text in Self.texts {
                let fromBytes = Array(text.utf8).withUnsafeBufferPointer { CalendarDate(storageBytes: $0, zones: &zones) }
                #expect(fromBytes == CalendarDate(storageText: text), "\(text), round \(round)")
            }
        }
    }

    /// The stored text of each kind of date, written with its `Z` or zone in one string, reads
    /// back as the same date; years outside 0…9999 take the slow path and say the same.
    @Test func storedTextsAreMadeInOnePieceAndReadBack() throws {
        let berlin = try ZoneRules.named("Europe/Berlin")
        let at = LocalDateTime(year: 2026, month: 12, day: 1, hour: 9, minute: 5, second: 7)
        #expect(CalendarDate.utc(at).storageText == "20261201T090507Z")
        #expect(CalendarDate.zoned(at, berlin).storageText == "20261201T090507;Europe/Berlin")
        #expect(CalendarDate.floating(at).storageText == "20261201T090507")
        #expect(Instant(secondsSince1970: 0).utcBasicFormat == "19700101T000000Z")
        let far = LocalDateTime(year: 12_026, month: 1, day: 2, hour: 3, minute: 4, second: 5)
        #expect(CalendarDate.utc(far).storageText == far.basicFormat + "Z")
        #expect(CalendarDate.zoned(far, berlin).storageText == far.basicFormat + ";Europe/Berlin")
        for date in [CalendarDate.utc(at), .zoned(at, berlin), .floating(at), .allDay(at.date)] {
            #expect(CalendarDate(storageText: date.storageText) == date)
        }
    }

    @Test func zoneNamesGiveTheNamedZoneAndNothingForAnUnknownName() throws {
        var zones = ZoneNames()
        let berlin = Array("Europe/Berlin".utf8).withUnsafeBufferPointer { zones.named($0) }
        #expect(berlin?.identifier == "Europe/Berlin")
        let again = Array("Europe/Berlin".utf8).withUnsafeBufferPointer { zones.named($0) }
        #expect(again?.identifier == "Europe/Berlin")
        // Same length, other bytes: not the kept zone.
        let other = Array("Europe/Zurich".utf8).withUnsafeBufferPointer { zones.named($0) }
        #expect(other?.identifier == "Europe/Zurich")
        #expect(Array("Nowhere/Atall".utf8).withUnsafeBufferPointer { zones.named($0) } == nil)
    }

    /// An event built from all its fields at once is the event built field by field: equal,
    /// hashed alike, and changing a copy leaves the other as it was.
    @Test func anEventFromItsStoredFieldsIsTheEventBuiltFieldByField() throws {
        let berlin = try ZoneRules.named("Europe/Berlin")
        let start = CalendarDate.zoned(LocalDateTime(year: 2026, month: 12, day: 1, hour: 9), berlin)
        let end = CalendarDate.zoned(LocalDateTime(year: 2026, month: 12, day: 1, hour: 10), berlin)
        var byField = Event(identifier: "A1", title: "Stand-up", calendar: "work", start: start, end: end)
        byField.externalIdentifier = "uid-1"
        byField.notes = "notes"
        byField.url = "https://example.org"
        byField.location = "Room 2"
        byField.alarms = [.relative(-300)]
        byField.recurrenceRules = [try RecurrenceRule(parsing: "FREQ=WEEKLY;BYDAY=MO")]
        byField.exceptionDates = [.date(CivilDate(year: 2026, month: 12, day: 7))]
        byField.creationDate = Instant(secondsSince1970: 1_700_000_000)
        byField.sequence = 3
        byField.icsExtras = ["X-A:1"]
        let fields = Event.StoredFields(
            identifier: "A1", calendarIdentifier: "work", externalIdentifier: "uid-1", title: "Stand-up", notes: "notes",
            url: "https://example.org", location: "Room 2", alarms: [.relative(-300)],
            recurrenceRules: [try RecurrenceRule(parsing: "FREQ=WEEKLY;BYDAY=MO")], recurrenceDates: [],
            exceptionDates: [.date(CivilDate(year: 2026, month: 12, day: 7))],
            creationDate: Instant(secondsSince1970: 1_700_000_000), lastModifiedDate: nil, sequence: 3, icsExtras: ["X-A:1"])
        let stored = Event(stored: fields, start: start, end: end, occurrenceDate: nil, isDetached: false)
        #expect(stored == byField)
        #expect(stored.hashValue == byField.hashValue)
        var changed = stored
        changed.title = "Retro"
        #expect(stored.title == "Stand-up" && changed.title == "Retro" && changed != stored)
    }
}
