/// Replays a track through the geofence engine against a set of items: the location preview
/// (`chime geofence simulate`). Fences are armed as of each fix's time, exactly as the daemon
/// arms them, starting from unknown states (a preview ignores what the daemon has saved).
///
/// ```swift
/// let result = GeofenceSimulation.run(items: sources, fixes: track, zone: zone, settings: GeofenceSettings())
/// for crossing in result.firings { print(crossing.fix.timestamp, crossing.fence.item.title) }
/// ```
public enum GeofenceSimulation {
    public struct Result: Sendable {
        /// Every crossing that fires, in time order; each fence fires at most once (the ledger's rule).
        public var firings: [FenceTransition]
        /// Fixes not used, with the reason, in order.
        public var ignored: [(fix: LocationFix, reason: String)]
        /// Fences armed at some point of the track.
        public var armedFences: Int
    }

    public static func run(
        items: [(item: AnyCalendarItem, replaced: Set<Int64>)], fixes: [LocationFix], zone: ZoneRules,
        settings: GeofenceSettings
    ) -> Result {
        var engine = GeofenceEngine(settings: settings)
        var result = Result(firings: [], ignored: [], armedFences: 0)
        var everArmed = Set<FiringKey>()
        var fired = Set<FiringKey>()
        var nextChange: Instant?
        var armedAt: Instant?

        func arm(at now: Instant) {
            var current: [FiringKey: Geofence] = [:]
            nextChange = nil
            for (item, replaced) in items {
                let armed = GeofenceArming.fences(for: item, replaced: replaced, at: now, zone: zone, settings: settings)
                for fence in armed.fences { current[fence.key] = fence }
                if let change = armed.nextChange { nextChange = min(nextChange ?? change, change) }
            }
            for fence in engine.fences where current[fence.key] == nil { engine.disarm(fence.key) }
            for (key, fence) in current where engine.fence(key) == nil {
                engine.arm(fence)
                everArmed.insert(key)
            }
            armedAt = now
        }

        for fix in fixes {
            if armedAt == nil || (nextChange.map { $0 <= fix.timestamp } ?? false) { arm(at: fix.timestamp) }
            let step = engine.process(fix)
            if let reason = step.ignored { result.ignored.append((fix, reason)) }
            for crossing in step.firing where fired.insert(crossing.fence.key).inserted { result.firings.append(crossing) }
        }
        result.armedFences = everArmed.count
        return result
    }
}
