import ChimeCore
import ChimeDesktop
import ChimeStore
import Foundation
import Synchronization
import Testing
@testable import ChimeDaemon
import ChimeFormat

/// The daemon's D-Bus API reads dates against its clock and zone at each call, never against
/// values fixed at its first call: a daemon runs for days. In-process, on a store with a clock
/// the test moves (virtual time), no bus needed.
@Suite struct BusInputContextTests {
    final class Clock: Sendable {
        private let current: Mutex<Instant>
        init(_ start: Instant) { current = Mutex(start) }
        func advance(days: Int64) { current.withLock { $0 = $0.adding(days * 86_400) } }
        var function: @Sendable () -> Instant { { self.current.withLock { $0 } } }
    }

    let caller = BusCaller(uniqueName: ":1.7", processID: nil, userID: nil, app: AppIdentity(source: .exe, name: "/usr/bin/planner"))

    func due(_ document: String) throws -> String? {
        let object = try JSONSerialization.jsonObject(with: Data(document.utf8)) as? [String: Any]
        let item = object?["item"] as? [String: Any]
        return (item?["due"] as? [String: Any])?["local"] as? String
    }

    @Test func tomorrowOnTheThirdDayOfTheDaemonsLifeIsTheFourthDay() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chime-bus-context-\(UUID().uuidString)").path
        // 2026-12-01 08:00 UTC: the daemon's first day.
        let clock = Clock(Instant(utc: LocalDateTime(year: 2026, month: 12, day: 1, hour: 8)))
        let store = try EventStore(path: folder + "/chime.sqlite", floatingZone: .utc, clock: clock.function)
        try store.access.setAuthorization(.authorized, appID: caller.app.id, for: .reminder, decidedBy: "test")
        let api = ChimeBusAPI(store: store)

        let first = try await api.handle("AddReminder", [.fields(["title": "Day one", "due": "tomorrow 10:00"])], from: caller)
        guard case .string(let firstDoc)? = first.first else { Issue.record("no document"); return }
        #expect(try due(firstDoc)?.hasPrefix("2026-12-02T10:00") == true, "\(firstDoc)")

        clock.advance(days: 2)
        let third = try await api.handle("AddReminder", [.fields(["title": "Day three", "due": "tomorrow 10:00"])], from: caller)
        guard case .string(let thirdDoc)? = third.first else { Issue.record("no document"); return }
        #expect(try due(thirdDoc)?.hasPrefix("2026-12-04T10:00") == true, "read from the day of the call: \(thirdDoc)")
    }
}
