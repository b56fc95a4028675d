import ChimeCore
import ChimeStore
import Foundation
import Synchronization

/// A wall clock tests set by hand.
final class ManualClock: Sendable {
    private let current: Mutex<Instant>
    init(_ start: Instant) { current = Mutex(start) }
    var now: Instant { current.withLock { $0 } }
    func set(_ instant: Instant) { current.withLock { $0 = instant } }
    var function: @Sendable () -> Instant { { self.now } }
}

/// A fresh store in its own temporary folder.
struct TestStore {
    let folder: String
    let path: String
    let clock: ManualClock
    let store: EventStore

    init(zone: ZoneRules = .utc, now: Instant = TestStore.defaultNow) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("chime-store-\(UUID().uuidString)").path
        path = folder + "/store/chime.sqlite"
        clock = ManualClock(now)
        store = try EventStore(path: path, floatingZone: zone, clock: clock.function)
    }

    /// 2026-11-20T12:00:00Z.
    static let defaultNow = Instant(secondsSince1970: 1_795_176_000)
}

func utc(_ y: Int, _ mo: Int, _ d: Int, _ h: Int = 0, _ mi: Int = 0) -> Instant {
    Instant(secondsSince1970: LocalDateTime(year: y, month: mo, day: d, hour: h, minute: mi).localSeconds)
}

func local(_ y: Int, _ mo: Int, _ d: Int, _ h: Int = 0, _ mi: Int = 0) -> LocalDateTime {
    LocalDateTime(year: y, month: mo, day: d, hour: h, minute: mi)
}
