/// Turns a stream of position fixes into fence crossings: pure, no I/O, no clock (a fix carries
/// its own time).
///
/// Rules (documented in the README):
/// - A fence is entered when a fix lies within its radius, and left when a fix lies beyond the
///   radius plus a hysteresis margin that grows with the fix's inaccuracy
///   (``GeofenceSettings/leaveMargin(radius:accuracy:)``): jitter around the boundary cannot flap.
/// - Fixes less accurate than ``GeofenceSettings/maximumAccuracy`` and fixes older than the last
///   one are ignored for transitions.
/// - With a dwell time, a crossing counts only once the fixes have pointed to it for that long.
/// - The first usable fix after a fence is armed settles its state without firing, unless the
///   policy is ``InitialStatePolicy/fire``.
/// - A fix costs one grid lookup plus the fences near it, the fences the user is inside, and
///   those still unknown or dwelling (``GeofenceIndex``).
///
/// ```swift
/// var engine = GeofenceEngine(settings: GeofenceSettings())
/// engine.arm(fence)
/// for transition in engine.process(fix).transitions where transition.fires {
///     print(transition.fence.item.title)
/// }
/// ```
public struct GeofenceEngine: Sendable {
    public let settings: GeofenceSettings
    private var slots: [Geofence?] = []
    private var statuses: [FenceStatus] = []
    private var freeSlots: [Int32] = []
    private var slotOfKey: [FiringKey: Int32] = [:]
    private var index = GeofenceIndex()
    /// Fences whose state is not `outside` or that have a pending state: checked on every fix.
    private var watched: Set<Int32> = []
    /// The newest fix used for transitions.
    public private(set) var lastFix: LocationFix?
    /// The newest fix with valid coordinates, however inaccurate: where adaptive tracking looks from.
    public private(set) var lastSeen: LocationFix?

    public init(settings: GeofenceSettings) { self.settings = settings }

    // MARK: Arming

    public var count: Int { slotOfKey.count }
    public var fences: [Geofence] { slotOfKey.values.compactMap { slots[Int($0)] } }
    public func fence(_ key: FiringKey) -> Geofence? { slotOfKey[key].flatMap { slots[Int($0)] } }
    public func status(of key: FiringKey) -> FenceStatus? { slotOfKey[key].map { statuses[Int($0)] } }

    /// Arms a fence (replacing one with the same key), with a remembered status or unknown.
    public mutating func arm(_ fence: Geofence, status: FenceStatus = .unknown) {
        disarm(fence.key)
        let slot: Int32
        if let free = freeSlots.popLast() {
            slot = free
            slots[Int(slot)] = fence
            statuses[Int(slot)] = status
        } else {
            slot = Int32(slots.count)
            slots.append(fence)
            statuses.append(status)
        }
        slotOfKey[fence.key] = slot
        index.insert(slot, center: fence.center, radius: fence.radius)
        updateWatch(slot)
    }

    public mutating func disarm(_ key: FiringKey) {
        guard let slot = slotOfKey.removeValue(forKey: key), let fence = slots[Int(slot)] else { return }
        index.remove(slot, center: fence.center, radius: fence.radius)
        watched.remove(slot)
        slots[Int(slot)] = nil
        freeSlots.append(slot)
    }

    private mutating func updateWatch(_ slot: Int32) {
        let status = statuses[Int(slot)]
        if status.state != .outside || status.pending != nil { watched.insert(slot) } else { watched.remove(slot) }
    }

    // MARK: Fixes

    /// Evaluates one fix against the armed fences. Returns every state change (settling
    /// included) and which of them fire.
    public mutating func process(_ fix: LocationFix) -> GeofenceStep {
        if fix.coordinate.isValid, fix.timestampMilliseconds >= (lastSeen?.timestampMilliseconds ?? .min) { lastSeen = fix }
        if let reason = rejection(of: fix) { return GeofenceStep(transitions: [], changed: [], previous: [], ignored: reason) }
        lastFix = fix
        var candidates = watched
        index.forEachCandidate(at: fix.coordinate) { candidates.insert($0) }
        var step = GeofenceStep(transitions: [], changed: [], previous: [], ignored: nil)
        for slot in candidates {
            guard let fence = slots[Int(slot)] else { continue }
            let before = statuses[Int(slot)]
            let (after, transition) = evaluate(fence, before, fix)
            guard after != before else { continue }
            statuses[Int(slot)] = after
            updateWatch(slot)
            step.changed.append((fence.key, after))
            step.previous.append((fence.key, before))
            if let transition { step.transitions.append(transition) }
        }
        step.transitions.sort { ($0.fence.key) < ($1.fence.key) }
        return step
    }

    /// The last fix again, as if measured at `now`: no news means the user is still there. Lets a
    /// dwell time run out and newly armed fences settle without waiting for a move (GeoClue
    /// reports only moves beyond its threshold; a fixed position is reported once).
    public mutating func reevaluate(at now: Instant) -> GeofenceStep {
        guard var fix = lastFix else { return GeofenceStep(transitions: [], changed: [], previous: [], ignored: "no fix yet") }
        fix.timestampMilliseconds = max(fix.timestampMilliseconds, now.secondsSince1970 * 1000)
        return process(fix)
    }

    /// Takes `fix` as the last one without evaluating it (after re-arming from saved states, so
    /// that ``reevaluate(at:)`` can settle new fences with it).
    public mutating func assumeLastFix(_ fix: LocationFix) {
        lastFix = fix
        if lastSeen == nil { lastSeen = fix }
    }

    /// The wall clock was set back: fixes stamped before the last one are real again, and dwell
    /// times that started "in the future" start now.
    public mutating func clockWasSet(now: Instant) {
        lastFix = nil
        lastSeen = nil
        for slot in watched where statuses[Int(slot)].pendingSince.map({ $0 > now }) ?? false {
            statuses[Int(slot)].pendingSince = now
        }
    }

    /// When the earliest running dwell time ends (a crossing that then counts if nothing changed).
    public var nextDwellDeadline: Instant? {
        guard settings.dwellSeconds > 0 else { return nil }
        return watched.compactMap { statuses[Int($0)].pendingSince?.adding(settings.dwellSeconds) }.min()
    }

    /// Puts statuses back (a step whose result could not be saved or delivered: the next fix
    /// makes the same crossing again).
    public mutating func restore(_ saved: [(key: FiringKey, status: FenceStatus)]) {
        for (key, status) in saved {
            guard let slot = slotOfKey[key] else { continue }
            statuses[Int(slot)] = status
            updateWatch(slot)
        }
    }

    private func rejection(of fix: LocationFix) -> String? {
        guard fix.coordinate.isValid else { return "invalid coordinates \(fix.coordinate)" }
        guard fix.horizontalAccuracy.isFinite, fix.horizontalAccuracy >= 0 else { return "unknown accuracy" }
        if fix.horizontalAccuracy > settings.maximumAccuracy {
            return "accuracy \(Geodesy.metresText(fix.horizontalAccuracy)) m is worse than the \(Geodesy.metresText(settings.maximumAccuracy)) m limit"
        }
        if let last = lastFix, fix.timestampMilliseconds < last.timestampMilliseconds { return "older than the last fix" }
        return nil
    }

    /// Where a fix puts the user for one fence: inside, outside, or nil in the hysteresis band.
    func observedState(_ fence: Geofence, distance: Double, accuracy: Double, settled: Bool) -> FenceState? {
        if distance <= fence.radius { return .inside }
        // Settling from unknown has no band: anything beyond the radius is outside.
        if !settled || distance > fence.radius + settings.leaveMargin(radius: fence.radius, accuracy: accuracy) { return .outside }
        return nil
    }

    private func evaluate(_ fence: Geofence, _ status: FenceStatus, _ fix: LocationFix) -> (FenceStatus, FenceTransition?) {
        let distance = Geodesy.distance(fence.center, fix.coordinate)
        let at = fix.timestamp
        let settled = status.state != .unknown
        let observed = observedState(fence, distance: distance, accuracy: fix.horizontalAccuracy, settled: settled)
        guard let observed, observed != status.state else {
            // Confirms the current state or sits in the band: a pending crossing is off.
            var same = status
            same.pending = nil
            same.pendingSince = nil
            return (same, nil)
        }
        if settled && settings.dwellSeconds > 0 {
            guard status.pending == observed, let since = status.pendingSince else {
                return (FenceStatus(state: status.state, since: status.since, pending: observed, pendingSince: at), nil)
            }
            if at.secondsSince1970 - since.secondsSince1970 < settings.dwellSeconds { return (status, nil) }
        }
        let fires = settled || settings.initialState == .fire ? observed == fence.firingState : false
        let transition = FenceTransition(
            fence: fence, from: status.state, to: observed, fix: fix, distance: distance,
            fires: fires)
        return (FenceStatus(state: observed, since: at), transition)
    }

    // MARK: Tracking

    /// Metres from `point` to the nearest fence boundary within `limit` metres (0 when `point`
    /// is on a boundary); nil when no fence boundary is that close.
    public func nearestBoundaryDistance(from point: Coordinate, limit: Double) -> Double? {
        var best: Double?
        func consider(_ slot: Int32) {
            guard let fence = slots[Int(slot)] else { return }
            let d = abs(Geodesy.distance(fence.center, point) - fence.radius)
            if d <= limit, d < (best ?? .infinity) { best = d }
        }
        // Near the poles grid cells shrink to nothing east–west, and across the antimeridian the
        // grid does not wrap: there, look at every fence (rare places, rarely asked).
        guard let rings = index.ringCount(around: point, metres: limit) else {
            for slot in slotOfKey.values { consider(slot) }
            return best
        }
        for slot in index.large { consider(slot) }
        for ring in 0...rings {
            let ringDistance = index.forEachInRing(ring, around: point, { consider($0) })
            // Fences are listed in every cell their circle's box touches, so a boundary first met
            // in a later ring is at least that ring's distance away: stop once the best is nearer.
            if let b = best, b <= ringDistance { break }
        }
        return best
    }
}

/// One change of a fence's state.
public struct FenceTransition: Hashable, Sendable {
    public var fence: Geofence
    public var from: FenceState
    public var to: FenceState
    public var fix: LocationFix
    /// Metres from the fence's centre to the fix.
    public var distance: Double
    /// True when this change fires the fence's alarm.
    public var fires: Bool
}

/// The result of one fix.
public struct GeofenceStep: Sendable {
    /// State changes (settling from unknown included), in key order.
    public var transitions: [FenceTransition]
    /// Every fence whose persisted status changed (dwell bookkeeping included): what to save.
    public var changed: [(key: FiringKey, status: FenceStatus)]
    /// Their statuses before this fix (for ``GeofenceEngine/restore(_:)``).
    public var previous: [(key: FiringKey, status: FenceStatus)]
    /// Why the fix was not used, or nil.
    public var ignored: String?

    public var firing: [FenceTransition] { transitions.filter(\.fires) }
}
