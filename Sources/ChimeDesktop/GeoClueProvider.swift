import ChimeCore
import ChimeScheduler
import Synchronization

/// Positions from GeoClue2, the location service of the Linux desktop, on the system bus.
///
/// Nothing touches D-Bus until the first non-nil ``request(_:)``. Then a GLib loop thread of its
/// own ("chime-geoclue") creates and starts a GeoClue client with the requested accuracy level and
/// thresholds, and every position GeoClue reports arrives in ``updates``. When GeoClue cannot be
/// reached, refuses the app, or gives no position within `startTimeout`, ``updates`` says
/// `.unavailable` once for the whole outage and the provider tries again every `retryInterval`
/// while a request is active; the next position ends the outage.
///
/// GeoClue must allow the desktop id (`Config/geoclue-chime.conf`); GeoClue 2.6 also serves no
/// client until a location agent runs for the user (desktops start one).
///
/// ```swift
/// let provider = GeoClueProvider()              // desktop id "chime"
/// provider.request(TrackingRequest(accuracy: .exact, distanceThresholdMetres: 50, timeThresholdSeconds: 0,
///                                  reason: "fence boundary 120 m away"))
/// for await update in provider.updates {
///     switch update {
///     case .fix(let fix): print(fix)             // 48.85840,2.29450 ±1 m @ 20261201T090000Z
///     case .unavailable(let why): print(why)     // GeoClue2 refused to locate for "chime": …
///     }
/// }
/// ```
public final class GeoClueProvider: LocationProvider {
    public let name = "geoclue"
    public let updates: AsyncStream<LocationUpdate>
    private let continuation: AsyncStream<LocationUpdate>.Continuation
    private let settings: GeoClueSession.Settings
    private let retry: GeoClueRetryTimer
    private let state = Mutex(State())
    /// Counters for tests and debugging.
    let statistics = GeoClueStatistics()

    private struct State {
        var loop: GeoClueLoop?
        var isShutDown = false
    }

    /// Prepares the provider; nothing starts before the first ``request(_:)``.
    ///
    /// ```swift
    /// let provider = GeoClueProvider(desktopID: "chime", startTimeout: .seconds(20), retryInterval: .seconds(60))
    /// ```
    /// - Parameters:
    ///   - desktopID: the `.desktop` file name without its extension; GeoClue's configuration
    ///     allows or denies apps by it.
    ///   - startTimeout: how long a start may take to give its first position before it counts as failed.
    ///   - retryInterval: the wait between attempts while GeoClue is unavailable.
    ///   - sleep: how the retry waits; tests inject their own.
    public init(
        desktopID: String = "chime", startTimeout: Duration = .seconds(20), retryInterval: Duration = .seconds(60),
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) {
        (updates, continuation) = AsyncStream.makeStream(of: LocationUpdate.self)
        settings = GeoClueSession.Settings(
            desktopID: desktopID,
            startTimeoutMilliseconds: Self.milliseconds(startTimeout))
        retry = GeoClueRetryTimer(interval: retryInterval, sleep: sleep)
    }

    /// Asks GeoClue for this accuracy and these thresholds from now on; nil stops locating (GeoClue
    /// turns its sources off). Returns at once: the work happens on the provider's loop thread.
    ///
    /// ```swift
    /// provider.request(TrackingRequest(accuracy: .exact, distanceThresholdMetres: 1_000, timeThresholdSeconds: 60,
    ///                                  reason: "nearest fence 4.2 km away"))   // same client, new thresholds
    /// provider.request(nil)                                                   // no fence armed
    /// ```
    public func request(_ tracking: TrackingRequest?) {
        state.withLock { state in
            guard !state.isShutDown else { return }
            if state.loop == nil {
                guard tracking != nil else { return }
                state.loop = makeLoop()
            }
            // Posted under the lock, so the loop sees requests in the order they were made.
            state.loop?.post { $0.apply(tracking) }
        }
    }

    /// Stops locating, ends the loop thread and finishes ``updates``. Idempotent. Waits only for
    /// the loop thread to finish the work already queued, never for a reply from D-Bus.
    ///
    /// ```swift
    /// provider.shutdown()
    /// ```
    public func shutdown() {
        let loop = state.withLock { state -> GeoClueLoop?? in
            guard !state.isShutDown else { return nil }
            state.isShutDown = true
            defer { state.loop = nil }
            return .some(state.loop)
        }
        guard let loop else { return }
        retry.cancel()
        loop?.close()
        continuation.finish()
    }

    deinit { shutdown() }

    private func makeLoop() -> GeoClueLoop {
        let settings = self.settings
        let continuation = self.continuation
        let retry = self.retry
        let statistics = self.statistics
        let loop = GeoClueLoop { context in
            GeoClueSession(
                settings: settings, context: context,
                report: { continuation.yield($0) },
                scheduleRetry: { retry.schedule($0) },
                clientCreated: { statistics.clientsCreated.add(1, ordering: .relaxed) })
        }
        retry.attach(loop)
        return loop
    }

    private static func milliseconds(_ duration: Duration) -> UInt32 {
        let (seconds, attoseconds) = duration.components
        let total = Double(seconds) * 1000 + Double(attoseconds) / 1e15
        return UInt32(clamping: Int64(max(1, min(total.rounded(.up), Double(UInt32.max)))))
    }
}

/// Counters for tests and debugging.
final class GeoClueStatistics: Sendable {
    /// GeoClue clients created so far: a threshold change keeps the client, an accuracy change
    /// and each retry create one.
    let clientsCreated = Atomic<Int>(0)
}

/// The provider's loop thread with the session confined to it. Reachable from any thread until
/// ``close()``; nothing is queued after that.
final class GeoClueLoop: Sendable {
    private let thread: GLibMainLoopThread
    private let session: LoopConfined<GeoClueSession>
    private let isOpen = Mutex(true)

    init(makeSession: (_ context: OpaquePointer) -> GeoClueSession) {
        thread = GLibMainLoopThread(name: "chime-geoclue")
        session = LoopConfined(makeSession(thread.mainContext))
    }

    /// Runs `work` on the loop thread later; does nothing once closed.
    func post(_ work: @escaping (GeoClueSession) -> Void) {
        let session = self.session
        isOpen.withLock { isOpen in
            guard isOpen else { return }
            thread.post { work(session.value) }
        }
    }

    /// Closes the session on the loop thread, then ends the thread. Idempotent; not on the loop thread.
    func close() {
        let session = self.session
        let wasOpen = isOpen.withLock { isOpen -> Bool in
            guard isOpen else { return false }
            isOpen = false
            thread.post { session.value.close() }
            return true
        }
        if wasOpen { thread.stop() }
    }

    deinit { close() }
}

/// Waits between attempts through the injected `sleep`, then tells the session on the loop thread.
final class GeoClueRetryTimer: Sendable {
    private let interval: Duration
    private let sleep: @Sendable (Duration) async throws -> Void
    private let state = Mutex(State())

    private struct State {
        var task: Task<Void, Never>?
        /// Weak: the loop owns the session, whose closure owns this timer.
        weak var loop: GeoClueLoop?
    }

    init(interval: Duration, sleep: @escaping @Sendable (Duration) async throws -> Void) {
        self.interval = interval
        self.sleep = sleep
    }

    func attach(_ loop: GeoClueLoop) {
        state.withLock { $0.loop = loop }
    }

    /// Called on the loop thread; the wait runs on the cooperative pool, never on the loop thread.
    func schedule(_ token: Int) {
        let (interval, sleep) = (self.interval, self.sleep)
        state.withLock { state in
            state.task?.cancel()
            guard let loop = state.loop else { return }
            state.task = Task { [weak loop] in
                do { try await sleep(interval) } catch { return }
                loop?.post { $0.retryDue(token) }
            }
        }
    }

    func cancel() {
        state.withLock { state in
            state.task?.cancel()
            state.task = nil
        }
    }
}
