import ChimeCore
import ChimeICS
import Foundation
import GRDB
import Synchronization
import Testing

@testable import ChimeStore

/// A streamed import works out a new item's row values on whichever thread would otherwise
/// wait (``ReadWhileStoring/Hand/storeIsBehind``): the rows must not depend on which one did.
@Suite("store: an import's row values, worked out by either thread")
struct ImportRowValuesTests {
    /// Items whose values take work: finite and endless series, dates added and taken out, an
    /// all-day event, floating and zoned times, alarms, preserved lines, a calendar's name, to-dos.
    static let file = Array(
        """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//Test//EN\r
        BEGIN:VEVENT\r
        UID:weekly@example.com\r
        DTSTART;TZID=Europe/Berlin:20270104T090000\r
        DTEND;TZID=Europe/Berlin:20270104T100000\r
        RRULE:FREQ=WEEKLY;BYDAY=MO,TH;UNTIL=20270401T080000Z\r
        EXDATE;TZID=Europe/Berlin:20270107T090000\r
        RDATE;TZID=Europe/Berlin:20270501T090000\r
        SUMMARY:Stand-up\r
        X-CHIME-CALENDAR:Work\r
        X-OTHER-CLIENT:kept\r
        BEGIN:VALARM\r
        ACTION:DISPLAY\r
        DESCRIPTION:Stand-up\r
        TRIGGER:-PT10M\r
        END:VALARM\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:endless@example.com\r
        DTSTART:20270110T180000\r
        DURATION:PT2H\r
        RRULE:FREQ=MONTHLY;BYMONTHDAY=10,-1\r
        SUMMARY:Floating and endless\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:birthday@example.com\r
        DTSTART;VALUE=DATE:20270214\r
        RRULE:FREQ=YEARLY;COUNT=5\r
        SUMMARY:Birthday\r
        BEGIN:VALARM\r
        ACTION:DISPLAY\r
        DESCRIPTION:Birthday\r
        TRIGGER;VALUE=DATE-TIME:20270213T090000Z\r
        END:VALARM\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:once@example.com\r
        DTSTART:20270301T120000Z\r
        DTEND:20270301T130000Z\r
        SUMMARY:Once\r
        DESCRIPTION:Notes\\nover two lines\r
        LOCATION:Room 1\r
        URL:https://example.com/once\r
        END:VEVENT\r
        BEGIN:VTODO\r
        UID:todo@example.com\r
        DTSTART:20270301T090000Z\r
        DUE:20270302T090000Z\r
        RRULE:FREQ=DAILY;COUNT=3\r
        SUMMARY:Water the plants\r
        X-CHIME-CALENDAR:Errands\r
        END:VTODO\r
        BEGIN:VTODO\r
        UID:undated@example.com\r
        SUMMARY:Someday\r
        END:VTODO\r
        END:VCALENDAR\r

        """.utf8)

    /// Every item row (its calendar by title, not by a store's own identifier) and alarm row.
    static func rows(_ path: String) throws -> [String] {
        try DatabaseQueue(path: path).read { db in
            let items = try Row.fetchAll(
                db,
                sql: """
                    SELECT calendar.title AS calendar_title, item.* FROM item JOIN calendar ON calendar.id = item.calendar_id
                    ORDER BY item.external_id
                    """)
            let alarms = try Row.fetchAll(db, sql: "SELECT * FROM alarm ORDER BY item_id, position")
            return (items + alarms).map { row in
                row.columnNames.filter { $0 != "calendar_id" }.map { "\($0)=\(row[$0] as DatabaseValue)" }.joined(separator: " ")
            }
        }
    }

    /// The file's items added to a new store, their values worked out before (`ahead`) or as
    /// each row is written.
    static func imported(_ parsed: ICSParseResult, valuesAhead ahead: Bool) throws -> [String] {
        let target = try TestStore(zone: try ZoneRules.named("Europe/Berlin"))
        let store = target.store
        try store.write { db, stamp in
            let session = try ImportSession(
                store: store, file: "f.ics", target: .defaults, header: ICSCalendarHeader(name: nil, properties: []),
                strict: false, authoritative: false, db: db, known: [])
            try session.add(prepared: parsed.items.map { ImportEntry($0, withValues: ahead) }, overridden: nil, cancellations: [:])
            try store.drain(db, stamp: stamp)
        }
        return try rows(target.path)
    }

    @Test func rowsAreTheSameWhicheverThreadWorkedOutTheirValues() throws {
        // One parse for both stores: the items carry the same identifiers into each.
        let parsed = try ICalendar.parse(Self.file, file: "f.ics")
        #expect(parsed.items.count == 6 && parsed.skipped.isEmpty)
        let ahead = try Self.imported(parsed, valuesAhead: true)
        let asWritten = try Self.imported(parsed, valuesAhead: false)
        #expect(ahead.count == 6 + 2)
        #expect(ahead == asWritten)
        // The values are there, not left empty by either path: a finite series' range ends at its
        // last occurrence (the RDATE in May), an endless one's is open.
        #expect(ahead.contains { $0.contains("external_id=\"weekly@example.com\"") && $0.contains("range_end=1809158400") })
        #expect(ahead.contains { $0.contains("external_id=\"endless@example.com\"") && $0.contains("range_end=NULL") })
    }

    @Test func theStoreIsBehindOnlyWhileABatchWaitsUntaken() throws {
        // The storing thread holds batch 0 until the reader has looked; each batch stored is
        // announced, so the reader waits for states, never for time.
        let release = DispatchSemaphore(value: 0)
        let stored = DispatchSemaphore(value: 0)
        let seen = Mutex<[Bool]>([])
        try ReadWhileStoring.run(capacity: 2) { (hand: ReadWhileStoring.Hand<Int>) in
            seen.withLock { $0.append(hand.storeIsBehind) }  // nothing handed yet
            try hand(0)
            try hand(1)  // batch 0 is held: batch 1 waits (or both do)
            seen.withLock { $0.append(hand.storeIsBehind) }
            release.signal()
            stored.wait()
            stored.wait()  // both taken and stored: nothing waits
            seen.withLock { $0.append(hand.storeIsBehind) }
        } store: { (batch: inout Int) in
            if batch == 0 { release.wait() }
            stored.signal()
        }
        #expect(seen.withLock { $0 } == [false, true, false])
    }
}
