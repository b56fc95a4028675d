import ChimeCore
import Foundation
import Synchronization
import Testing
@testable import ChimeScheduler

/// Records each pause of a replay and moves the manual clock on by it, so nothing waits and
/// rebased timestamps follow the track's pace.
final class SleepRecorder: Sendable {
    let clock: ManualWallClock
    private let log = Mutex<[Duration]>([])

    init(clock: ManualWallClock) { self.clock = clock }

    var durations: [Duration] { log.withLock { $0 } }

    var sleep: @Sendable (Duration) async throws -> Void {
        { [self] d in
            log.withLock { $0.append(d) }
            let (seconds, attoseconds) = d.components
            clock.advance(toMilliseconds: clock.nowMilliseconds() + seconds * 1000 + attoseconds / 1_000_000_000_000_000)
        }
    }
}

/// A sleep that never ends by itself: it reports `started` when it begins and `cancelled`
/// when its task is cancelled, the only way it ends.
final class BlockingSleep: Sendable {
    enum Event { case started, cancelled }
    let events: AsyncStream<Event>
    private let eventContinuation: AsyncStream<Event>.Continuation
    private let waiting = Mutex<CheckedContinuation<Void, any Error>?>(nil)

    init() { (events, eventContinuation) = AsyncStream.makeStream() }

    var sleep: @Sendable (Duration) async throws -> Void {
        { [self] _ in
            do {
                try await withTaskCancellationHandler {
                    try await withCheckedThrowingContinuation { (c: CheckedContinuation<Void, any Error>) in
                        let cancelledAlready = waiting.withLock { w -> Bool in
                            if Task.isCancelled { return true }
                            w = c
                            return false
                        }
                        if cancelledAlready { c.resume(throwing: CancellationError()) } else { eventContinuation.yield(.started) }
                    }
                } onCancel: {
                    waiting.withLock { w in
                        defer { w = nil }; return w
                    }?.resume(throwing: CancellationError())
                }
            } catch {
                eventContinuation.yield(.cancelled)
                throw error
            }
        }
    }
}

@Suite("Location providers: replayed tracks paced through an injected sleep, fixed places, source spellings")
struct ReplayProviderTests {
    static let trackStart = Instant(secondsSince1970: 1_795_419_000)  // 2026-11-23T07:30:00Z
    static let wallStart = Instant(secondsSince1970: 1_796_000_000)
    static let want = TrackingRequest(accuracy: .exact, distanceThresholdMetres: 0, timeThresholdSeconds: 0, reason: "test")

    /// Four fixes: +0 s, +10 s, +10 s (same time), +25.5 s.
    static let track: [LocationFix] = [0, 10_000, 10_000, 25_500].enumerated().map { k, offset in
        LocationFix(
            coordinate: Coordinate(latitude: 52.53 - Double(k) * 0.001, longitude: 13.38 + Double(k) * 0.001),
            horizontalAccuracy: Double(k), timestampMilliseconds: trackStart.milliseconds + offset)
    }

    static func fixes(_ provider: some LocationProvider) async -> [LocationFix] {
        var result: [LocationFix] = []
        for await update in provider.updates {
            guard case .fix(let fix) = update else { Issue.record("unexpected \(update)"); continue }
            result.append(fix)
        }
        return result
    }

    func replay(_ speed: ReplayProvider.Speed, rebase: Bool = true) -> (ReplayProvider, SleepRecorder, ManualWallClock) {
        let clock = ManualWallClock(now: Self.wallStart)
        let recorder = SleepRecorder(clock: clock)
        let provider = ReplayProvider(
            fixes: Self.track, name: "replay:test", speed: speed, rebase: rebase,
            clock: clock, sleep: recorder.sleep)
        return (provider, recorder, clock)
    }

    // MARK: - Replay

    @Test func realTimeSleepsTheTrackGapsAndRebasesOntoTheWallClock() async {
        let (provider, recorder, _) = replay(.realTime)
        provider.request(Self.want)
        let fixes = await Self.fixes(provider)  // returns: the stream finished after the last fix
        #expect(recorder.durations == [.seconds(10), .milliseconds(15_500)])  // no pause for the equal times
        let start = Self.wallStart.milliseconds
        #expect(fixes.map(\.timestampMilliseconds) == [start, start + 10_000, start + 10_000, start + 25_500])
        #expect(fixes.map(\.coordinate) == Self.track.map(\.coordinate))
        #expect(fixes.map(\.horizontalAccuracy) == [0, 1, 2, 3])
    }

    @Test func scaledSpeedDividesTheGaps() async {
        let (provider, recorder, _) = replay(.scaled(60))
        provider.request(Self.want)
        #expect(await Self.fixes(provider).count == 4)
        #expect(recorder.durations == [.nanoseconds(166_666_667), .nanoseconds(258_333_333)])
    }

    @Test func asFastAsPossibleNeverSleeps() async {
        let (provider, recorder, _) = replay(.asFastAsPossible)
        provider.request(Self.want)
        let fixes = await Self.fixes(provider)
        #expect(recorder.durations.isEmpty)
        #expect(fixes.count == 4)
        #expect(Set(fixes.map(\.timestampMilliseconds)) == [Self.wallStart.milliseconds])
    }

    @Test func withoutRebasingTheTracksOwnTimesAreKept() async {
        let (provider, _, _) = replay(.asFastAsPossible, rebase: false)
        provider.request(Self.want)
        #expect(await Self.fixes(provider) == Self.track)
    }

    @Test func startsAtTheFirstNonNilRequestOnly() async {
        let (provider, _, _) = replay(.asFastAsPossible)
        #expect(!provider.hasStarted)
        provider.request(nil)
        #expect(!provider.hasStarted)
        provider.request(Self.want)
        #expect(provider.hasStarted)
        provider.request(nil)  // plays on: the track does not pause
        provider.request(Self.want)  // and does not start again
        #expect(await Self.fixes(provider).count == 4)
    }

    @Test(.timeLimit(.minutes(1))) func shutdownStopsAReplayInTheMiddle() async {
        let clock = ManualWallClock(now: Self.wallStart)
        let blocking = BlockingSleep()
        let provider = ReplayProvider(fixes: Self.track, speed: .realTime, clock: clock, sleep: blocking.sleep)
        provider.request(Self.want)
        var updates = provider.updates.makeAsyncIterator()
        guard case .fix(let first)? = await updates.next() else { Issue.record("no first fix"); return }
        #expect(first.coordinate == Self.track[0].coordinate)
        var events = blocking.events.makeAsyncIterator()
        #expect(await events.next() == .started)  // pausing before the second fix
        provider.shutdown()
        #expect(await updates.next() == nil)
        #expect(await events.next() == .cancelled)  // the pause was cancelled, not left hanging
    }

    @Test func shutdownBeforeAnyRequestFinishesAndNeverStarts() async {
        let (provider, recorder, _) = replay(.realTime)
        provider.shutdown()
        provider.request(Self.want)
        #expect(!provider.hasStarted)
        #expect(await Self.fixes(provider).isEmpty)
        #expect(recorder.durations.isEmpty)
    }

    // MARK: - Loading files

    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Examples")

    @Test func loadsTheCommuteExample() throws {
        let path = Self.examples.appendingPathComponent("commute.gpx").path
        let clock = ManualWallClock(now: Self.wallStart)
        let replay = try ReplayProvider.load(path: path, speed: .scaled(60), clock: clock)
        #expect(replay.name == "replay:\(path)")
        let fixes = replay.fixes
        let home = Coordinate(latitude: 52.53080, longitude: 13.38470)
        let grocery = Coordinate(latitude: 52.52500, longitude: 13.40200)
        let office = Coordinate(latitude: 52.50700, longitude: 13.42600)
        #expect(fixes.first?.timestamp == Self.trackStart)
        #expect(Geodesy.distance(fixes[0].coordinate, home) < 15)
        // One point every 10 s, 20–25 minutes in all.
        #expect(zip(fixes, fixes.dropFirst()).allSatisfy { $1.timestampMilliseconds - $0.timestampMilliseconds == 10_000 })
        let minutes = Double(fixes.last!.timestampMilliseconds - fixes[0].timestampMilliseconds) / 60_000
        #expect((20...25).contains(minutes))
        // Passes the grocery store within about 40 m without stopping there.
        let nearStore = fixes.filter { Geodesy.distance($0.coordinate, grocery) < 45 }
        #expect(!nearStore.isEmpty && nearStore.count <= 3)
        // Ends with at least two minutes inside the office (30 m).
        let inside = fixes.reversed().prefix { Geodesy.distance($0.coordinate, office) < 30 }
        #expect(inside.count >= 13)
        #expect(fixes.allSatisfy { (4...10).contains($0.horizontalAccuracy) })  // hdop 0.8–2.0 × 5 m
        #expect(replay.skipped.isEmpty)
    }

    @Test func loadErrorsNameTheFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chime-replay-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let clock = ManualWallClock(now: Self.wallStart)
        func message(_ path: String) -> String {
            do {
                _ = try ReplayProvider.load(path: path, clock: clock)
                Issue.record("loaded \(path)")
                return ""
            } catch {
                return error.description
            }
        }
        let missing = folder.appendingPathComponent("missing.gpx").path
        #expect(message(missing) == "\(missing): cannot read: No such file or directory")
        #expect(message(folder.path) == "\(folder.path): cannot read: is a folder, not a track file")
        let bad = folder.appendingPathComponent("bad.csv")
        try Data("2026-11-23T07:30:00Z,52.5,13.4\n2026-11-23T07:30:10Z,95.2,13.4\n".utf8).write(to: bad)
        #expect(message(bad.path) == "\(bad.path):2: invalid latitude \"95.2\" (must be -90…90)")
        let nmea = folder.appendingPathComponent("log.nmea")
        try Data("$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47\n".utf8).write(to: nmea)
        #expect(message(nmea.path).hasPrefix("\(nmea.path):1: GGA has no date"))
        let dated = try ReplayProvider.load(path: nmea.path, defaultDate: CivilDate(year: 2026, month: 11, day: 23), clock: clock)
        #expect(dated.fixes.map(\.timestamp) == [Instant(secondsSince1970: 1_795_437_319)])  // 2026-11-23T12:35:19Z
    }

    // MARK: - Fixed

    @Test func fixedReportsOnceEachTimePositionsAreAskedForAgain() async {
        let clock = ManualWallClock(now: Self.wallStart)
        let place = Coordinate(latitude: 52.52, longitude: 13.405)
        let provider = FixedProvider(place, accuracy: 25, clock: clock)
        #expect(provider.name == "fixed:52.52000,13.40500,25")
        provider.request(Self.want)  // first request: a fix
        provider.request(
            TrackingRequest(
                accuracy: .city, distanceThresholdMetres: 1_000, timeThresholdSeconds: 300,
                reason: "far"))  // still asked for: nothing new
        provider.request(nil)  // stopped: nothing
        clock.advance(by: 600)
        provider.request(nil)
        provider.request(Self.want)  // asked again: a fresh fix
        provider.shutdown()
        provider.request(Self.want)  // after shutdown: nothing
        let fixes = await Self.fixes(provider)
        #expect(
            fixes == [
                LocationFix(coordinate: place, horizontalAccuracy: 25, timestampMilliseconds: Self.wallStart.milliseconds),
                LocationFix(coordinate: place, horizontalAccuracy: 25, timestampMilliseconds: Self.wallStart.milliseconds + 600_000)
            ])
        #expect(FixedProvider(place, clock: clock).name == "fixed:52.52000,13.40500")
    }

    // MARK: - Source spellings

    @Test func locationSourceSpellings() throws {
        #expect(try LocationSource(parsing: "geoclue") == .geoclue)
        #expect(try LocationSource(parsing: " GeoClue ") == .geoclue)
        #expect(try LocationSource(parsing: "none") == .none)
        #expect(try LocationSource(parsing: "replay:Examples/commute.gpx") == .replay(path: "Examples/commute.gpx"))
        #expect(try LocationSource(parsing: "replay:/tmp/a:b.nmea") == .replay(path: "/tmp/a:b.nmea"))
        #expect(try LocationSource(parsing: "fixed:52.52,13.405") == .fixed(Coordinate(latitude: 52.52, longitude: 13.405), accuracy: 0))
        #expect(
            try LocationSource(parsing: "fixed: -33.87, 151.21, 12.5")
                == .fixed(Coordinate(latitude: -33.87, longitude: 151.21), accuracy: 12.5))
        #expect(try LocationSource(parsing: "FIXED:90,-180") == .fixed(Coordinate(latitude: 90, longitude: -180), accuracy: 0))
        // The description is the spelling back.
        for text in [
            "geoclue", "none", "replay:commute.gpx", "fixed:52.52000,13.40500", "fixed:52.52000,13.40500,25",
            "fixed:52.52000,13.40500,12.5"
        ] {
            #expect(try LocationSource(parsing: text).description == text)
        }
    }

    @Test func locationSourceErrorsSayWhatIsWrong() {
        func message(_ text: String) -> String {
            do {
                let source = try LocationSource(parsing: text)
                Issue.record("parsed \(text) as \(source)")
                return ""
            } catch {
                return error.description
            }
        }
        #expect(message("fixed:91,0") == #"invalid location source "fixed:91,0": latitude must be in -90…90"#)
        #expect(message("fixed:0,180.5") == #"invalid location source "fixed:0,180.5": longitude must be in -180…180"#)
        #expect(message("fixed:52,13,-5") == #"invalid location source "fixed:52,13,-5": accuracy must be 0…100000 metres"#)
        #expect(message("fixed:52,13,1e20") == #"invalid location source "fixed:52,13,1e20": accuracy must be 0…100000 metres"#)
        #expect(message("fixed:52") == #"invalid location source "fixed:52": expected fixed:LAT,LON[,ACCURACY] with decimal degrees and metres"#)
        #expect(message("fixed:52,13,5,1") == #"invalid location source "fixed:52,13,5,1": expected fixed:LAT,LON[,ACCURACY] with decimal degrees and metres"#)
        #expect(message("fixed:north,13") == #"invalid location source "fixed:north,13": latitude "north" is not a number"#)
        #expect(message("fixed:nan,13") == #"invalid location source "fixed:nan,13": latitude "nan" is not a number"#)
        #expect(message("fixed") == #"invalid location source "fixed": fixed needs a place: fixed:LAT,LON[,ACCURACY]"#)
        #expect(message("replay:") == #"invalid location source "replay:": replay needs a file: replay:FILE"#)
        #expect(message("replay") == #"invalid location source "replay": replay needs a file: replay:FILE"#)
        #expect(message("gps") == #"invalid location source "gps": unknown source; use geoclue, none, replay:FILE or fixed:LAT,LON[,ACCURACY]"#)
        #expect(
            message("gpsd:localhost")
                == #"invalid location source "gpsd:localhost": unknown source "gpsd"; use geoclue, none, replay:FILE or fixed:LAT,LON[,ACCURACY]"#)
        #expect(message("") == #"invalid location source "": empty; use geoclue, none, replay:FILE or fixed:LAT,LON[,ACCURACY]"#)
    }
}
