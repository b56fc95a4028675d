import ChimeCore
import ChimeICS
import ChimeStore
import Foundation
import Testing

/// `chime import` stores each item as it reads it (``EventStore/importICS(file:into:dryRun:strict:progress:open:)``):
/// the store ends as the whole-file import leaves it, with the same report, for every real file.
@Suite struct StreamedImportTests {
    /// What an import says and leaves: the report's counts and texts, then every item and calendar.
    static func outcome(_ t: TemporaryStore, _ run: () throws -> ImportReport) -> String {
        let report: String
        do {
            let r = try run()
            report =
                "\(r.eventsAdded) \(r.eventsUpdated) \(r.remindersAdded) \(r.remindersUpdated) \(r.unchanged) \(r.older) "
                + "\(r.overrides) \(r.cancelledOccurrences) \(r.alarms) \(r.locationAlarms)\n"
                + (r.repairs.map { "repair \($0)" } + r.skipped.map { "skipped \($0)" }).joined(separator: "\n")
        } catch {
            report = "error \(error)"
        }
        // A split series' new UID is made up anew by each import.
        let items = ((try? t.snapshot()) ?? ["unreadable store"]).map {
            $0.replacingOccurrences(of: #"[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}"#, with: "<new UID>", options: .regularExpression)
        }.sorted()
        let calendars = ((try? t.store.calendars(for: .event)) ?? []) + ((try? t.store.calendars(for: .reminder)) ?? [])
        return ([report] + items + calendars.map { "calendar \($0.entityType) \($0.title) \($0.icsExtras)" }.sorted()).joined(separator: "\n")
    }

    /// `bytes` in chunks of the given sizes, in turn.
    static func chunks(_ bytes: [UInt8], sizes: [Int]) -> () throws(ICSError) -> [UInt8]? {
        var at = 0, turn = 0
        return { () throws(ICSError) -> [UInt8]? in
            guard at < bytes.count else { return nil }
            let size = max(1, sizes[turn % sizes.count])
            turn += 1
            defer { at = min(bytes.count, at + size) }
            return Array(bytes[at..<min(bytes.count, at + size)])
        }
    }

    /// The whole-file import and the streamed one of `bytes`, into new stores, twice each (the
    /// second time every UID is stored already).
    static func both(
        _ bytes: [UInt8], into target: ImportTarget = .defaults, strict: Bool = false, dryRun: Bool = false,
        prepare: (EventStore) throws -> Void = { _ in }
    ) throws -> (
        whole: String, streamed: String, opens: Int
    ) {
        let a = try TemporaryStore(zone: .named("Europe/Berlin")), b = try TemporaryStore(zone: .named("Europe/Berlin"))
        var whole = "", streamed = "", opens = 0
        try prepare(a.store)
        try prepare(b.store)
        for _ in 0..<2 {
            whole += outcome(a) { try a.store.importICS(bytes, file: "f.ics", into: target, dryRun: dryRun, strict: strict) } + "\n"
            streamed +=
                outcome(b) {
                    try b.store.importICS(file: "f.ics", into: target, dryRun: dryRun, strict: strict) {
                        opens += 1
                        return chunks(bytes, sizes: [4_096, 300, 65_536])
                    }
                } + "\n"
        }
        return (whole, streamed, opens)
    }

    @Test func everyFixtureAndCorpusFileImportsAsTheWholeFileDoes() throws {
        var readAgain = 0
        for file in ChunkedReadTests.files {
            let bytes = Array(try Data(contentsOf: file))
            for (target, strict) in [(ImportTarget.defaults, false), (.newNamedByFile(fallback: "Fallback"), false), (.defaults, true)] {
                let (whole, streamed, opens) = try Self.both(bytes, into: target, strict: strict)
                #expect(streamed == whole, "\(file.lastPathComponent) into \(target) strict=\(strict)")
                if opens > 2 { readAgain += 1 }
            }
        }
        // Most files are stored as they are read; the rest are read again whole, and end the same.
        #expect(readAgain * 2 < ChunkedReadTests.files.count * 3)
    }

    /// The whole-file rules a stream applies at its end: a series' cancelled and changed
    /// occurrences after it, a split, occurrences whose series the file lacks (one alone, several
    /// together), a cancelled one of no series, an export's calendar names, a value the store
    /// cannot hold.
    static let seriesAndTheirOccurrences = """
        BEGIN:VCALENDAR
        VERSION:2.0
        X-WR-CALNAME:Team
        BEGIN:VEVENT
        UID:exported
        DTSTART:20270103T090000Z
        SUMMARY:From an export of this machine's default calendar
        X-CHIME-CALENDAR:Calendar
        END:VEVENT
        BEGIN:VEVENT
        UID:weekly
        DTSTART;TZID=Europe/Berlin:20270104T090000
        DURATION:PT1H
        RRULE:FREQ=WEEKLY;COUNT=10
        SUMMARY:Standup
        X-CHIME-CALENDAR:Work
        BEGIN:VALARM
        ACTION:DISPLAY
        TRIGGER:-PT10M
        END:VALARM
        END:VEVENT
        BEGIN:VTODO
        UID:todo
        X-CHIME-CALENDAR:Reminders
        SUMMARY:Pay rent
        DUE;VALUE=DATE:20270201
        END:VTODO
        BEGIN:VEVENT
        UID:weekly
        RECURRENCE-ID;TZID=Europe/Berlin:20270111T090000
        DTSTART;TZID=Europe/Berlin:20270111T090000
        STATUS:CANCELLED
        END:VEVENT
        BEGIN:VEVENT
        UID:weekly
        RECURRENCE-ID;TZID=Europe/Berlin:20270118T090000
        DTSTART;TZID=Europe/Berlin:20270118T100000
        DURATION:PT1H
        SUMMARY:Standup (late)
        END:VEVENT
        BEGIN:VEVENT
        UID:weekly
        RECURRENCE-ID;RANGE=THISANDFUTURE;TZID=Europe/Berlin:20270201T090000
        DTSTART;TZID=Europe/Berlin:20270201T083000
        DURATION:PT1H
        SUMMARY:Standup (earlier)
        END:VEVENT
        BEGIN:VEVENT
        UID:weekly
        RECURRENCE-ID;TZID=Europe/Berlin:20270208T090000
        DTSTART;TZID=Europe/Berlin:20270208T120000
        DURATION:PT1H
        SUMMARY:Standup (moved after the split)
        END:VEVENT
        BEGIN:VEVENT
        UID:weekly
        RECURRENCE-ID;TZID=Europe/Berlin:20270105T090000
        DTSTART;TZID=Europe/Berlin:20270105T090000
        DURATION:PT1H
        SUMMARY:Not an instance
        END:VEVENT
        BEGIN:VEVENT
        UID:invited-once
        RECURRENCE-ID:20270301T100000Z
        DTSTART:20270301T100000Z
        DURATION:PT30M
        SUMMARY:One instance
        END:VEVENT
        BEGIN:VEVENT
        UID:invited-twice
        RECURRENCE-ID:20270302T100000Z
        DTSTART:20270302T100000Z
        SUMMARY:Two instances
        END:VEVENT
        BEGIN:VEVENT
        UID:invited-twice
        RECURRENCE-ID:20270309T100000Z
        DTSTART:20270309T110000Z
        SUMMARY:Two instances
        END:VEVENT
        BEGIN:VEVENT
        UID:gone
        RECURRENCE-ID:20270310T100000Z
        DTSTART:20270310T100000Z
        STATUS:CANCELLED
        END:VEVENT
        BEGIN:VEVENT
        UID:far
        DTSTART:20270101T090000Z
        SUMMARY:Alarm a century away
        BEGIN:VALARM
        ACTION:DISPLAY
        TRIGGER;VALUE=DATE-TIME:21500101T000000Z
        END:VALARM
        END:VEVENT
        BEGIN:VEVENT
        UID:allday
        DTSTART;VALUE=DATE:20270105
        RRULE:FREQ=DAILY;COUNT=3
        SUMMARY:Offsite
        END:VEVENT
        BEGIN:VEVENT
        UID:allday
        RECURRENCE-ID:20270106T000000
        DTSTART;VALUE=DATE:20270106
        SUMMARY:Offsite (day two)
        END:VEVENT
        END:VCALENDAR

        """.replacingOccurrences(of: "\n", with: "\r\n")

    @Test func occurrencesAfterTheirSeriesAndWithoutOne() throws {
        let bytes = Array(Self.seriesAndTheirOccurrences.utf8)
        for target in [ImportTarget.defaults, .new("Imported"), .newNamedByFile(fallback: "x"), .existing("Work")] {
            // "Work" is an event calendar only: the to-do goes to the default list, made in the import.
            let (whole, streamed, opens) = try Self.both(bytes, into: target) { try $0.saveCalendar(ChimeCore.Calendar(title: "Work", entityType: .event)) }
            #expect(streamed == whole, "\(target)")
            #expect(opens == 2, "read once per import, never again whole")
            #expect(whole.contains("Standup (moved after the split)") && whole.contains("repair"), "\(whole)")
            // An export's calendar names find the defaults the import makes, never a second one.
            #expect(whole.components(separatedBy: "calendar event Calendar ").count <= 3, "\(whole)")
            #expect(whole.components(separatedBy: "calendar reminder Reminders ").count <= 3, "\(whole)")
        }
        // A dry run reports the same and leaves nothing, not even the calendars it would make.
        let t = try TemporaryStore()
        let dry = try t.store.importICS(file: "f.ics", into: .new("Team"), dryRun: true) { Self.chunks(bytes, sizes: [1_000]) }
        let real = try TemporaryStore().store.importICS(bytes, file: "f.ics", into: .new("Team"))
        #expect(dry == real)
        #expect(try t.snapshot().isEmpty)
        #expect(try t.store.calendars(for: .event).allSatisfy { $0.title != "Team" })
    }

    /// A read that fails part-way stores nothing: the items already written are rolled back.
    @Test func aReadThatFailsPartWayStoresNothing() throws {
        let t = try TemporaryStore()
        var events = ""
        for i in 0..<2_000 { events += "BEGIN:VEVENT\r\nUID:e\(i)\r\nDTSTART:20270101T090000Z\r\nSUMMARY:Event \(i)\r\nEND:VEVENT\r\n" }
        let bytes = Array(("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n" + events + "END:VCALENDAR\r\n").utf8)
        var at = 0
        #expect(throws: ICSError.self) {
            try t.store.importICS(file: "f.ics") {
                { () throws(ICSError) -> [UInt8]? in
                    // Past the first few hundred items, the disk fails.
                    guard at < bytes.count / 2 else { throw ICSError(file: "f.ics", line: 0, "cannot read the file") }
                    defer { at += 4_096 }
                    return Array(bytes[at..<min(bytes.count, at + 4_096)])
                }
            }
        }
        #expect(at > 0)
        #expect(try t.snapshot().isEmpty)
        // The store still takes the whole file afterwards.
        let report = try t.store.importICS(file: "f.ics") { Self.chunks(bytes, sizes: [65_536]) }
        #expect(report.eventsAdded == 2_000)
        #expect(try t.snapshot().count == 2_000)
    }

    /// A file that needs the whole-file read (one UID twice) is read again from its start, and
    /// nothing of the first pass is left.
    @Test func aFileReadAgainWholeEndsAsTheWholeFileImport() throws {
        let text = """
            BEGIN:VCALENDAR
            BEGIN:VEVENT
            UID:a
            DTSTART:20270101T090000Z
            SUMMARY:first copy
            SEQUENCE:1
            END:VEVENT
            BEGIN:VEVENT
            UID:b
            DTSTART:20270101T090000Z
            SUMMARY:another
            END:VEVENT
            BEGIN:VEVENT
            UID:a
            DTSTART:20270101T100000Z
            SUMMARY:older copy
            SEQUENCE:0
            END:VEVENT
            END:VCALENDAR

            """
        let (whole, streamed, opens) = try Self.both(Array(text.utf8))
        #expect(streamed == whole)
        #expect(opens == 4)
        #expect(whole.contains("first copy") && !whole.contains("older copy"))
    }

    /// An organizer's update to one instance, as a file of that instance alone (or beside an
    /// unchanged series): it changes the stored series' occurrence and cancels another, and never
    /// replaces the series with a stand-in. Re-importing a file changes nothing.
    @Test func anUpdateToOneInstanceChangesTheStoredSeries() throws {
        func file(_ body: String) -> [UInt8] {
            Array(("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n" + body + "END:VCALENDAR\r\n").utf8)
        }
        let series = """
            BEGIN:VEVENT\r\nUID:sync@example.com\r\nSEQUENCE:1\r\nDTSTART;TZID=Europe/Berlin:20270104T100000\r\nDURATION:PT1H\r
            RRULE:FREQ=WEEKLY;COUNT=8\r\nSUMMARY:Weekly sync\r\nATTENDEE;CN=Anna:mailto:anna@example.com\r\nEND:VEVENT\r
            BEGIN:VEVENT\r\nUID:sync@example.com\r\nSEQUENCE:1\r\nRECURRENCE-ID;TZID=Europe/Berlin:20270111T100000\r
            DTSTART;TZID=Europe/Berlin:20270111T110000\r\nDURATION:PT1H\r\nSUMMARY:Weekly sync (later)\r\nEND:VEVENT\r\n
            """
        let moved = """
            BEGIN:VEVENT\r\nUID:sync@example.com\r\nSEQUENCE:2\r\nRECURRENCE-ID;TZID=Europe/Berlin:20270111T100000\r
            DTSTART;TZID=Europe/Berlin:20270111T150000\r\nDURATION:PT1H\r\nSUMMARY:Weekly sync (afternoon)\r\nEND:VEVENT\r\n
            """
        let cancelled = """
            BEGIN:VEVENT\r\nUID:sync@example.com\r\nSEQUENCE:2\r\nRECURRENCE-ID;TZID=Europe/Berlin:20270118T100000\r
            DTSTART;TZID=Europe/Berlin:20270118T100000\r\nSTATUS:CANCELLED\r\nEND:VEVENT\r\n
            """
        // The updated instances alone, then beside the unchanged series (Google sends both).
        let master = String(series[..<series.range(of: "END:VEVENT\r\n")!.upperBound])
        for update in [moved + cancelled, master + moved + cancelled] {
            let (whole, streamed, _) = try Self.both(file(update)) { store in _ = try store.importICS(file(series), file: "first.ics") }
            #expect(streamed == whole)
            let t = try TemporaryStore(zone: .named("Europe/Berlin"))
            _ = try t.store.importICS(file(series), file: "first.ics")
            let report = try t.store.importICS(file(update), file: "update.ics")
            #expect(report.overrides == 1 && report.cancelledOccurrences == 1, "\(report)")
            #expect(report.calendars == ["Calendar"], "the series' calendar took the changes: \(report)")
            #expect(report.repairs.isEmpty && report.skipped.isEmpty, "\(report.repairs) \(report.skipped)")
            let items = try t.snapshot()
            #expect(items.count == 2, "the series and its one changed occurrence: \(items)")
            #expect(items.contains { $0.contains("Weekly sync (afternoon) 20270111T150000") && $0.contains("detached=true") }, "\(items)")
            #expect(
                items.contains { $0.contains("Weekly sync 20270104T100000") && $0.contains("FREQ=WEEKLY;COUNT=8") && $0.contains("2027-01-18T10:00:00") },
                "\(items)")
            // The same file again: nothing changes, and each component is counted as unchanged.
            let again = try t.store.importICS(file(update), file: "update.ics")
            #expect(again.overrides == 0 && again.cancelledOccurrences == 0, "\(again)")
            #expect(again.unchanged == (update == moved + cancelled ? 2 : 3) && again.older == 0, "\(again)")
            #expect(try t.snapshot() == items)
            // The first file again: its changed occurrence is older than the stored one, and counted so.
            let stale = try t.store.importICS(file(series), file: "first.ics")
            #expect(stale.older == 1 && stale.overrides == 0, "\(stale)")
            #expect(try t.snapshot() == items)
            // A cancellation sent before the occurrence was moved (a lower SEQUENCE) leaves it moved.
            let staleCancellation = file(
                """
                BEGIN:VEVENT\r\nUID:sync@example.com\r\nSEQUENCE:1\r\nRECURRENCE-ID;TZID=Europe/Berlin:20270111T100000\r
                DTSTART;TZID=Europe/Berlin:20270111T100000\r\nSTATUS:CANCELLED\r\nEND:VEVENT\r\n
                """)
            let cancelled = try t.store.importICS(staleCancellation, file: "cancel.ics")
            #expect(cancelled.older == 1 && cancelled.cancelledOccurrences == 0, "\(cancelled)")
            #expect(try t.snapshot() == items)
        }
    }

    /// A file imported twice changes nothing the second time, splits and extra occurrences included.
    @Test func aSecondImportOfTheSameFileChangesNothing() throws {
        for text in [Self.seriesAndTheirOccurrences] {
            let t = try TemporaryStore(zone: .named("Europe/Berlin"))
            _ = try t.store.importICS(Array(text.utf8), file: "f.ics")
            let first = try t.snapshot()
            let again = try t.store.importICS(Array(text.utf8), file: "f.ics")
            #expect(again.overrides == 0 && again.cancelledOccurrences == 0, "\(again)")
            #expect(try t.snapshot() == first)
        }
    }

    /// Updates to a stored series the file lacks, beyond one instance: this and later ones (a
    /// split), and a date the series does not have (an extra occurrence, said). Each is applied
    /// once: the same file again changes nothing.
    @Test func anUpdateToThisAndLaterInstancesOrToAnExtraDateChangesTheStoredSeries() throws {
        func file(_ body: String) -> [UInt8] { Array(("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n" + body + "END:VCALENDAR\r\n").utf8) }
        let series = """
            BEGIN:VEVENT\r\nUID:plan@example.com\r\nSEQUENCE:1\r\nDTSTART;TZID=Europe/Berlin:20270104T100000\r\nDURATION:PT1H\r
            RRULE:FREQ=WEEKLY;COUNT=10;BYDAY=MO\r\nSUMMARY:Planning\r\nEND:VEVENT\r\n
            """
        let later = """
            BEGIN:VEVENT\r\nUID:plan@example.com\r\nSEQUENCE:2\r\nRECURRENCE-ID;RANGE=THISANDFUTURE;TZID=Europe/Berlin:20270201T100000\r
            DTSTART;TZID=Europe/Berlin:20270201T160000\r\nDURATION:PT45M\r\nSUMMARY:Planning (afternoons)\r\nEND:VEVENT\r\n
            """
        let extra = """
            BEGIN:VEVENT\r\nUID:plan@example.com\r\nSEQUENCE:2\r\nRECURRENCE-ID;TZID=Europe/Berlin:20270113T100000\r
            DTSTART;TZID=Europe/Berlin:20270113T100000\r\nDURATION:PT1H\r\nSUMMARY:Planning (Wednesday)\r\nEND:VEVENT\r\n
            """
        for update in [later, extra] {
            let (whole, streamed, _) = try Self.both(file(update)) { store in _ = try store.importICS(file(series), file: "first.ics") }
            #expect(streamed == whole)
            let t = try TemporaryStore(zone: .named("Europe/Berlin"))
            _ = try t.store.importICS(file(series), file: "first.ics")
            let report = try t.store.importICS(file(update), file: "update.ics")
            #expect(report.overrides == 1, "\(report)")
            let items = try t.snapshot()
            if update == later {
                #expect(items.contains { $0.contains("Planning (afternoons) 20270201T160000") && $0.contains("detached=false") }, "\(items)")
                #expect(items.contains { $0.contains("Planning 20270104T100000") && $0.contains("UNTIL=") }, "\(items)")
            } else {
                #expect(report.repairs.map(\.description).contains { $0.contains("kept as an extra occurrence of the series (RDATE)") }, "\(report.repairs)")
                #expect(items.contains { $0.contains("Planning (Wednesday) 20270113T100000") && $0.contains("detached=true") }, "\(items)")
            }
            let again = try t.store.importICS(file(update), file: "update.ics")
            #expect(again.overrides == 0 && again.repairs.isEmpty && again.unchanged == 1, "\(again)")
            #expect(try t.snapshot() == items)
        }
    }

    /// Invited to one occurrence first (Google sends that occurrence alone), then to the series:
    /// the series replaces the event the occurrence made, which becomes its changed occurrence,
    /// though the series' SEQUENCE is lower. Each file again changes nothing.
    @Test func theSeriesOfAnOccurrenceImportedAloneTakesItIn() throws {
        func file(_ body: String) -> [UInt8] { Array(("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n" + body + "END:VCALENDAR\r\n").utf8) }
        let occurrence = file(
            """
            BEGIN:VEVENT\r\nUID:review@example.com\r\nSEQUENCE:1\r\nRECURRENCE-ID;TZID=Europe/Berlin:20270112T140000\r
            DTSTART;TZID=Europe/Berlin:20270112T160000\r\nDURATION:PT1H\r\nSUMMARY:Review (moved)\r\nEND:VEVENT\r\n
            """)
        let series = file(
            """
            BEGIN:VEVENT\r\nUID:review@example.com\r\nSEQUENCE:0\r\nDTSTART;TZID=Europe/Berlin:20270105T140000\r\nDURATION:PT1H\r
            RRULE:FREQ=WEEKLY;COUNT=6\r\nSUMMARY:Review\r\nEND:VEVENT\r\n
            """)
        let (whole, streamed, _) = try Self.both(series) { store in _ = try store.importICS(occurrence, file: "invite.ics") }
        #expect(streamed == whole)
        let t = try TemporaryStore(zone: .named("Europe/Berlin"))
        _ = try t.store.importICS(occurrence, file: "invite.ics")
        let report = try t.store.importICS(series, file: "series.ics")
        #expect(report.eventsUpdated == 1 && report.older == 0 && report.overrides == 1, "\(report)")
        let items = try t.snapshot()
        #expect(items.count == 2, "\(items)")
        #expect(items.contains { $0.contains("Review 20270105T140000") && $0.contains("FREQ=WEEKLY;COUNT=6") && $0.contains("extras=[]") }, "\(items)")
        #expect(items.contains { $0.contains("Review (moved) 20270112T160000") && $0.contains("detached=true") }, "\(items)")
        for again in [series, occurrence] {
            let report = try t.store.importICS(again, file: "again.ics")
            #expect(report.overrides == 0 && report.eventsUpdated == 0 && report.unchanged == 1, "\(report)")
            #expect(try t.snapshot() == items)
        }
    }
}
