import ChimeCore
import ChimeStore
import ChimeTestSupport
import Foundation
import GRDB
import Testing

/// The daemon's store (`longLived: true`) reads its start through a memory map opened for that
/// read alone: the read must use it, the file must not stay mapped afterwards (its pages would
/// count as the daemon's resident memory for days), and the read must find what a plain read
/// finds, location alarms included.
@Suite struct LongLivedReadTests {
    /// Lines of /proc/self/maps that map exactly `path` (not its -shm or -wal).
    func mappings(of path: String) throws -> [Substring] {
        let maps = try ProcFile.text("/proc/self/maps")
        return maps.split(separator: "\n").filter { $0.hasSuffix(" " + path) }
    }

    @Test func theStartsReadLeavesNoMapAndFindsEveryAlarm() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chime-longlived-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/chime.sqlite"
        // Written by a store that is then closed: the last connection's close moves the pages from
        // the WAL into the file, as a daemon finds a store written by commands that have exited.
        do {
            let writer = try EventStore(path: path, floatingZone: .utc)
            let calendar = try writer.defaultCalendarForNewEvents()
            for i in 0..<40 {
                var e = Event(
                    title: "Event \(i)", calendar: calendar.identifier,
                    start: .utc(local(2026, 11, 21 + i % 7, 9 + i % 8)), duration: 1_800)
                if i % 3 == 0 { e.recurrenceRules = [try RecurrenceRule(parsing: "FREQ=WEEKLY")] }
                e.alarms = [.relative(-600)]
                if i % 10 == 0 {
                    e.alarms.append(.location(StructuredLocation(title: "Office", latitude: 52.5, longitude: 13.4, radius: 100), .enter))
                }
                _ = try writer.save(e, commit: false)
            }
            try writer.commit()
        }
        // The writer's close usually does this; under a loaded test run a connection of its may
        // close later, leaving the pages in the WAL, where no map is used to read them.
        do {
            var configuration = Configuration()
            configuration.busyMode = .timeout(10)
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            try queue.writeWithoutTransaction { try $0.checkpoint(.truncate) }
        }
        let daemon = try EventStore(path: path, floatingZone: .utc, longLived: true)
        var timed: [String] = []
        var mappedDuringTheRead = false
        try daemon.forEachAlarmSource(from: utc(2026, 11, 20)) { source in
            timed.append(source.item.identifier)
            mappedDuringTheRead = mappedDuringTheRead || !((try? mappings(of: path))?.isEmpty ?? true)
        }
        #expect(mappedDuringTheRead, "the start's read did not go through a memory map")
        #expect(try mappings(of: path).isEmpty, "the store file is still mapped after the start's read")
        // The same items through the read by identifiers (no map: the daemon's reads after a change).
        let plain = try daemon.alarmSources(from: utc(2026, 11, 20), identifiers: Set(timed))
        #expect(Set(timed) == Set(plain.map(\.item.identifier)))
        #expect(timed.count == 40)

        // Location alarms: the four events with one, found through their alarm rows first.
        let armed = try daemon.locationAlarmSources(from: utc(2026, 11, 20))
        #expect(armed.count == 4)
        #expect(
            armed.allSatisfy { source in
                if case .event(let e) = source.item { return e.alarms.contains { $0.structuredLocation != nil } }
                return false
            })
        #expect(try mappings(of: path).isEmpty)
    }
}
