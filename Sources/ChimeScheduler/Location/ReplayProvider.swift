import ChimeCore
import Foundation
import Synchronization

/// Plays a recorded track (``TrackFile``: GPX, NMEA, CSV) as if it were happening now, for
/// demos and tests of geofence alarms without a GPS (`--location replay:commute.gpx`).
///
/// - **When it starts**: at the first non-nil ``request(_:)``, the moment the geofence engine
///   first wants positions (the daemon calls `request` right after creating the provider; with
///   no fence armed it asks for nothing, and the track waits instead of passing unseen). The
///   first fix is emitted at once.
/// - **Pacing**: each later fix follows after the track's own gap divided by the ``Speed``,
///   slept through the injected `sleep` (tests record the durations instead of waiting).
///   Once started the track plays on whatever is requested later: a recording of the world,
///   which moves on whether or not anyone looks (accuracy and thresholds are ignored, as for
///   every replayed source).
/// - **Timestamps**: with `rebase` (the default) every fix carries the wall-clock time at
///   which it is emitted, so the daemon's ledger records real times; without, the track's own
///   times are kept (previews).
/// - **End**: ``updates`` finishes after the last fix, or at ``shutdown()``.
///
/// ```swift
/// let replay = try ReplayProvider.load(path: "Examples/commute.gpx", speed: .scaled(60), clock: SystemWallClock())
/// replay.request(TrackingRequest(accuracy: .exact, distanceThresholdMetres: 0, timeThresholdSeconds: 0, reason: "demo"))
/// for await update in replay.updates { print(update) }   // 134 fixes, one every 10 s / 60
/// ```
public final class ReplayProvider: LocationProvider {
    /// How fast the track plays.
    public enum Speed: Hashable, Sendable, CustomStringConvertible {
        /// The track's own pace.
        case realTime
        /// `factor` times faster: `.scaled(60)` plays a minute of track per second. Must be > 0.
        case scaled(Double)
        /// No waiting between fixes.
        case asFastAsPossible

        /// The sleep before a fix that follows the previous one by `gapMilliseconds` of track
        /// time; nil when there is nothing to wait for.
        public func pause(forTrackGap gapMilliseconds: Int64) -> Duration? {
            guard gapMilliseconds > 0 else { return nil }
            switch self {
            case .realTime: return .milliseconds(gapMilliseconds)
            case .scaled(let factor): return .nanoseconds(Int64((Double(gapMilliseconds) * 1_000_000 / factor).rounded()))
            case .asFastAsPossible: return nil
            }
        }

        public var description: String {
            switch self {
            case .realTime: return "real time"
            case .scaled(let factor): return "×\(factor)"
            case .asFastAsPossible: return "as fast as possible"
            }
        }
    }

    public let name: String
    public let updates: AsyncStream<LocationUpdate>
    /// The track as given, in time order.
    public let fixes: [LocationFix]
    /// Lines of the file that were passed over (NMEA sentences with a bad checksum, no fix…);
    /// empty unless loaded with ``load(path:name:speed:rebase:defaultDate:clock:sleep:)``.
    public let skipped: [TrackFile.Skipped]
    public let speed: Speed
    public let rebase: Bool

    private let clock: any WallClock
    private let sleeper: @Sendable (Duration) async throws -> Void
    private let continuation: AsyncStream<LocationUpdate>.Continuation

    private enum Phase { case waiting, playing(Task<Void, Never>), stopped }
    private let phase = Mutex(Phase.waiting)

    /// A replay of `fixes` (in time order). `sleep` waits between fixes (tests pass a recorder).
    public convenience init(
        fixes: [LocationFix], name: String = "replay", speed: Speed = .realTime, rebase: Bool = true,
        clock: any WallClock,
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) {
        self.init(fixes: fixes, skipped: [], name: name, speed: speed, rebase: rebase, clock: clock, sleep: sleep)
    }

    init(
        fixes: [LocationFix], skipped: [TrackFile.Skipped], name: String, speed: Speed, rebase: Bool,
        clock: any WallClock, sleep: @escaping @Sendable (Duration) async throws -> Void
    ) {
        if case .scaled(let factor) = speed {
            precondition(factor > 0 && factor.isFinite, "ReplayProvider speed must be > 0, not \(factor)")
        }
        self.fixes = fixes
        self.skipped = skipped
        self.name = name
        self.speed = speed
        self.rebase = rebase
        self.clock = clock
        self.sleeper = sleep
        (updates, continuation) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
    }

    /// Reads and parses a track file (format from the extension, else the content) and makes
    /// a replay named `replay:PATH`. Errors name the file: `commute.gpx: cannot read: No such
    /// file or directory`, `commute.gpx:41: invalid latitude "95.2" (must be -90…90)`.
    public static func load(
        path: String, name: String? = nil, speed: Speed = .realTime, rebase: Bool = true,
        defaultDate: CivilDate? = nil, clock: any WallClock,
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    )
        throws(TrackFileError) -> ReplayProvider
    {
        let contents = try readTrack(path: path, defaultDate: defaultDate)
        return ReplayProvider(
            fixes: contents.fixes, skipped: contents.skipped, name: name ?? "replay:\(path)",
            speed: speed, rebase: rebase, clock: clock, sleep: sleep)
    }

    /// Reads and parses a track file without playing it (`chime geofence simulate`).
    public static func readTrack(path: String, defaultDate: CivilDate? = nil) throws(TrackFileError) -> TrackFile.Contents {
        try TrackFile.read(try readFile(path), file: path, defaultDate: defaultDate)
    }

    private static func readFile(_ path: String) throws(TrackFileError) -> [UInt8] {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw TrackFileError(file: path, line: 0, "cannot read: is a folder, not a track file")
        }
        guard let handle = fopen(path, "rb") else {
            throw TrackFileError(file: path, line: 0, "cannot read: \(String(cString: strerror(errno)))")
        }
        defer { fclose(handle) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = fread(&buffer, 1, buffer.count, handle)
            bytes.append(contentsOf: buffer[..<n])
            if n < buffer.count {
                if ferror(handle) != 0 {
                    throw TrackFileError(file: path, line: 0, "cannot read: \(String(cString: strerror(errno)))")
                }
                return bytes
            }
        }
    }

    public func request(_ tracking: TrackingRequest?) {
        guard tracking != nil else { return }
        phase.withLock { phase in
            guard case .waiting = phase else { return }
            phase = .playing(Task { [self] in await play() })
        }
    }

    /// Whether it has started and not been shut down (for tests).
    var hasStarted: Bool {
        phase.withLock { phase in
            if case .playing = phase { return true }
            return false
        }
    }

    public func shutdown() {
        let task = phase.withLock { phase -> Task<Void, Never>? in
            defer { phase = .stopped }
            if case .playing(let task) = phase { return task }
            return nil
        }
        task?.cancel()
        continuation.finish()
    }

    private func play() async {
        var previous: Int64?
        for fix in fixes {
            if let previous, let pause = speed.pause(forTrackGap: fix.timestampMilliseconds - previous) {
                do { try await sleeper(pause) } catch { break }
            }
            if Task.isCancelled { break }
            previous = fix.timestampMilliseconds
            var emitted = fix
            if rebase { emitted.timestampMilliseconds = clock.nowMilliseconds() }
            continuation.yield(.fix(emitted))
        }
        continuation.finish()
    }
}
