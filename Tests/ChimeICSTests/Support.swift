import ChimeCore
import ChimeICS
import ChimeStore
import Foundation

enum Fixture {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: folder.appendingPathComponent(name)))
    }

    static let all = ["google.ics", "apple-reminders.ics", "thunderbird.ics", "outlook.ics", "evolution.ics"]
}

/// A store in its own temporary folder.
final class TemporaryStore {
    let folder: String
    let path: String
    let store: EventStore

    init(zone: ZoneRules = .utc) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("chime-ics-\(UUID().uuidString)").path
        path = folder + "/chime.sqlite"
        store = try EventStore(path: path, floatingZone: zone, clock: { Instant(secondsSince1970: 1_795_176_000) })
    }

    deinit { try? FileManager.default.removeItem(atPath: folder) }

    /// Every item, described without store identifiers, sorted: what a round trip must keep.
    func snapshot() throws -> [String] {
        try store.allItems(in: nil).map(Self.describe).sorted()
    }

    static func describe(_ item: AnyCalendarItem) -> String {
        switch item {
        case .event(var e):
            e.identifier = "-"; e.calendarIdentifier = nil; e.creationDate = nil; e.lastModifiedDate = nil
            return
                "E \(e.externalIdentifier) \(e.title) \(e.start.storageText) \(e.end.storageText) \(e.recurrenceRules.map(\.rfc5545)) \(e.recurrenceDates) \(e.exceptionDates) detached=\(e.isDetached) \(e.occurrenceDate.map { "\($0)" } ?? "") notes=\(e.notes ?? "") loc=\(e.location ?? "") seq=\(e.sequence) alarms=\(e.alarms.map { "\($0.trigger)" }) extras=\(e.icsExtras.filter { !$0.hasPrefix("DTSTAMP") })"
        case .reminder(var r):
            r.identifier = "-"; r.calendarIdentifier = nil; r.creationDate = nil; r.lastModifiedDate = nil
            return
                "R \(r.externalIdentifier) \(r.title) \(r.startDate?.storageText ?? "") \(r.dueDate?.storageText ?? "") \(r.recurrenceRules.map(\.rfc5545)) done=\(r.isCompleted) \(r.completionDate.map { "\($0)" } ?? "") p=\(r.priority) seq=\(r.sequence) alarms=\(r.alarms.map { "\($0.trigger)" }) extras=\(r.icsExtras)"
        }
    }
}
