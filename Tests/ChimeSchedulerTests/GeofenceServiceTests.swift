import ChimeCore
import ChimeScheduler
import ChimeStore
import Synchronization
import Testing

/// A location provider the test drives: it records what it is asked and yields what the test sends.
final class ScriptedProvider: LocationProvider {
    let name = "scripted"
    let updates: AsyncStream<LocationUpdate>
    private let continuation: AsyncStream<LocationUpdate>.Continuation
    private let asked = Mutex<[TrackingRequest?]>([])

    init() { (updates, continuation) = AsyncStream.makeStream() }

    func request(_ tracking: TrackingRequest?) { asked.withLock { $0.append(tracking) } }
    func shutdown() { continuation.finish() }
    func send(_ update: LocationUpdate) { continuation.yield(update) }
    var requests: [TrackingRequest?] { asked.withLock { $0 } }
}

/// The service loop with geofences, in virtual time: fixes arrive through the provider, firings
/// leave through the sink, tracking requests go back to the provider, arming windows are deadlines.
@Suite struct GeofenceServiceTests {
    static let grocery = GeofenceMonitorTests.grocery

    @Test func fixesFireThroughTheLoopAndArmingWindowsAreDeadlines() async throws {
        let h = try SchedulerHarness()
        try h.addReminder("Buy milk", due: nil, alarms: [.location(Self.grocery, .enter)])
        try h.addEvent("Team lunch", start: at(2026, 11, 21, 12), alarms: [.location(Self.grocery, .enter)])
        let provider = ScriptedProvider()
        let scheduler = AlarmScheduler(store: h.store, sink: h.sink, clock: h.clock, zone: h.zone)
        let monitor = GeofenceMonitor(store: h.store, settings: GeofenceSettings(), zone: h.zone, providerName: provider.name)
        let service = SchedulerService(scheduler: scheduler, geofences: monitor, locationProvider: provider, zone: { .utc })
        let running = Task { try await service.run() }
        defer { running.cancel() }

        await h.clock.waitForSleeper(after: 0)
        #expect(provider.requests.map { $0?.accuracy } == [.exact])  // a fence is armed, no position yet
        #expect(h.clock.pendingDeadlines == [utc(2026, 11, 21)])  // the lunch's fence arms at midnight

        func send(_ metres: Double) async {
            let slept = h.clock.sleepCount
            provider.send(
                .fix(
                    LocationFix(
                        coordinate: GeofenceMonitorTests.near(metres), horizontalAccuracy: 5,
                        timestampMilliseconds: h.clock.nowMilliseconds())))
            await h.clock.waitForSleeper(after: slept)
            h.clock.advance(to: h.clock.now().adding(10))
        }
        await send(30_000)
        #expect(provider.requests.last??.accuracy == .city)  // every boundary is far
        await send(5_000)
        #expect(provider.requests.last??.accuracy == .street)
        await send(800)
        await send(20)
        #expect(h.sink.titles == ["Arrived: Grocery store — Buy milk"])
        #expect(provider.requests.last??.accuracy == .exact)

        // Midnight: the lunch's fence is armed and settles on the standing position (inside).
        let slept = h.clock.sleepCount
        h.clock.advance(to: utc(2026, 11, 21))
        await h.clock.waitForSleeper(after: slept)
        #expect(try h.store.geofences.statuses().values.filter { $0.state == .inside }.count == 2)
        #expect(h.clock.pendingDeadlines == [utc(2026, 11, 22)])  // and disarms the next midnight
        #expect(h.sink.titles.count == 1)  // settling does not fire
    }
}
