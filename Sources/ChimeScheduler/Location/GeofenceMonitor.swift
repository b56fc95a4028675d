import ChimeCore
import ChimeStore
import Logging

/// Keeps the geofence engine armed from the store and turns fixes into firings: the fences of
/// every location alarm that is armed now (``GeofenceArming``), their states loaded from and
/// saved to the store, re-arming when items change or an event's window opens or closes, and
/// the tracking level to ask of the provider.
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
    private var requested: TrackingRequest?
    private var trackingAnchor: (point: Coordinate, nearest: Double?)?
    /// A fix this recent settles newly armed fences at once instead of waiting for the next one.
    public static let settleWithLastFixSeconds: Int64 = 15 * 60

    public init(store: EventStore, settings: GeofenceSettings, zone: ZoneRules, providerName: String,
                logger: Logger = Logger(label: "chime.geofence")) {
        self.store = store
        self.settings = settings
        self.zone = zone
        self.providerName = providerName
        self.logger = logger
        engine = GeofenceEngine(settings: settings)
    }

    // MARK: Arming

    /// Arms every fence that is armed at `now`, with the states saved by an earlier run.
    public func load(now: Instant) throws(StoreError) {
        engine = GeofenceEngine(settings: settings)
        keysOfItem = [:]
        nextArmingChange = nil
        trackingAnchor = nil
        let statuses = try store.geofenceStatuses()
        for source in try store.locationAlarmSources(from: now) { arm(source, now: now, statuses: statuses) }
        try store.pruneGeofenceStatuses(keeping: Set(engine.fences.map(\.key)))
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

    /// Re-arms the items a change names; returns the firings caused by settling new fences on a
    /// recent fix (only with the `fire` initial-state policy can there be any).
    public func apply(_ changes: ChangeSet, now: Instant) throws(StoreError) -> [AlarmFiring] {
        if changes.isTruncated || changes.changes.contains(where: { $0.entity == .calendar }) {
            let last = engine.lastFix
            try load(now: now)
            return try settle(with: last, now: now)
        }
        let ids = Set(changes.changes.map(\.identifier))
        for id in ids { for key in keysOfItem.removeValue(forKey: id) ?? [] { engine.disarm(key) } }
        let statuses = try store.geofenceStatuses()
        for source in try store.locationAlarmSources(from: now, identifiers: ids) { arm(source, now: now, statuses: statuses) }
        trackingAnchor = nil
        return try settle(with: engine.lastFix, now: now)
    }

    /// An event's arming window opened or closed: arm again from the store.
    public func armingChanged(now: Instant) throws(StoreError) -> [AlarmFiring] {
        guard let change = nextArmingChange, change <= now else { return [] }
        let last = engine.lastFix
        try load(now: now)
        return try settle(with: last, now: now)
    }

    /// The time zone changed: event windows are local days.
    public func zoneChanged(_ newZone: ZoneRules, now: Instant) throws(StoreError) -> [AlarmFiring] {
        guard newZone != zone else { return [] }
        zone = newZone
        let last = engine.lastFix
        try load(now: now)
        return try settle(with: last, now: now)
    }

    private func settle(with fix: LocationFix?, now: Instant) throws(StoreError) -> [AlarmFiring] {
        guard let fix, now.secondsSince1970 - fix.timestamp.secondsSince1970 <= Self.settleWithLastFixSeconds else { return [] }
        return try process(fix, now: now, save: false)
    }

    // MARK: Fixes

    /// Evaluates a fix; saves the states that changed and the fix; returns the firings.
    public func process(_ fix: LocationFix, now: Instant) throws(StoreError) -> [AlarmFiring] {
        try process(fix, now: now, save: true)
    }

    private func process(_ fix: LocationFix, now: Instant, save saveFix: Bool) throws(StoreError) -> [AlarmFiring] {
        let step = engine.process(fix)
        if let reason = step.ignored {
            logger.debug("fix ignored", metadata: ["fix": "\(fix)", "reason": "\(reason)"])
            return []
        }
        try store.saveGeofenceStatuses(step.changed, fix: saveFix ? StoredFix(fix: fix, provider: providerName) : nil)
        for t in step.transitions {
            logger.log(level: t.fires ? .info : .debug, t.fires ? "geofence crossed" : "geofence state", metadata: [
                "place": "\(t.fence.place.title)", "item": "\(t.fence.item.title)", "from": "\(t.from.rawValue)",
                "to": "\(t.to.rawValue)", "distance_m": "\(Int(t.distance.rounded()))", "fires": "\(t.fires)"])
        }
        // The fix's own time, not the daemon's: a replayed or delayed fix fires "when it happened".
        return step.firing.map { $0.fence.firing(at: min(fix.timestamp, now)) }
    }

    // MARK: Tracking

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
        guard settings.adaptiveTracking, let point = engine.lastFix?.coordinate else {
            // No position yet: ask for the best, so the first fix comes quickly and is usable.
            return TrackingPolicy.request(nearestBoundary: 0, fenceCount: engine.count, adaptive: false)
                .map { var r = $0; r.reason = settings.adaptiveTracking ? "no position yet" : r.reason; return r }
        }
        // Searching for the nearest boundary costs more than a fix: repeat it only after moving a
        // quarter of the way to it (at least 250 m); in between, nearest − moved is a safe estimate.
        let nearest: Double?
        if let anchor = trackingAnchor,
           case let moved = Geodesy.distance(anchor.point, point),
           moved < max(250, (anchor.nearest ?? TrackingPolicy.midMetres) / 4) {
            nearest = anchor.nearest.map { max($0 - moved, 0) }
        } else {
            nearest = engine.nearestBoundaryDistance(from: point, limit: TrackingPolicy.midMetres)
            trackingAnchor = (point, nearest)
        }
        return TrackingPolicy.request(nearestBoundary: nearest, fenceCount: engine.count, adaptive: true)
    }
}
