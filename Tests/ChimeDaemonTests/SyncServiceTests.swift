import ChimeCalDAV
import ChimeCore
@testable import ChimeDaemon
import ChimeScheduler
import ChimeStore
import Foundation
import Logging
import Synchronization
import ChimeTestKit
import Testing

/// The daemon's sync loop in virtual time: how often it tries an account that fails, and why.
@Suite struct SyncServiceTests {
    /// Virtual time: `sleep` moves it on at once, so an hour of retries takes milliseconds.
    final class VirtualClock: @unchecked Sendable {
        private let lock = NSLock()
        private var seconds: Int64 = 1_796_112_000  // 2026-12-01T08:00:00Z
        func now() -> Instant { lock.withLock { Instant(secondsSince1970: seconds) } }
        func advance(_ s: Int64) { lock.withLock { seconds += s } }
    }

    /// Keeps each "sync failed" line with the account it names and the virtual time it came at.
    final class Failures: LogHandler, @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [(account: String, at: Int64, message: String)] = []
        let clock: VirtualClock
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace
        init(clock: VirtualClock) { self.clock = clock }
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(level: Logger.Level, message: Logger.Message, metadata: Logger.Metadata?, source: String, file: String, function: String, line: UInt) {
            guard message.description.hasPrefix("sync failed"), let account = metadata?["account"] else { return }
            lock.withLock { lines.append(("\(account)", clock.now().secondsSince1970, message.description)) }
        }
        func gaps(_ account: String) -> [Int64] {
            let times = lock.withLock { lines.filter { $0.account == account }.map(\.at) }
            return zip(times.dropFirst(), times).map { $0 - $1 }
        }
        func messages(_ account: String) -> [String] { lock.withLock { lines.filter { $0.account == account }.map(\.message) } }
    }

    /// A server that does not answer backs off 30 s, 1, 2, 4 min, then the interval; a refused
    /// password (here a password command that fails) waits the whole interval every time.
    @Test func anUnreachableServerBacksOffAndARefusedPasswordWaitsTheInterval() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chime-sync-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let store = try EventStore(path: folder + "/chime.sqlite")
        let closed = try closedLoopbackPort()
        try store.sync.saveAccount(SyncAccount(name: "down", url: "http://127.0.0.1:\(closed)/", username: "u", passwordCommand: "echo secret"))
        try store.sync.saveAccount(SyncAccount(name: "locked", url: "http://127.0.0.1:\(closed)/", username: "u", passwordCommand: "exit 1"))
        let clock = VirtualClock()
        let failures = Failures(clock: clock)
        var settings = SyncSettings()
        settings.afterChangeSeconds = 7  // never used by the timer: told apart below
        let service = SyncService(
            store: store, settings: settings, logger: Logger(label: "sync-test") { _ in failures },
            now: { clock.now() },
            sleep: { s in
                // A local change's short wait is left pending; the timer's wait passes at once.
                if s == 7 { try await Task.sleep(for: .seconds(3600)); return }
                clock.advance(s)
            })
        let loop = Task { try await service.run() }
        for _ in 0..<400 where failures.gaps("down").count < 7 { try await Task.sleep(for: .milliseconds(25)) }
        loop.cancel()
        #expect(Array(failures.gaps("down").prefix(7)) == [30, 60, 120, 240, 300, 300, 300])
        #expect(failures.gaps("locked").allSatisfy { $0 == 300 } && failures.gaps("locked").count >= 3, "\(failures.gaps("locked"))")
        #expect(failures.messages("locked").first?.contains("password command failed") == true, "\(failures.messages("locked"))")
        #expect(failures.messages("down").first?.contains("no answer") == true, "\(failures.messages("down"))")
    }

    /// While an alarm is on screen, accounts sync every 20 s (so that an answer given on another
    /// device takes it off this screen quickly); otherwise every 5 minutes.
    @Test(arguments: [true, false])
    func anAlarmOnScreenMakesPassesComeEvery20Seconds(showing: Bool) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chime-sync-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let store = try EventStore(path: folder + "/chime.sqlite")
        try store.sync.saveAccount(SyncAccount(name: "home", url: "http://127.0.0.1:1/", username: "u", passwordCommand: "echo x"))
        let clock = VirtualClock()
        let onScreen = AlarmsOnScreen()
        onScreen.set(showing)
        let passes = Mutex<[Int64]>([])
        let service = SyncService(
            store: store, settings: SyncSettings(), logger: Logger(label: "sync-test"), onScreen: onScreen,
            now: { clock.now() },
            sleep: { s in
                if s == SyncSettings().afterChangeSeconds { try await Task.sleep(for: .seconds(3600)); return }
                clock.advance(s)
            },
            pass: { _ in
                passes.withLock { $0.append(clock.now().secondsSince1970) }
                return .done
            })
        let loop = Task { try await service.run() }
        for _ in 0..<400 where passes.withLock({ $0.count }) < 6 { try await Task.sleep(for: .milliseconds(25)) }
        loop.cancel()
        let times = passes.withLock { $0 }
        let gaps = zip(times.dropFirst(), times).map { $0 - $1 }
        #expect(Array(gaps.prefix(5)) == Array(repeating: showing ? 20 : 300, count: 5), "\(gaps)")
    }

    /// A pass comes a minute before the next alarm rings (so an answer, a cancellation or a
    /// declined invitation from another device is here in time), not when one ran since; with
    /// `before_alarm_seconds = 0` only the 5-minute passes come.
    @Test(arguments: [60, 0] as [Int64])
    func aPassComesAMinuteBeforeTheNextAlarm(before: Int64) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chime-sync-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let store = try EventStore(path: folder + "/chime.sqlite")
        try store.sync.saveAccount(SyncAccount(name: "home", url: "http://127.0.0.1:1/", username: "u", passwordCommand: "echo x"))
        let clock = VirtualClock()
        let start = clock.now()
        let onScreen = AlarmsOnScreen()
        onScreen.setNextAlarm(start.adding(1_000))
        var settings = SyncSettings()
        settings.beforeAlarmSeconds = before
        let passes = Mutex<[Int64]>([])
        let service = SyncService(
            store: store, settings: settings, logger: Logger(label: "sync-test"), onScreen: onScreen,
            now: { clock.now() },
            sleep: { s in
                if s == SyncSettings().afterChangeSeconds { try await Task.sleep(for: .seconds(3600)); return }
                clock.advance(s)
            },
            pass: { _ in
                passes.withLock { $0.append(clock.now().secondsSince1970 - start.secondsSince1970) }
                return .done
            })
        let loop = Task { try await service.run() }
        for _ in 0..<400 where passes.withLock({ $0.count }) < 6 { try await Task.sleep(for: .milliseconds(25)) }
        loop.cancel()
        let times = Array(passes.withLock { $0 }.prefix(6))
        #expect(times == (before > 0 ? [0, 300, 600, 900, 940, 1_240] : [0, 300, 600, 900, 1_200, 1_500]), "\(times)")
    }
}
