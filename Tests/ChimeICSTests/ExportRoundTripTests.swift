import ChimeCore
import ChimeICS
import ChimeStore
import Foundation
import Testing

/// `chime export` never writes something Chime itself refuses, and keeps what it does not model.
@Suite struct ExportRoundTripTests {
    static let window = (
        Instant(secondsSince1970: LocalDateTime(year: 2026, month: 11, day: 1).localSeconds),
        Instant(secondsSince1970: LocalDateTime(year: 2027, month: 1, day: 1).localSeconds)
    )

    func agenda(_ t: TemporaryStore) throws -> [String] {
        try t.store.events(matching: t.store.predicateForEvents(start: Self.window.0, end: Self.window.1))
            .map { "\($0.start.storageText) \($0.end.storageText) \($0.title)" }
    }

    @Test func aTimedOccurrenceMadeAllDayIsExportedWithADateTimeRecurrenceID() throws {
        let t = try TemporaryStore()
        let berlin = try ZoneRules.named("Europe/Berlin")
        var series = Event(
            title: "Stand-up", calendar: try t.store.defaultCalendarForNewEvents().identifier,
            start: .zoned(LocalDateTime(year: 2026, month: 12, day: 1, hour: 9), berlin), duration: 900)
        series.recurrenceRules = [try RecurrenceRule(parsing: "FREQ=DAILY;COUNT=5")]
        series = try t.store.save(series)
        var third = try #require(
            t.store.events(matching: t.store.predicateForEvents(start: Self.window.0, end: Self.window.1))
                .first { $0.start.local.date.day == 3 })
        third.start = .allDay(CivilDate(year: 2026, month: 12, day: 3))
        third.end = .allDay(CivilDate(year: 2026, month: 12, day: 4))
        try t.store.save(third, span: .thisEvent)

        let exported = String(decoding: ICalendar.serialize(try t.store.allItems(in: nil), now: Self.window.0, floatingZone: .utc), as: UTF8.self)
        #expect(exported.contains("RECURRENCE-ID;TZID=Europe/Berlin:20261203T090000"))
        #expect(!exported.contains("RECURRENCE-ID;VALUE=DATE"))
        let again = try TemporaryStore()
        let report = try again.store.importICS(Array(exported.utf8), file: "export.ics", strict: true)
        #expect(report.overrides == 1)
        #expect(try agenda(again) == agenda(t))
    }

    @Test func applesPlaceholderAlarmIsKeptAndWrittenBackButNeverFires() throws {
        let file = """
            BEGIN:VCALENDAR\r
            VERSION:2.0\r
            PRODID:-//Apple Inc.//macOS 15.1//EN\r
            BEGIN:VEVENT\r
            UID:6C1F6E2A-1111-4D7B-9A0E-3B2E5D7C9F01\r
            DTSTAMP:20261120T100000Z\r
            DTSTART;TZID=Europe/Berlin:20261201T100000\r
            DTEND;TZID=Europe/Berlin:20261201T110000\r
            SUMMARY:Haircut\r
            BEGIN:VALARM\r
            X-WR-ALARMUID:0F4A4E9C-2222-4B6E-8C1D-7A5B3C2D1E0F\r
            UID:0F4A4E9C-2222-4B6E-8C1D-7A5B3C2D1E0F\r
            TRIGGER;VALUE=DATE-TIME:19760401T005545Z\r
            ACTION:NONE\r
            END:VALARM\r
            END:VEVENT\r
            END:VCALENDAR\r

            """
        let t = try TemporaryStore()
        let report = try t.store.importICS(Array(file.utf8), file: "apple.ics", strict: true)
        #expect(report.alarms == 0)
        let event = try #require(t.store.allItems(in: nil).first)
        #expect(event.alarms.isEmpty)
        let exported = String(decoding: ICalendar.serialize(try t.store.allItems(in: nil), now: Self.window.0, floatingZone: .utc), as: UTF8.self)
        #expect(exported.contains("BEGIN:VALARM\r\nX-WR-ALARMUID:0F4A4E9C-2222-4B6E-8C1D-7A5B3C2D1E0F\r\n"))
        #expect(exported.contains("ACTION:NONE\r\nEND:VALARM"))
    }

    static func file(alarms: String) -> String {
        """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//Example Corp.//CalDAV Client//EN\r
        BEGIN:VEVENT\r
        UID:9A8B7C6D-3333-4E2F-8A1B-0C9D8E7F6A5B\r
        DTSTAMP:20261120T100000Z\r
        DTSTART:20261201T090000Z\r
        DTEND:20261201T100000Z\r
        SUMMARY:Board meeting\r
        \(alarms)END:VEVENT\r
        END:VCALENDAR\r

        """
    }

    /// RFC 5545 §3.6.6's EMAIL alarm: Chime sends no mail, so it never becomes a desktop alarm, and
    /// it is written back exactly as read (attendees, summary, description, trigger).
    @Test func anEmailAlarmIsKeptVerbatimAndWrittenBackButNeverAnAlarm() throws {
        let email = """
            BEGIN:VALARM\r
            ACTION:EMAIL\r
            TRIGGER;RELATED=END:-P2D\r
            DESCRIPTION:A draft agenda needs to be sent out to the attendees\r
            SUMMARY:*** REMINDER: SEND AGENDA FOR WEEKLY STAFF MEETING ***\r
            ATTENDEE:mailto:john_doe@example.com\r
            END:VALARM\r

            """
        let display = "BEGIN:VALARM\r\nACTION:DISPLAY\r\nTRIGGER:-PT15M\r\nDESCRIPTION:Board\r\nEND:VALARM\r\n"
        let t = try TemporaryStore()
        let report = try t.store.importICS(Array(Self.file(alarms: email + display).utf8), file: "email.ics", strict: true)
        #expect(report.alarms == 1)
        let event = try #require(t.store.allItems(in: nil).first)
        #expect(event.alarms.map(\.trigger) == [.relative(offset: -900, relatedTo: .start)])
        #expect(event.alarms.first?.asksForSound == false)
        #expect(Alarm.emailAlarmCount(inItemExtras: event.icsExtras) == 1)
        let exported = String(decoding: ICalendar.serialize(try t.store.allItems(in: nil), now: Self.window.0, floatingZone: .utc), as: UTF8.self)
        #expect(exported.contains(email))
        #expect(exported.components(separatedBy: "BEGIN:VALARM").count - 1 == 2)

        // Read back: the same one alarm, the same kept EMAIL alarm, the same export.
        let again = try TemporaryStore()
        #expect(try again.store.importICS(Array(exported.utf8), file: "export.ics", strict: true).alarms == 1)
        let reread = try #require(again.store.allItems(in: nil).first)
        #expect(reread.alarms == event.alarms)
        #expect(reread.icsExtras == event.icsExtras)
        let reexported = String(decoding: ICalendar.serialize(try again.store.allItems(in: nil), now: Self.window.0, floatingZone: .utc), as: UTF8.self)
        #expect(reexported == exported)
    }

    /// Fixtures/command-alarms.ics: RFC 2445's PROCEDURE alarm (a command, `file:///bin/rm`) and an
    /// action no one defines (X-SPEAK) next to a DISPLAY one. Only the DISPLAY one becomes an alarm;
    /// the other two are kept as written (and written back), each with one warning on its ACTION
    /// line; reading strictly refuses the file at the first of them.
    @Test func commandAndUnknownAlarmsFromAFileAreKeptNeverAlarmsAndWarnedOnce() throws {
        let bytes = try Fixture.bytes("command-alarms.ics")
        let t = try TemporaryStore()
        let report = try t.store.importICS(bytes, file: "command-alarms.ics")
        #expect(report.alarms == 1)
        #expect(
            report.repairs.map(\.description) == [
                "command-alarms.ics:11: ACTION: PROCEDURE is a command alarm: command alarms from files are never run or shown (kept with the item as written)",
                "command-alarms.ics:17: ACTION: X-SPEAK is not an alarm action Chime knows (DISPLAY, AUDIO, EMAIL): never shown (kept with the item as written)"
            ])
        let event = try #require(t.store.allItems(in: nil).first)
        #expect(event.alarms.map(\.trigger) == [.relative(offset: -900, relatedTo: .start)])
        #expect(Alarm.keptActions(inItemExtras: event.icsExtras) == ["PROCEDURE", "X-SPEAK"])
        #expect(Alarm.emailAlarmCount(inItemExtras: event.icsExtras) == 0)
        let exported = String(decoding: ICalendar.serialize(try t.store.allItems(in: nil), now: Self.window.0, floatingZone: .utc), as: UTF8.self)
        #expect(
            exported.contains(
                "BEGIN:VALARM\r\nACTION:PROCEDURE\r\nTRIGGER:-PT5M\r\nATTACH;FMTTYPE=application/binary:file:///bin/rm\r\nDESCRIPTION:-rf /\r\nEND:VALARM\r\n"),
            "\(exported)")
        #expect(exported.contains("BEGIN:VALARM\r\nACTION:X-SPEAK\r\nTRIGGER:-PT10M\r\n"))

        #expect(throws: ICSError.self) { try ICalendar.parse(bytes, file: "command-alarms.ics", strict: true) }
        // Read back: still one alarm, the same kept VALARMs.
        let again = try TemporaryStore()
        #expect(try again.store.importICS(Array(exported.utf8), file: "export.ics").alarms == 1)
        #expect(try again.store.allItems(in: nil).first?.icsExtras == event.icsExtras)
    }

    /// An AUDIO alarm is an alarm that asks for a sound; its ACTION (and ATTACH) are written back,
    /// not replaced by ACTION:DISPLAY.
    @Test func anAudioAlarmAsksForSoundAndIsWrittenBackAsAudio() throws {
        let audio = "BEGIN:VALARM\r\nTRIGGER:-PT5M\r\nACTION:AUDIO\r\nATTACH;FMTTYPE=audio/basic:ftp://example.com/pub/sounds/bell-01.aud\r\nEND:VALARM\r\n"
        let t = try TemporaryStore()
        #expect(try t.store.importICS(Array(Self.file(alarms: audio).utf8), file: "audio.ics", strict: true).alarms == 1)
        let alarm = try #require(t.store.allItems(in: nil).first?.alarms.first)
        #expect(alarm.trigger == .relative(offset: -300, relatedTo: .start))
        #expect(alarm.asksForSound)
        let exported = String(decoding: ICalendar.serialize(try t.store.allItems(in: nil), now: Self.window.0, floatingZone: .utc), as: UTF8.self)
        #expect(exported.contains("ACTION:AUDIO\r\n"))
        #expect(exported.contains("ATTACH;FMTTYPE=audio/basic:ftp://example.com/pub/sounds/bell-01.aud\r\n"))
        #expect(!exported.contains("ACTION:DISPLAY"))
        #expect(exported.contains("TRIGGER:-PT5M\r\n"))
    }

    @Test func calendarLevelPropertiesAreKeptPerCalendarAndWrittenBack() throws {
        let file = """
            BEGIN:VCALENDAR\r
            PRODID:-//Google Inc//Google Calendar 70.9054//EN\r
            VERSION:2.0\r
            CALSCALE:GREGORIAN\r
            METHOD:PUBLISH\r
            X-WR-CALNAME:Team\r
            X-WR-TIMEZONE:Europe/Berlin\r
            X-WR-CALDESC:Releases\\, on-call and the team lunch\r
            X-APPLE-CALENDAR-COLOR:#1BADF8\r
            BEGIN:VEVENT\r
            DTSTART:20261202T090000Z\r
            DTEND:20261202T093000Z\r
            UID:team-1@google.com\r
            SUMMARY:Release\r
            END:VEVENT\r
            END:VCALENDAR\r

            """
        let kept = ["X-WR-TIMEZONE:Europe/Berlin", "X-WR-CALDESC:Releases\\, on-call and the team lunch", "X-APPLE-CALENDAR-COLOR:#1BADF8"]
        let t = try TemporaryStore()
        _ = try t.store.importICS(Array(file.utf8), file: "team.ics", into: .new("Team"), strict: true)
        let team = try #require(try t.store.calendar(named: "Team", for: .event))
        #expect(team.icsExtras == kept)
        let exported = ICalendar.serialize(
            try t.store.allItems(in: [team]), calendarName: team.title, calendarProperties: team.icsExtras,
            now: Self.window.0, floatingZone: .utc)
        let text = String(decoding: exported, as: UTF8.self)
        #expect(text.contains("X-WR-CALNAME:Team\r\n" + kept.joined(separator: "\r\n") + "\r\n"))
        let again = try TemporaryStore()
        _ = try again.store.importICS(exported, file: "exported.ics", into: .new("Team"), strict: true)
        #expect(try again.store.calendar(named: "Team", for: .event)?.icsExtras == kept)
    }

    /// Two instances of one series, the series not in the file (khal's corpus file): one item, a
    /// stand-in series holding both instances, and an export that writes the two instances only.
    @Test func instancesWithoutTheirSeriesAreOneItemAndExportedAsTheyCame() throws {
        let path = Wild.corpus.appendingPathComponent("khal/event_dt_multi_recuid_no_master.ics").path
        let t = try TemporaryStore()
        let report = try t.store.importICS(Array(try Data(contentsOf: URL(fileURLWithPath: path))), file: "no-master.ics")
        #expect(
            report.repairs.map(\.description) == [
                "no-master.ics:11: RECURRENCE-ID: no series with UID abe304dc-f7b1-4f2b-997d-5c8bcfaa7e0b in the file: its 2 occurrences are kept as one item"
            ])
        let items = try t.store.allItems(in: nil)
        let series = items.filter { if case .event(let e) = $0 { !e.isDetached } else { false } }
        #expect(series.count == 1 && items.count == 3)
        let exported = String(decoding: ICalendar.serialize(items, now: Self.window.0, floatingZone: .utc), as: UTF8.self)
        #expect(exported.components(separatedBy: "BEGIN:VEVENT").count - 1 == 2)
        #expect(exported.components(separatedBy: "RECURRENCE-ID:").count - 1 == 2)
        #expect(exported.contains("RECURRENCE-ID:20140707T053000\r\n") && exported.contains("RECURRENCE-ID:20140714T053000\r\n"))
        #expect(!exported.contains("X-MOZ-FAKED-MASTER"))
        let from = Instant(secondsSince1970: LocalDateTime(year: 2014, month: 6, day: 1).localSeconds)
        let to = Instant(secondsSince1970: LocalDateTime(year: 2014, month: 8, day: 1).localSeconds)
        let starts = try t.store.events(matching: t.store.predicateForEvents(start: from, end: to)).map(\.start.storageText)
        #expect(starts == ["20140630T073000", "20140707T083000"])
    }

    /// After a RANGE=THISANDFUTURE split, an override of the new part is written under the new
    /// part's UID: the export never names an instance of one series under another's UID.
    @Test func anOverrideAfterASplitIsExportedUnderTheSplitSeriesUID() throws {
        let t = try TemporaryStore()
        _ = try t.store.importICS(try Wild.bytes("lotus-notes-thisandfuture.ics"), file: "lotus.ics")
        let items = try t.store.allItems(in: nil)
        let detached = items.compactMap { if case .event(let e) = $0, e.isDetached { e } else { nil } }
        let seriesUIDs = Dictionary(
            items.compactMap { if case .event(let e) = $0, !e.isDetached { (e.identifier, e.externalIdentifier) } else { nil } },
            uniquingKeysWith: { a, _ in a })
        #expect(!detached.isEmpty)
        for d in detached { #expect(d.externalIdentifier == seriesUIDs[d.identifier], "\(d.title)") }
    }

    /// Every client fixture: import → export → import gives the same agenda.
    @Test(arguments: Fixture.all) func aSelfRoundTripKeepsTheAgenda(_ name: String) throws {
        let first = try TemporaryStore()
        _ = try first.store.importICS(try Fixture.bytes(name), file: name)
        let exported = ICalendar.serialize(try first.store.allItems(in: nil), now: Self.window.0, floatingZone: .utc)
        let second = try TemporaryStore()
        _ = try second.store.importICS(exported, file: "exported-" + name, strict: true)
        #expect(try agenda(second) == agenda(first))
    }
}

/// Every file the tests hold — the client fixtures, the wild fixtures and the corpus of other
/// projects' calendars: import → export → import needs no repair the file did not need, and gives the same occurrences (start, end,
/// title) over 2000–2030, and exporting the second store writes the same file again.
@Suite struct EveryFileRoundTripTests {
    static let files: [String] = {
        func list(_ root: URL) -> [String] {
            ((FileManager.default.enumerator(atPath: root.path)?.allObjects as? [String]) ?? [])
                .filter { $0.hasSuffix(".ics") }.sorted().map { root.appendingPathComponent($0).path }
        }
        return list(Fixture.folder) + list(Wild.corpus)
    }()

    static func name(_ path: String) -> String { URL(fileURLWithPath: path).lastPathComponent }

    @Test func thereAreFilesToRoundTrip() { #expect(Self.files.count >= 70) }

    @Test(arguments: files) func importExportImportKeepsEveryOccurrence(_ path: String) throws {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let (from, to) = ("2000-01-01T00:00:00Z", "2030-01-01T00:00:00Z")
        let first: Wild.Imported
        do { first = try Wild.importAndList(bytes, file: Self.name(path), from: from, to: to) } catch { return }  // refusals are CorpusTests' concern
        let exported = ICalendar.serialize(try first.store.store.allItems(in: nil), now: ExportRoundTripTests.window.0, floatingZone: .utc)
        // The export adds no fault of its own. What it writes back as it came (command alarms,
        // instances whose series the file lacked) is reported again, as on the first read.
        let second = try TemporaryStore()
        let report = try second.store.importICS(exported, file: "exported-" + Self.name(path))
        func messages(_ faults: [ICSError]) -> Set<String> { Set(faults.map { "\($0.property ?? ""): \($0.message)" }) }
        let added = messages(report.repairs).subtracting(messages(first.report.repairs))
        #expect(added.isEmpty && report.skipped.isEmpty, "\(Self.name(path)): Chime repairs its own export: \(added) \(report.skipped)")
        let (start, end) = (Wild.instant(from), Wild.instant(to))
        let spans = try second.store.events(matching: second.store.predicateForEvents(start: start, end: end))
            .filter { $0.start.instant(floatingZone: .utc) >= start }
            .map { "\($0.start.instant(floatingZone: .utc))/\($0.end.instant(floatingZone: .utc))\t\($0.title)" }.sorted()
        #expect(spans == first.spans, "\(Self.name(path)): the round trip changed the occurrences")
        let again = ICalendar.serialize(try second.store.allItems(in: nil), now: ExportRoundTripTests.window.0, floatingZone: .utc)
        #expect(
            String(decoding: again, as: UTF8.self) == String(decoding: exported, as: UTF8.self), "\(Self.name(path)): a second export differs from the first")
    }
}
