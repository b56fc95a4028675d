import ChimeCore
import ChimeICS
import ChimeStore
import Foundation
import Testing

@Suite struct ImportExportTests {
    @Test func importStoresEverythingInOneTransactionAndReportsIt() throws {
        let t = try TemporaryStore()
        let report = try t.store.importICS(try Fixture.bytes("google.ics"), file: "google.ics", into: .new("Work"))
        #expect(report.eventsAdded == 2 && report.overrides == 1 && report.alarms == 1)
        let window = t.store.predicateForEvents(
            start: Instant(secondsSince1970: LocalDateTime(year: 2026, month: 11, day: 2).localSeconds),
            end: Instant(secondsSince1970: LocalDateTime(year: 2026, month: 11, day: 7).localSeconds))
        let titles = try t.store.events(matching: window).map(\.title)
        #expect(titles == ["Stand-up", "Stand-up", "Stand-up", "Stand-up (moved for the all-hands)", "Stand-up"])
        #expect(try t.store.calendars(for: .event).map(\.title).contains("Work"))
    }

    @Test func reimportUpdatesInsteadOfDuplicatingAndRespectsSequence() throws {
        let t = try TemporaryStore()
        let original = try Fixture.bytes("google.ics")
        _ = try t.store.importICS(original, file: "g.ics")
        let again = try t.store.importICS(original, file: "g.ics")
        // Each component is counted: the two events and the changed occurrence.
        #expect(again.eventsAdded == 0 && again.eventsUpdated == 0 && again.overrides == 0 && again.unchanged == 3)
        let newer = String(decoding: original, as: UTF8.self)
            .replacingOccurrences(of: "SEQUENCE:2", with: "SEQUENCE:5").replacingOccurrences(of: "SUMMARY:Stand-up\r", with: "SUMMARY:Daily\r")
        let updated = try t.store.importICS(Array(newer.utf8), file: "g.ics")
        #expect(updated.eventsUpdated == 1)
        let older = String(decoding: original, as: UTF8.self).replacingOccurrences(of: "SEQUENCE:2", with: "SEQUENCE:1")
        let stale = try t.store.importICS(Array(older.utf8), file: "g.ics")
        #expect(stale.older == 1)
        let all = try t.store.allItems(in: nil)
        #expect(all.filter { $0.title == "Daily" }.count == 1)
        #expect(!all.contains { $0.title == "Stand-up" })
    }

    /// A new calendar is made only when an item goes into it: a file whose items all stay where
    /// they are stored leaves no calendar behind, and no other device hears of one made and
    /// removed (the journal holds nothing).
    @Test func aNewCalendarIsMadeOnlyWhenAnItemGoesIntoIt() throws {
        let t = try TemporaryStore()
        let original = try Fixture.bytes("google.ics")
        _ = try t.store.importICS(original, file: "g.ics")
        let before = try t.store.currentChangeSequence()
        let again = try t.store.importICS(original, file: "g.ics", into: .new("Again"))
        #expect(again.newCalendarNotKept == "Again" && again.unchanged == 3, "\(again)")
        #expect(try t.store.currentChangeSequence() == before)
        #expect(try !t.store.calendars(for: .event).map(\.title).contains("Again"))
        // A newer copy goes into it: then it is made, and the report names it as used.
        let newer = String(decoding: original, as: UTF8.self).replacingOccurrences(of: "SEQUENCE:2", with: "SEQUENCE:5")
        let moved = try t.store.importICS(Array(newer.utf8), file: "g.ics", into: .new("Again"))
        #expect(moved.newCalendarNotKept == nil && moved.calendars == ["Again"], "\(moved)")
        #expect(try t.store.calendars(for: .event).map(\.title).contains("Again"))
    }

    /// An update imported without a target stays in the calendar its item is in, and the report
    /// names that calendar; no default calendar is made for it.
    @Test func anUpdateImportedIntoTheDefaultsStaysInItsCalendar() throws {
        let t = try TemporaryStore()
        let original = try Fixture.bytes("google.ics")
        let first = try t.store.importICS(original, file: "g.ics", into: .new("Work"))
        #expect(first.calendars == ["Work"], "\(first)")
        let newer = String(decoding: original, as: UTF8.self).replacingOccurrences(of: "SEQUENCE:2", with: "SEQUENCE:5")
        let updated = try t.store.importICS(Array(newer.utf8), file: "g.ics")
        #expect(updated.eventsUpdated == 1 && updated.calendars == ["Work"], "\(updated)")
        #expect(try t.store.calendars(for: .event).map(\.title) == ["Work"])
        let work = try #require(try t.store.calendars(for: .event).first)
        #expect(
            try t.store.allItems(in: nil).allSatisfy { item in
                if case .event(let e) = item { return e.calendarIdentifier == work.identifier } else { return false }
            })
        // A calendar that takes no changes (a subscription's) keeps its copy; the update goes to
        // the default calendar, as a new item would, and the import goes through.
        var feed = work
        feed.allowsModifications = false
        try t.store.saveCalendar(feed)
        let newest = newer.replacingOccurrences(of: "SEQUENCE:5", with: "SEQUENCE:6")
        let moved = try t.store.importICS(Array(newest.utf8), file: "g.ics")
        #expect(moved.eventsUpdated == 1 && moved.calendars == ["Calendar"], "\(moved)")
    }

    /// A component a lenient read skips (no DTSTART) is refused by a strict read as a refused
    /// repair (the CLI says the skip --strict does not make); a value a strict read cannot take
    /// is refused as it is.
    @Test func aStrictReadRefusesASkipAsTheSkipItWouldMake() throws {
        let noStart = Array("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:a\r\nSUMMARY:No start\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n".utf8)
        #expect(try ICalendar.parse(noStart, file: "f.ics").skipped.count == 1)
        do {
            _ = try ICalendar.parse(noStart, file: "f.ics", strict: true)
            Issue.record("a file with a component to skip was read strictly")
        } catch {
            #expect(error.isRefusedRepair && error.message == "missing DTSTART: this event was skipped", "\(error)")
        }
        let badValue = Array(
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:a\r\nDTSTART:20261201T090000Z\r\nDURATION:PT1Hx\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n".utf8)
        do {
            _ = try ICalendar.parse(badValue, file: "f.ics", strict: true)
            Issue.record("a bad DURATION was read strictly")
        } catch {
            #expect(!error.isRefusedRepair, "\(error)")
        }
    }

    @Test func aStrictImportOfABrokenFileStoresNothingAndNamesFileLineAndProperty() throws {
        let t = try TemporaryStore()
        _ = try t.store.importICS(try Fixture.bytes("thunderbird.ics"), file: "tb.ics")
        let before = try t.snapshot()
        var text = String(decoding: try Fixture.bytes("google.ics"), as: UTF8.self)
        text = text.replacingOccurrences(of: "DTSTART;VALUE=DATE:20261224", with: "DTSTART;VALUE=DATE:20261324")
        #expect(throws: ICSError(file: "bad.ics", line: 63, property: "DTSTART", "invalid date \"20261324\"")) {
            try t.store.importICS(Array(text.utf8), file: "bad.ics", strict: true)
        }
        #expect(try t.snapshot() == before)
        // By default the event that cannot be read is skipped alone, the rest imported.
        let report = try t.store.importICS(Array(text.utf8), file: "bad.ics")
        #expect(report.eventsAdded == 1 && report.skipped.map(\.line) == [63])
    }

    /// An import of many new events and to-dos journals each one (in statements of many rows), so
    /// the daemon and other readers hear of every item, past the statement's size.
    @Test func anImportJournalsEveryNewItem() throws {
        let t = try TemporaryStore()
        let before = try t.store.changeSet(after: 0).lastSequence
        var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n"
        for n in 0..<600 {
            text +=
                "BEGIN:VEVENT\r\nUID:journal-\(n)\r\nDTSTAMP:20261101T000000Z\r\nDTSTART:20261201T\(String(format: "%02d", n % 24))0000Z\r\n"
                + "DURATION:PT30M\r\nSUMMARY:Event \(n)\r\nEND:VEVENT\r\n"
        }
        for n in 0..<300 {
            text +=
                "BEGIN:VTODO\r\nUID:todo-\(n)\r\nDTSTAMP:20261101T000000Z\r\nDUE:20261202T090000Z\r\nSUMMARY:To-do \(n)\r\n"
                + (n % 3 == 0 ? "STATUS:COMPLETED\r\nCOMPLETED:20261101T120000Z\r\n" : "") + "END:VTODO\r\n"
        }
        text += "END:VCALENDAR\r\n"
        let report = try t.store.importICS(Array(text.utf8), file: "many.ics")
        #expect(report.eventsAdded == 600 && report.remindersAdded == 300)
        let changes = try t.store.changeSet(after: before)
        let stored = Set(try t.store.allItems(in: nil).map(\.identifier))
        #expect(stored.count == 900)
        #expect(changes.inserted.intersection(stored).count == 900)
        #expect(changes.changes.filter { $0.entity == .event }.count == 600)
        #expect(changes.changes.filter { $0.entity == .reminder }.count == 300)
        // A completed to-do keeps the file's completion date; the others have none.
        let reminders = try t.store.allItems(in: nil).compactMap { if case .reminder(let r) = $0 { r } else { nil } }
        #expect(reminders.filter(\.isCompleted).count == 100)
        let completedAt = Instant(utc: LocalDateTime(year: 2026, month: 11, day: 1, hour: 12))
        #expect(reminders.allSatisfy { $0.completionDate == ($0.isCompleted ? completedAt : nil) })
    }

    /// Writing into a read-only calendar is refused for the whole file, as it was item by item.
    @Test func anImportIntoAReadOnlyCalendarStoresNothing() throws {
        let t = try TemporaryStore()
        _ = try t.store.addSubscription(url: "https://example.org/feed.ics", title: "Feed", refreshSeconds: 3_600)
        let before = try t.snapshot()
        let refusal = #expect(throws: (any Error).self) {
            try t.store.importICS(try Fixture.bytes("google.ics"), file: "g.ics", into: .existing("Feed"))
        }
        #expect(refusal.map { "\($0)".contains("does not allow modifications") } == true, "\(String(describing: refusal))")
        #expect(try t.snapshot() == before)
        #expect(!t.store.hasUncommittedChanges)
    }

    @Test func dryRunStoresNothing() throws {
        let t = try TemporaryStore()
        let before = try t.snapshot()
        let report = try t.store.importICS(try Fixture.bytes("apple-reminders.ics"), file: "a.ics", dryRun: true)
        #expect(report.remindersAdded == 4 && report.locationAlarms == 2)
        #expect(try t.snapshot() == before)
        #expect(!t.store.hasUncommittedChanges)
    }

    @Test(arguments: Fixture.all)
    func importExportImportKeepsEverything(_ name: String) throws {
        let first = try TemporaryStore()
        _ = try first.store.importICS(try Fixture.bytes(name), file: name)
        let exported = ICalendar.serialize(try first.store.allItems(in: nil), now: Instant(secondsSince1970: 1_795_176_000), floatingZone: .utc)
        let second = try TemporaryStore()
        _ = try second.store.importICS(exported, file: "exported-" + name)
        #expect(try second.snapshot() == first.snapshot())
    }

    /// Broken and hostile files: strict reading names the first fault; the default reading
    /// repairs what it can (each repair said) and refuses only what is not a calendar at all.
    @Test func hostileInputIsRepairedOrRefusedClearlyAndQuickly() throws {
        let t = try TemporaryStore()
        let valid = String(decoding: try Fixture.bytes("google.ics"), as: UTF8.self)
        // (label, bytes, what strict reading says, what the default reading does: nil = refuses too)
        let cases: [(String, [UInt8], String, String?)] = [
            ("truncated", Array(valid[..<valid.range(of: "BEGIN:VALARM")!.lowerBound].utf8), "is never closed", "is never closed"),
            ("cut mid-line", Array(valid.utf8.prefix(valid.utf8.count / 2)), ".ics:", "is never closed"),
            (
                "missing END", Array(valid.replacingOccurrences(of: "END:VEVENT\r\nBEGIN:VEVENT", with: "BEGIN:VEVENT").utf8), "is never closed",
                "is never closed"
            ),
            ("huge line", Array(("BEGIN:VCALENDAR\r\nX-BIG:" + String(repeating: "a", count: 10_000_000) + "\r\nEND:VCALENDAR\r\n").utf8), "", ""),
            ("deep nesting", Array((String(repeating: "BEGIN:X\r\n", count: 40) + String(repeating: "END:X\r\n", count: 40)).utf8), "nested deeper", nil),
            (
                "invalid UTF-8", Array("BEGIN:VCALENDAR\r\nSUMMARY:".utf8) + [0xC3, 0x28] + Array("\r\nEND:VCALENDAR\r\n".utf8), "invalid UTF-8",
                "read as Windows-1252"
            ),
            ("CR only", Array(valid.replacingOccurrences(of: "\r\n", with: "\r").utf8), "", ""),
            ("not iCalendar", Array("hello world".utf8), "missing ':'", nil)
        ]
        for (label, bytes, strictMessage, repairMessage) in cases {
            let started = ContinuousClock.now
            do {
                let report = try t.store.importICS(bytes, file: "\(label).ics", dryRun: true, strict: true)
                #expect(strictMessage.isEmpty, "\(label): expected an error, got \(report)")
            } catch let error as ICSError {
                #expect(!strictMessage.isEmpty && error.description.contains(strictMessage), "\(label): \(error)")
                #expect(error.description.hasPrefix("\(label).ics:"))
            }
            do {
                let report = try t.store.importICS(bytes, file: "\(label).ics", dryRun: true)
                let said = (report.repairs + report.skipped).map(\.description)
                #expect(repairMessage != nil, "\(label): expected a refusal, got \(report)")
                if let repairMessage, !repairMessage.isEmpty {
                    #expect(said.contains { $0.hasPrefix("\(label).ics:") && $0.contains(repairMessage) }, "\(label): \(said)")
                }
            } catch let error as ICSError {
                #expect(repairMessage == nil, "\(label): \(error)")
                #expect(error.description.hasPrefix("\(label).ics:"))
            }
            #expect(ContinuousClock.now - started < .seconds(8), "\(label) took too long")
        }
    }
}
