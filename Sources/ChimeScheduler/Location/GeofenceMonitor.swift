import ChimeCore
import ChimeStore
import Logging

/// Keeps the geofence engine armed from the store and turns fixes into firings: the fences of
/// every location alarm that is armed now (``GeofenceArming``), their states loaded from and
/// saved to the store, re-arming when items change or an event's window opens or closes, dwell
/// times that run out without a new fix, and the tracking level to ask of the provider.
///
/// Synchronous and owned by the scheduler's task (``SchedulerService``), like ``AlarmScheduler``.
///
/// ```swift
/// let monitor = GeofenceMonitor(store: store, settings: GeofenceSettings(), zone: zone, providerName: "geoclue")
/// try monitor.load(now: clock.now())
/// let firings = try monitor.process(fix, now: clock.now())
/// ```
public final class GeofenceMonitor {
    public let store: EventStore
    public let settings: GeofenceSettings
    public private(set) var zone: ZoneRules
    public let providerName: String
    let logger: Logger

    public private(set) var engine: GeofenceEngine
    private var keysOfItem: [String: [FiringKey]] = [:]
    /// When an event's arming window opens or closes next.
    public private(set) var nextArmingChange: Instant?
    /// A store error left the fences incomplete: arm everything again at the next chance.
    private var needsReload = false
    /// Statuses before the last fix, until its firings are delivered (see ``deliveryFailed()``).
    private var undo: [(key: FiringKey, status: FenceStatus)] = []

    private var requested: TrackingRequest?
    private var trackingAnchor: (point: Coordinate, nearest: Double?)?
    /// GeoClue could not serve a coarse level (a GPS-only machine): ask for exact from now on.
    private var coarseLevelsFailed = false
    /// The last fix saved for `chime geofence list`: saved again when fences change or a minute
    /// later, not on every fix (each save is a write transaction that wakes store observers).
    private var lastSavedFixMilliseconds: Int64?
    static let fixSaveIntervalMilliseconds: Int64 = 60_000

    public init(
        store: EventStore, settings: GeofenceSettings, zone: ZoneRules, providerName: String,
        logger: Logger = Logger(label: "chime.geofence")
    ) {
        self.store = store
        self.settings = settings
        self.zone = zone
        self.providerName = providerName
        self.logger = logger
        engine = GeofenceEngine(settings: settings)
    }

    /// The monitor's next deadline: an event's arming window, or a dwell time running out.
    public var nextDeadline: Instant? { [nextArmingChange, engine.nextDwellDeadline].compactMap { $0 }.min() }

    // MARK: Arming

    /// Arms every fence that is armed at `now`, with the states saved by an earlier run. The last
    /// fix of this run (not of an earlier one: the machine may have moved meanwhile) is kept.
    public func load(now: Instant) throws(StoreError) {
        let last = engine.lastFix
        needsReload = true
        engine = GeofenceEngine(settings: settings)
        keysOfItem = [:]
        nextArmingChange = nil
        trackingAnchor = nil
        let statuses = try store.geofences.statuses()
        for source in try store.locationAlarmSources(from: now) { arm(source, now: now, statuses: statuses) }
        try store.geofences.prune(keeping: Set(engine.fences.map(\.key)))
        needsReload = false
        if let last { engine.assumeLastFix(last) }
        logger.info("geofences armed", metadata: ["fences": "\(engine.count)", "provider": "\(providerName)"])
    }

    private func arm(_ source: AlarmSource, now: Instant, statuses: [FiringKey: FenceStatus]) {
        let armed = GeofenceArming.fences(for: source.item, replaced: source.replaced, at: now, zone: zone, settings: settings)
        for fence in armed.fences {
            engine.arm(fence, status: statuses[fence.key] ?? .unknown)
            keysOfItem[fence.key.item, default: []].append(fence.key)
        }
        if let change = armed.nextChange { nextArmingChange = min(nextArmingChange ?? change, change) }
    }

    /// Re-arms the items a change names, and settles new fences with the last fix; returns the
    /// firings that causes (only the `fire` initial-state policy can cause any).
    public func apply(_ changes: ChangeSet, now: Instant) throws(StoreError) -> [AlarmFiring] {
        if needsReload || changes.isTruncated || changes.changes.contains(where: { $0.entity == .calendar }) {
            try load(now: now)
            return try settle(now: now)
        }
        let ids = Set(changes.changes.map(\.identifier))
        needsReload = true  // until the fences of these items are armed again
        for id in ids { for key in keysOfItem.removeValue(forKey: id) ?? [] { engine.disarm(key) } }
        let sources = try store.locationAlarmSources(from: now, identifiers: ids)
        let statuses = try store.geofences.statuses(items: Set(sources.map(\.item.identifier)))
        for source in sources { arm(source, now: now, statuses: statuses) }
        needsReload = false
        trackingAnchor = nil
        return try settle(now: now)
    }

    /// The deadline came: an event's window opened or closed (arm again from the store), or a dwell
    /// time ran out (the last fix, still standing, confirms the crossing).
    public func wake(now: Instant) throws(StoreError) -> [AlarmFiring] {
        if needsReload || (nextArmingChange.map { $0 <= now } ?? false) { try load(now: now) }
        return try settle(now: now)
    }

    /// The wall clock was set or the machine resumed: fixes stamped before the last one are valid
    /// again; a new zone moves the local days events are armed on.
    public func clockChanged(zone newZone: ZoneRules, now: Instant) throws(StoreError) -> [AlarmFiring] {
        engine.clockWasSet(now: now)
        if newZone != zone || needsReload {
            zone = newZone
            try load(now: now)
        }
        return try wake(now: now)
    }

    /// Newly armed fences settle, and due dwell times end, on the last fix: GeoClue reports only
    /// moves beyond its threshold, so the last position stands until a new one comes.
    private func settle(now: Instant) throws(StoreError) -> [AlarmFiring] {
        guard engine.lastFix != nil else { return [] }
        return try record(engine.reevaluate(at: now), fix: nil, now: now)
    }

    // MARK: Fixes

    /// Evaluates a fix; saves the states that changed (and now and then the fix); returns the firings.
    public func process(_ fix: LocationFix, now: Instant) throws(StoreError) -> [AlarmFiring] {
        if needsReload { try load(now: now) }
        let step = engine.process(fix)
        if let reason = step.ignored {
            logger.debug("fix ignored", metadata: ["fix": "\(fix)", "reason": "\(reason)"])
            return []
        }
        let saveFix = !step.changed.isEmpty || lastSavedFixMilliseconds.map { fix.timestampMilliseconds - $0 >= Self.fixSaveIntervalMilliseconds } ?? true
        return try record(step, fix: saveFix ? fix : nil, now: now)
    }

    private func record(_ step: GeofenceStep, fix: LocationFix?, now: Instant) throws(StoreError) -> [AlarmFiring] {
        do {
            try store.geofences.saveStatuses(step.changed, fix: fix.map { StoredFix(fix: $0, provider: providerName) })
        } catch {
            engine.restore(step.previous)  // the next fix makes the same crossings again
            throw error
        }
        if let fix { lastSavedFixMilliseconds = fix.timestampMilliseconds }
        undo = step.previous
        for t in step.transitions {
            logger.log(
                level: t.fires ? .info : .debug, t.fires ? "geofence crossed" : "geofence state",
                metadata: [
                    "place": "\(t.fence.place.title)", "item": "\(t.fence.item.title)", "from": "\(t.from.rawValue)",
                    "to": "\(t.to.rawValue)", "distance_m": "\(Geodesy.metresText(t.distance))", "fires": "\(t.fires)"
                ])
        }
        // The fix's own time, not the daemon's: a replayed or delayed fix fires "when it happened".
        return step.firing.map { $0.fence.firing(at: min($0.fix.timestamp, now)) }
    }

    /// The firings of the last step could not be claimed or shown (a store error): put the fences
    /// back in memory, so the next fix crosses again and the delivery is retried.
    public func deliveryFailed() {
        engine.restore(undo)
        undo = []
    }

    // MARK: Tracking

    /// The provider could not give a position at the level asked. Below `exact` that usually means
    /// GPS is the only source (GeoClue runs it only for exact requests): ask for exact from now on.
    public func providerUnavailable() {
        if let level = requested?.accuracy, level < .exact, !coarseLevelsFailed {
            coarseLevelsFailed = true
            logger.notice("no position at \(level) accuracy: asking for exact positions from now on")
        }
    }

    /// The request to send to the provider when it differs from the last one sent; nil when
    /// nothing changed. `.some(nil)` means "stop locating" (no fence armed).
    public func trackingUpdate() -> TrackingRequest?? {
        let wanted = wantedTracking()
        switch (requested, wanted) {
        case (nil, nil): return nil
        case let (old?, new?) where old.asksSame(as: new): return nil
        default:
            requested = wanted
            logger.debug("tracking", metadata: ["request": "\(wanted.map { "\($0)" } ?? "stop: no fence armed")"])
            return .some(wanted)
        }
    }

    private func wantedTracking() -> TrackingRequest? {
        guard engine.count > 0 else { return nil }
        if coarseLevelsFailed {
            return TrackingRequest(
                accuracy: .exact, distanceThresholdMetres: 0, timeThresholdSeconds: 0,
                reason: "no position at coarser levels")
        }
        // Any fix with valid coordinates tells roughly where the user is, even one too coarse to
        // change a fence: distances are shortened by its inaccuracy.
        guard settings.adaptiveTracking, let seen = engine.lastSeen else {
            // No position yet: ask for the best, so the first fix comes quickly and is usable.
            return TrackingPolicy.request(nearestBoundary: 0, fenceCount: engine.count, adaptive: false)
                .map {
                    var r = $0; r.reason = settings.adaptiveTracking ? "no position yet" : r.reason; return r
                }
        }
        let point = seen.coordinate
        let slack = max(seen.horizontalAccuracy, 0)
        // Searching for the nearest boundary costs more than a fix: repeat it only after moving a
        // quarter of the way to it (at least 250 m); in between, nearest − moved is a safe estimate.
        let nearest: Double?
        if let anchor = trackingAnchor,
            case let moved = Geodesy.distance(anchor.point, point),
            moved < max(250, (anchor.nearest ?? TrackingPolicy.midMetres) / 4)
        {
            nearest = anchor.nearest.map { max($0 - moved, 0) }
        } else {
            nearest = engine.nearestBoundaryDistance(from: point, limit: TrackingPolicy.midMetres + slack)
            trackingAnchor = (point, nearest)
        }
        return TrackingPolicy.request(nearestBoundary: nearest.map { max($0 - slack, 0) }, fenceCount: engine.count, adaptive: true)
    }
}
