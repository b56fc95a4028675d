import ChimeCore
import ChimeICS
import Testing

/// Parameters the model has no place for, on the texts it reads (Outlook's `LANGUAGE`, an
/// `ALTREP`), are written back as they came while the value is unchanged, and not after an edit.
/// Evolution's `X-EVOLUTION-ENDDATE` on RRULE is not kept: it caches the series' end, which a
/// moved start makes false.
struct KeptParameterTests {
    static let file = [
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Ximian//NONSGML Evolution Calendar//EN",
        "BEGIN:VEVENT", "UID:evo-1@laptop", "DTSTAMP:20261201T101010Z",
        "DTSTART;TZID=Europe/Berlin:20261207T090000", "DTEND;TZID=Europe/Berlin:20261207T100000",
        "X-MICROSOFT-CDO-BUSYSTATUS:BUSY",
        "LOCATION;ALTREP=\"http://example.com/room;a=b\":Raum 4\\, 2. Stock",
        "SUMMARY;LANGUAGE=de:Besprechung",
        "RRULE;X-EVOLUTION-ENDDATE=20261228T080000Z:FREQ=WEEKLY;COUNT=4",
        "BEGIN:VALARM", "ACTION:EMAIL", "TRIGGER:-PT1H", "SUMMARY;LANGUAGE=de:Termin",
        "DESCRIPTION;LANGUAGE=de:Erinnerung", "ATTENDEE:mailto:a@example.com", "END:VALARM",
        "END:VEVENT",
        "BEGIN:VTODO", "UID:todo-1", "DTSTAMP:20261201T101010Z", "DUE:20261209T170000Z",
        "SUMMARY;LANGUAGE=en-US:Send the minutes", "DESCRIPTION;LANGUAGE=en-US:To everyone", "END:VTODO",
        "END:VCALENDAR", ""
    ].joined(separator: "\r\n")

    static func export(_ items: [AnyCalendarItem]) -> [String] {
        let text = String(decoding: ICalendar.serialize(items, now: Instant(secondsSince1970: 0), floatingZone: .utc), as: UTF8.self)
        return text.replacingOccurrences(of: "\r\n ", with: "").components(separatedBy: "\r\n")
    }

    static func extras(_ item: AnyCalendarItem) -> [String] {
        switch item {
        case .event(let e): e.icsExtras
        case .reminder(let r): r.icsExtras
        }
    }

    @Test func unchangedValuesKeepTheirParametersOnce() throws {
        let parsed = try ICalendar.parse(Array(Self.file.utf8), file: "evo.ics")
        let lines = Self.export(parsed.items.map(\.item))
        for kept in [
            "SUMMARY;LANGUAGE=de:Besprechung", "LOCATION;ALTREP=\"http://example.com/room;a=b\":Raum 4\\, 2. Stock",
            "RRULE:FREQ=WEEKLY;COUNT=4",
            "SUMMARY;LANGUAGE=en-US:Send the minutes", "DESCRIPTION;LANGUAGE=en-US:To everyone"
        ] {
            #expect(lines.filter { $0 == kept }.count == 1, "\(kept) in \(lines)")
        }
        // Chime's own line for each is not written beside the kept one.
        #expect(!lines.contains("SUMMARY:Besprechung") && !lines.contains { $0.hasPrefix("RRULE;X-EVOLUTION-ENDDATE") }, "\(lines)")
        #expect(lines.filter { $0.hasPrefix("SUMMARY") }.count == 3, "two items and the e-mail alarm: \(lines)")
        // The e-mail alarm, kept whole, keeps its own lines where they were.
        let alarm = try #require(lines.firstIndex(of: "ACTION:EMAIL"))
        #expect(Array(lines[alarm..<(alarm + 5)]).contains("DESCRIPTION;LANGUAGE=de:Erinnerung"), "\(lines)")
        // Read again, the items are the same, lines kept included: nothing moves on a round trip.
        let again = try ICalendar.parse(Array(lines.joined(separator: "\r\n").utf8), file: "again.ics")
        #expect(again.items.map { Self.extras($0.item) } == parsed.items.map { Self.extras($0.item) })
        #expect(again.items.map(\.item.title) == ["Besprechung", "Send the minutes"])
    }

    @Test func anEditedValueIsWrittenFreshWithoutTheOldParameters() throws {
        let parsed = try ICalendar.parse(Array(Self.file.utf8), file: "evo.ics")
        guard case .event(var e) = parsed.items[0].item, case .reminder(var r) = parsed.items[1].item else {
            Issue.record("expected an event and a to-do: \(parsed.items)")
            return
        }
        e.title = "Jour fixe"
        e.location = nil
        e.recurrenceRules = [try RecurrenceRule(parsing: "FREQ=WEEKLY;COUNT=6")]
        r.notes = nil
        let lines = Self.export([.event(e), .reminder(r)])
        #expect(lines.contains("SUMMARY:Jour fixe") && lines.contains("RRULE:FREQ=WEEKLY;COUNT=6"), "\(lines)")
        #expect(!lines.contains { $0 == "SUMMARY;LANGUAGE=de:Besprechung" || $0.hasPrefix("LOCATION") || $0.hasPrefix("RRULE;") }, "\(lines)")
        #expect(lines.contains("SUMMARY;LANGUAGE=en-US:Send the minutes") && !lines.contains { $0.hasPrefix("DESCRIPTION;LANGUAGE=en-US") })
        #expect(lines.contains("X-MICROSOFT-CDO-BUSYSTATUS:BUSY"), "other kept lines stay: \(lines)")
    }

    /// A line added after an item's kept components (an export's calendar name) is written
    /// before them: every property of a component comes before its subcomponents.
    @Test func propertiesComeBeforeTheComponentsKeptWhole() throws {
        let parsed = try ICalendar.parse(Array(Self.file.utf8), file: "evo.ics")
        guard case .event(var e) = parsed.items[0].item else {
            Issue.record("expected an event first: \(parsed.items)")
            return
        }
        e.icsExtras.append("X-CHIME-CALENDAR:Work")
        let lines = Self.export([.event(e)])
        let begin = try #require(lines.firstIndex(of: "BEGIN:VEVENT"))
        let end = try #require(lines.firstIndex(of: "END:VEVENT"))
        let event = Array(lines[begin...end])
        let firstAlarm = try #require(event.firstIndex(of: "BEGIN:VALARM"))
        let marker = try #require(event.firstIndex(of: "X-CHIME-CALENDAR:Work"))
        #expect(marker < firstAlarm, "\(event)")
        #expect(event[firstAlarm...].allSatisfy { !$0.hasPrefix("X-MICROSOFT") && !$0.hasPrefix("X-CHIME") }, "\(event)")
    }
}
