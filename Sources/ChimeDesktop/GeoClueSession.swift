import ChimeCore
import ChimeScheduler

/// What ``GeoClueProvider`` wants from GeoClue2 and what it has, on the provider's loop thread:
/// the requested tracking, the one live ``GeoClueLocator``, whether an outage was already
/// reported, and the retry being waited for.
///
/// ```swift
/// session.apply(request)        // start, retune thresholds, or recreate for another accuracy
/// session.apply(nil)            // stop locating
/// session.retryDue(token)       // the provider's retry wait for `token` is over
/// session.close()               // on shutdown
/// ```
final class GeoClueSession {
    struct Settings: Sendable {
        var desktopID: String
        var startTimeoutMilliseconds: UInt32
    }

    private let settings: Settings
    private let context: OpaquePointer
    private let report: @Sendable (LocationUpdate) -> Void
    private let scheduleRetry: @Sendable (_ token: Int) -> Void
    private let clientCreated: @Sendable () -> Void

    private var wanted: TrackingRequest?
    private var locator: GeoClueLocator?
    /// `.unavailable` was reported and no position came since: later failures stay quiet.
    private var inOutage = false
    /// The retry being waited for; a request coming meanwhile only changes what it will ask.
    private var pendingRetry: Int?
    /// The accuracy level the failed start asked for: a request for another level does not wait
    /// for the retry (a GPS-only machine serves no city level, and exact must start at once).
    private var failedAccuracy: TrackingRequest.Accuracy?
    private var lastRetryToken = 0
    private var isClosed = false

    init(
        settings: Settings, context: OpaquePointer, report: @escaping @Sendable (LocationUpdate) -> Void,
        scheduleRetry: @escaping @Sendable (_ token: Int) -> Void, clientCreated: @escaping @Sendable () -> Void
    ) {
        self.settings = settings
        self.context = context
        self.report = report
        self.scheduleRetry = scheduleRetry
        self.clientCreated = clientCreated
    }

    func apply(_ request: TrackingRequest?) {
        guard !isClosed else { return }
        wanted = request
        guard let request else {
            pendingRetry = nil
            stopLocating()
            return
        }
        if pendingRetry != nil {
            guard request.accuracy != failedAccuracy else { return }  // the retry will ask for it
            pendingRetry = nil
        }
        if let locator, locator.accuracy == request.accuracy {
            locator.setThresholds(
                distanceMetres: Self.threshold(request.distanceThresholdMetres),
                timeSeconds: Self.threshold(request.timeThresholdSeconds))
        } else {
            // GeoClue fixes a client's accuracy level at Start: another level needs another client.
            stopLocating()
            startLocating(request)
        }
    }

    func retryDue(_ token: Int) {
        guard !isClosed, pendingRetry == token else { return }
        pendingRetry = nil
        if let wanted { startLocating(wanted) }
    }

    func close() {
        isClosed = true
        pendingRetry = nil
        stopLocating()
    }

    private func startLocating(_ request: TrackingRequest) {
        let locator = GeoClueLocator(
            desktopID: settings.desktopID, accuracy: request.accuracy,
            distanceThresholdMetres: Self.threshold(request.distanceThresholdMetres),
            timeThresholdSeconds: Self.threshold(request.timeThresholdSeconds),
            startTimeoutMilliseconds: settings.startTimeoutMilliseconds, context: context,
            clientCreated: clientCreated
        ) { [weak self] locator, event in
            self?.handle(event, from: locator)
        }
        self.locator = locator
        locator.start()
    }

    private func stopLocating() {
        locator?.close()
        locator = nil
    }

    private func handle(_ event: GeoClueLocator.Event, from sender: GeoClueLocator) {
        guard !isClosed, sender === locator else { return }
        switch event {
        case .fix(let fix):
            inOutage = false
            report(.fix(fix))
        case .failed(let message):
            locator = nil  // it closed itself
            failedAccuracy = sender.accuracy
            if !inOutage {
                inOutage = true
                report(.unavailable(message))
            }
            guard wanted != nil else { return }
            lastRetryToken += 1
            pendingRetry = lastRetryToken
            scheduleRetry(lastRetryToken)
        }
    }

    private static func threshold(_ value: Int) -> UInt32 {
        UInt32(clamping: max(0, value))
    }
}
