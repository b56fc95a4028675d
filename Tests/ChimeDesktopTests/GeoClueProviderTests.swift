import ChimeCore
@testable import ChimeDesktop
import ChimeScheduler
import Foundation
import Synchronization
import ChimeTestKit
import Testing

/// `GeoClueProvider` against a real GeoClue 2.6 in the sandbox of `Tests/harness/with-services.sh`:
/// geoclue on a private system bus, fed by a fake GPS (`nmea-feed.py`) whose position the tests move
/// by rewriting `$NMEA_POS_FILE`, with the demo agent running. Serialized: one geoclue and one
/// feeder position are shared.
@Suite(.serialized) struct GeoClueProviderTests {
    static let paris = Coordinate(latitude: 48.8584, longitude: 2.2945)
    static let london = Coordinate(latitude: 51.5007, longitude: -0.1246)
    static let zurich = Coordinate(latitude: 47.3769, longitude: 8.5417)
    static let every = TrackingRequest(accuracy: .exact, distanceThresholdMetres: 0, timeThresholdSeconds: 0, reason: "test")

    /// A provider asked for every position, once its first fix (the feeder at Paris) has come.
    static func locatingAtParis(_ sandbox: ServiceSandbox) async throws -> (GeoClueProvider, UpdateLog) {
        try sandbox.moveFeeder(to: paris)
        let provider = GeoClueProvider()
        let log = UpdateLog(provider)
        provider.request(every)
        guard await log.fix(near: paris, within: .seconds(20)) != nil else {
            provider.shutdown()
            throw SandboxError("never at Paris: \(log.updates)")
        }
        return (provider, log)
    }

    @Test func nothingStartsBeforeARequestThenTheFirstFixIsTheFeedersPositionAccuracyAndTime() async throws {
        guard let sandbox = ServiceSandbox.current() else { return }
        try sandbox.moveFeeder(to: Self.zurich)
        let provider = GeoClueProvider()
        defer { provider.shutdown() }
        let log = UpdateLog(provider)
        #expect(provider.name == "geoclue")

        provider.request(nil)  // no fence armed: nothing to start
        try await Task.sleep(for: .milliseconds(300))
        #expect(provider.statistics.clientsCreated.load(ordering: .relaxed) == 0)
        #expect(log.updates.isEmpty)

        provider.request(Self.every)
        let first = try #require(await log.update(at: 0, within: .seconds(20)), "no update from GeoClue")
        guard case .fix(let fix) = first else {
            Issue.record("the first update was \(first)")
            return
        }
        #expect(fix.coordinate.isNear(Self.zurich), "\(fix)")
        #expect(abs(fix.horizontalAccuracy - 1) < 0.01, "GGA HDOP 1.5 means 1 m to GeoClue: \(fix)")
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        #expect(abs(now - fix.timestampMilliseconds) < 5_000, "timestamp \(fix.timestampMilliseconds) ms, now \(now) ms")
        #expect(provider.statistics.clientsCreated.load(ordering: .relaxed) == 1)
    }

    @Test func movingTheFeederMovesTheNextFix() async throws {
        guard let sandbox = ServiceSandbox.current() else { return }
        let (provider, log) = try await Self.locatingAtParis(sandbox)
        defer { provider.shutdown() }

        try sandbox.moveFeeder(to: Self.london)
        let moved = try #require(await log.fix(near: Self.london, within: .seconds(10)), "never reached London: \(log.updates)")
        #expect(abs(moved.horizontalAccuracy - 1) < 0.01)
        #expect(log.unavailableMessages.isEmpty)
    }

    @Test func aThresholdChangeRetunesTheClientAndAnAccuracyChangeRecreatesIt() async throws {
        guard let sandbox = ServiceSandbox.current() else { return }
        let (provider, log) = try await Self.locatingAtParis(sandbox)
        defer { provider.shutdown() }

        // 100 km: GeoClue itself must now hold back a 1.1 km move, and still report Paris → London.
        provider.request(
            TrackingRequest(
                accuracy: .exact, distanceThresholdMetres: 100_000, timeThresholdSeconds: 0,
                reason: "far from every fence"))
        try await Task.sleep(for: .milliseconds(500))  // the property write travels ahead of the move
        let nearby = Coordinate(latitude: Self.paris.latitude + 0.01, longitude: Self.paris.longitude)
        try sandbox.moveFeeder(to: nearby)
        #expect(await log.fix(near: nearby, within: .seconds(3)) == nil, "a 1.1 km move passed a 100 km threshold")
        try sandbox.moveFeeder(to: Self.london)
        #expect(await log.fix(near: Self.london, within: .seconds(10)) != nil, "the 340 km move never came: \(log.updates)")
        #expect(provider.statistics.clientsCreated.load(ordering: .relaxed) == 1, "thresholds alone must not recreate the client")

        // Street level: a new client, which GeoClue serves without the EXACT-only NMEA source.
        let streetClients = sandbox.geoclueLogCount("Requested accuracy level: 6")
        provider.request(TrackingRequest(accuracy: .street, distanceThresholdMetres: 0, timeThresholdSeconds: 0, reason: "test"))
        #expect(try await poll { provider.statistics.clientsCreated.load(ordering: .relaxed) == 2 })
        #expect(
            try await poll { sandbox.geoclueLogCount("Requested accuracy level: 6") > streetClients },
            "geoclue never saw a client asking for street level")

        // Back to exact: a third client, and positions flow again from where the feeder is now.
        try sandbox.moveFeeder(to: Self.zurich)
        let mark = log.updates.count
        provider.request(Self.every)
        #expect(await log.fix(near: Self.zurich, after: mark, within: .seconds(10)) != nil, "no fix after the accuracy change: \(log.updates)")
        #expect(provider.statistics.clientsCreated.load(ordering: .relaxed) == 3)
    }

    @Test func requestNilStopsGeoClueAndANewRequestResumes() async throws {
        guard let sandbox = ServiceSandbox.current() else { return }
        let (provider, log) = try await Self.locatingAtParis(sandbox)
        defer { provider.shutdown() }

        let stops = sandbox.geoclueLogCount("GClueNMEASource now inactive")
        provider.request(nil)
        #expect(
            try await poll { sandbox.geoclueLogCount("GClueNMEASource now inactive") > stops },
            "geoclue kept its NMEA source on after request(nil)")
        let mark = log.updates.count
        try sandbox.moveFeeder(to: Self.london)
        try await Task.sleep(for: .seconds(3))
        #expect(log.fixes(after: mark).isEmpty, "fixes after request(nil): \(log.fixes(after: mark))")

        provider.request(Self.every)
        #expect(await log.fix(near: Self.london, after: mark, within: .seconds(10)) != nil, "no fix after resuming: \(log.updates)")
        #expect(log.unavailableMessages.isEmpty)
    }

    /// Street level gets no position in the sandbox (its only source is EXACT), so each start times out.
    @Test func aStartWithoutPositionTimesOutOncePerOutageAndRetriesThroughTheInjectedSleep() async throws {
        guard let sandbox = ServiceSandbox.current() else { return }
        try sandbox.moveFeeder(to: Self.paris)
        let sleeps = SleepRecorder()
        let provider = GeoClueProvider(startTimeout: .seconds(1), retryInterval: .seconds(42), sleep: sleeps.sleep)
        defer { provider.shutdown() }
        let log = UpdateLog(provider)
        let street = TrackingRequest(accuracy: .street, distanceThresholdMetres: 0, timeThresholdSeconds: 0, reason: "test")
        let start = ContinuousClock.now
        provider.request(street)

        try #require(await log.update(at: 0, within: .seconds(10)) != nil)
        #expect(ContinuousClock.now - start < .seconds(5))
        #expect(log.unavailableMessages == ["GeoClue2 found no position within 1 s at accuracy street: no location source answered"])
        #expect(try await poll { sleeps.count >= 3 }, "the provider stopped retrying")
        #expect(sleeps.durations.allSatisfy { $0 == .seconds(42) }, "\(sleeps.durations)")
        #expect(log.unavailableMessages.count == 1, "one outage, one report: \(log.unavailableMessages)")
        #expect(log.fixes(after: 0).isEmpty)

        // A request during the outage is what the next retry asks for: exact gets a position, ending the outage.
        provider.request(Self.every)
        #expect(await log.fix(near: Self.paris, within: .seconds(10)) != nil, "the retry at exact got nothing: \(log.updates)")
        // A new outage is reported again.
        provider.request(street)
        #expect(try await poll { log.unavailableMessages.count == 2 }, "\(log.updates)")
    }

    /// A GPS-only machine (the sandbox's only source is EXACT): city level gets nothing; the
    /// monitor then asks for exact, which starts at once instead of after the 60 s retry wait, so
    /// a location reminder can fire within seconds of the daemon starting (it took 80 s).
    @Test func anotherLevelDuringAnOutageStartsAtOnceNotAfterTheRetryWait() async throws {
        guard let sandbox = ServiceSandbox.current() else { return }
        try sandbox.moveFeeder(to: Self.paris)
        let provider = GeoClueProvider(startTimeout: .seconds(1), retryInterval: .seconds(60))
        defer { provider.shutdown() }
        let log = UpdateLog(provider)
        let city = TrackingRequest(accuracy: .city, distanceThresholdMetres: 1_000, timeThresholdSeconds: 0, reason: "far from every fence")
        provider.request(city)
        try #require(await log.update(at: 0, within: .seconds(10)) != nil)
        #expect(log.unavailableMessages.count == 1, "\(log.updates)")
        let asked = ContinuousClock.now
        provider.request(Self.every)
        #expect(await log.fix(near: Self.paris, within: .seconds(10)) != nil, "exact waited for the retry: \(log.updates)")
        #expect(ContinuousClock.now - asked < .seconds(10))
    }

    @Test func aDeniedDesktopIDIsReportedUnavailableWithGeoCluesReason() async throws {
        guard ServiceSandbox.current() != nil else { return }
        let sleeps = SleepRecorder()
        let provider = GeoClueProvider(desktopID: "org.example.Denied", retryInterval: .seconds(60), sleep: sleeps.sleep)
        defer { provider.shutdown() }
        let log = UpdateLog(provider)
        provider.request(Self.every)
        let first = try #require(await log.update(at: 0, within: .seconds(10)), "no update for a denied app")
        guard case .unavailable(let message) = first else {
            Issue.record("a denied app got \(first)")
            return
        }
        #expect(message.contains("refused to locate for \"org.example.Denied\""), "\(message)")
        #expect(message.contains("AccessDenied") && message.contains("disallowed by configuration"), "\(message)")
        #expect(try await poll { sleeps.count >= 2 }, "the provider stopped retrying")
        #expect(log.unavailableMessages.count == 1, "one outage, one report: \(log.unavailableMessages)")
    }

    @Test func shutdownFinishesUpdatesEvenMidStartAndIgnoresLaterCalls() async throws {
        guard let sandbox = ServiceSandbox.current() else { return }
        try sandbox.moveFeeder(to: Self.paris)
        // Mid-start: replies for the client still on their way find the provider gone.
        let early = GeoClueProvider()
        let earlyLog = UpdateLog(early)
        early.request(Self.every)
        early.shutdown()
        #expect(try await poll(timeout: .seconds(5)) { earlyLog.isFinished })

        // While positions flow.
        let provider = GeoClueProvider()
        let log = UpdateLog(provider)
        provider.request(Self.every)
        try #require(await log.fix(near: Self.paris, within: .seconds(20)) != nil, "never at Paris: \(log.updates)")
        let stops = sandbox.geoclueLogCount("GClueNMEASource now inactive")
        provider.shutdown()
        provider.shutdown()  // idempotent
        provider.request(Self.every)  // ignored
        #expect(try await poll(timeout: .seconds(5)) { log.isFinished })
        #expect(
            try await poll { sandbox.geoclueLogCount("GClueNMEASource now inactive") > stops },
            "geoclue kept locating after shutdown")
        try await Task.sleep(for: .seconds(1))  // room for late callbacks to misbehave
        #expect(provider.statistics.clientsCreated.load(ordering: .relaxed) == 1)
    }

    /// GeoClue going away under a running client (a crash, an upgrade) is one outage, which ends by
    /// itself once it is back: the provider notices the name owner leaving and keeps retrying.
    @Test func geoClueRestartingIsOneOutageThatEndsByItself() async throws {
        guard let sandbox = ServiceSandbox.current() else { return }
        try sandbox.moveFeeder(to: Self.paris)
        let provider = GeoClueProvider(startTimeout: .seconds(5), retryInterval: .milliseconds(200))
        defer { provider.shutdown() }
        let log = UpdateLog(provider)
        provider.request(Self.every)
        try #require(await log.fix(near: Self.paris, within: .seconds(20)) != nil, "never at Paris: \(log.updates)")

        let agents = sandbox.geoclueLogCount("New agent for user ID")
        try await sandbox.stopGeoClue()
        #expect(try await poll { log.unavailableMessages == ["GeoClue2 left the system bus"] }, "\(log.updates)")
        let mark = log.updates.count
        try sandbox.startGeoClue()
        #expect(
            try await poll(timeout: .seconds(20)) { sandbox.geoclueLogCount("New agent for user ID") > agents },
            "the demo agent did not come back")
        try sandbox.moveFeeder(to: Self.london)
        #expect(await log.fix(near: Self.london, after: mark, within: .seconds(20)) != nil, "no fix after the restart: \(log.updates)")
        #expect(log.unavailableMessages.count == 1, "one outage, one report: \(log.unavailableMessages)")
    }

    /// Child processes: GDBus keeps one system-bus connection per process, and the address must be
    /// wrong from the start.
    @Test func withoutASystemBusItReportsUnavailableOnceAndKeepsRetrying() async {
        guard ServiceSandbox.current() != nil else { return }
        await #expect(processExitsWith: .success) {
            exit(
                await GeoClueProviderTests.reportsOneOutageAndRetries(
                    systemBus: "unix:path=/nonexistent/chime-test/system_bus_socket",
                    expecting: "cannot reach GeoClue2: no system bus (Could not connect: No such file or directory)"))
        }
    }

    /// The sandbox's session bus stands in for a system bus where GeoClue is not installed.
    @Test func withoutGeoClueOnTheBusItReportsUnavailableOnceAndKeepsRetrying() async {
        guard ServiceSandbox.current() != nil else { return }
        await #expect(processExitsWith: .success) {
            exit(
                await GeoClueProviderTests.reportsOneOutageAndRetries(
                    systemBus: ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] ?? "",
                    expecting: "org.freedesktop.GeoClue2 was not provided by any .service files"))
        }
    }

    /// Runs in the child: 0 when exactly one `.unavailable` containing `expecting` came within the
    /// start timeout and at least three retries followed without another; else a code naming the check.
    static func reportsOneOutageAndRetries(systemBus: String, expecting: String) async -> Int32 {
        setenv("DBUS_SYSTEM_BUS_ADDRESS", systemBus, 1)
        let sleeps = SleepRecorder()
        let provider = GeoClueProvider(startTimeout: .seconds(5), retryInterval: .milliseconds(100), sleep: sleeps.sleep)
        let log = UpdateLog(provider)
        let start = ContinuousClock.now
        provider.request(every)
        guard await log.update(at: 0, within: .seconds(5)) != nil else { return 10 }
        guard ContinuousClock.now - start < .seconds(5) else { return 11 }
        guard log.unavailableMessages.count == 1, log.unavailableMessages[0].contains(expecting) else {
            FileHandle.standardError.write(Data("unexpected: \(log.updates)\n".utf8))
            return 12
        }
        guard (try? await poll { sleeps.count >= 3 }) == true else { return 13 }
        guard sleeps.durations.allSatisfy({ $0 == .milliseconds(100) }) else { return 14 }
        guard log.updates.count == 1 else { return 15 }
        provider.shutdown()
        guard (try? await poll(timeout: .seconds(5)) { log.isFinished }) == true else { return 16 }
        return 0
    }
}

// MARK: - Helpers

/// Everything a provider reported, collected by one task (``LocationProvider/updates`` has one reader).
final class UpdateLog: Sendable {
    private let state = Mutex<(updates: [LocationUpdate], finished: Bool)>(([], false))

    init(_ provider: some LocationProvider) {
        let updates = provider.updates
        Task { [self] in
            for await update in updates { state.withLock { $0.updates.append(update) } }
            state.withLock { $0.finished = true }
        }
    }

    var updates: [LocationUpdate] { state.withLock { $0.updates } }
    var isFinished: Bool { state.withLock { $0.finished } }
    var unavailableMessages: [String] {
        updates.compactMap { if case .unavailable(let message) = $0 { message } else { nil } }
    }

    func fixes(after index: Int) -> [LocationFix] {
        updates.dropFirst(index).compactMap { if case .fix(let fix) = $0 { fix } else { nil } }
    }

    /// The update at `index`, waiting for it up to `timeout`.
    func update(at index: Int, within timeout: Duration) async -> LocationUpdate? {
        var found: LocationUpdate?
        _ = try? await poll(timeout: timeout) {
            let all = updates
            found = all.count > index ? all[index] : nil
            return found != nil
        }
        return found
    }

    /// The first fix within 1e-4° of `coordinate` among the updates from `index` on, waiting for it.
    func fix(near coordinate: Coordinate, after index: Int = 0, within timeout: Duration) async -> LocationFix? {
        var found: LocationFix?
        _ = try? await poll(timeout: timeout) {
            found = fixes(after: index).first { $0.coordinate.isNear(coordinate) }
            return found != nil
        }
        return found
    }
}

/// An injected `sleep` that records what it was asked and waits only briefly.
final class SleepRecorder: Sendable {
    private let asked = Mutex<[Duration]>([])
    var durations: [Duration] { asked.withLock { $0 } }
    var count: Int { durations.count }

    var sleep: @Sendable (Duration) async throws -> Void {
        { [self] duration in
            asked.withLock { $0.append(duration) }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}

extension Coordinate {
    func isNear(_ other: Coordinate) -> Bool {
        abs(latitude - other.latitude) < 1e-4 && abs(longitude - other.longitude) < 1e-4
    }
}

extension ServiceSandbox {
    /// The fake GPS's position file ("lat lon"); the feeder reads it before every sentence pair.
    var positionFile: String { ProcessInfo.processInfo.environment["NMEA_POS_FILE"] ?? runDirectory + "/pos" }

    func moveFeeder(to coordinate: Coordinate) throws {
        try "\(coordinate.latitude) \(coordinate.longitude)\n".write(toFile: positionFile, atomically: true, encoding: .utf8)
    }

    /// Stops the sandbox's geoclue (SIGTERM) and waits until it has exited.
    func stopGeoClue() async throws {
        let pids = try String(contentsOfFile: runDirectory + "/pids", encoding: .utf8).split(separator: "\n").compactMap { pid_t($0) }
        let running = pids.filter { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\($0)/exe")) == "/usr/libexec/geoclue" }
        guard running.count == 1, let pid = running.first else { throw SandboxError("geoclue processes in pids: \(running)") }
        kill(pid, SIGTERM)
        guard try await ChimeTestKit.poll(timeout: .seconds(10), { kill(pid, 0) != 0 }) else { throw SandboxError("geoclue \(pid) did not exit") }
    }

    /// Starts geoclue again as svc-up.sh does (Tests/harness/geoclue-up.sh) and waits until it owns its name.
    func startGeoClue() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: harnessDirectory + "/geoclue-up.sh")
        process.arguments = [runDirectory]
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw SandboxError("geoclue-up.sh exited \(process.terminationStatus)") }
    }

    private var harnessDirectory: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("harness").path
    }

    /// How many lines of geoclue's debug log contain `text`.
    func geoclueLogCount(_ text: String) -> Int {
        let log = (try? String(contentsOfFile: runDirectory + "/geoclue.log", encoding: .utf8)) ?? ""
        return log.split(separator: "\n").count { $0.contains(text) }
    }
}
