/// A circle armed from one location alarm of one item (for events: of one occurrence).
///
/// Its key is the ledger key of the firing it would cause, so "at most once" holds for
/// location alarms exactly as for timed ones.
///
/// ```swift
/// let fence = Geofence(key: key, place: office, radius: 150, proximity: .leave, item: ItemSummary(reminder),
///                      occurrenceStart: nil, occurrenceEnd: nil)
/// ```
public struct Geofence: Hashable, Sendable {
    public var key: FiringKey
    public var place: StructuredLocation
    /// The radius in force, in metres: the alarm's own, or the default when it says 0, never
    /// below the minimum (``GeofenceSettings``).
    public var radius: Double
    public var proximity: Proximity
    public var item: ItemSummary
    /// The occurrence (events) or due instant (reminders) the alarm belongs to, for the notification.
    public var occurrenceStart: Instant?
    public var occurrenceEnd: Instant?

    public init(
        key: FiringKey, place: StructuredLocation, radius: Double, proximity: Proximity, item: ItemSummary,
        occurrenceStart: Instant?, occurrenceEnd: Instant?
    ) {
        self.key = key
        self.place = place
        self.radius = radius
        self.proximity = proximity
        self.item = item
        self.occurrenceStart = occurrenceStart
        self.occurrenceEnd = occurrenceEnd
    }

    public var center: Coordinate { Coordinate(latitude: place.latitude, longitude: place.longitude) }

    /// The state whose reaching fires the alarm: inside for "arrive", outside for "leave".
    public var firingState: FenceState { proximity == .enter ? .inside : .outside }

    /// The firing this fence causes when it triggers at `instant`.
    public func firing(at instant: Instant) -> AlarmFiring {
        AlarmFiring(
            key: key, fireAt: instant, alarm: .location(place, proximity), item: item,
            occurrenceStart: occurrenceStart, occurrenceEnd: occurrenceEnd)
    }
}

/// Where the user is relative to a fence, as far as Chime knows.
public enum FenceState: String, Hashable, Sendable, CaseIterable {
    /// No usable fix since the fence was armed.
    case unknown
    case inside
    case outside
}

/// A fence's persisted state: the settled state and, while a dwell time runs, the state the
/// fixes point to and since when.
public struct FenceStatus: Hashable, Sendable {
    public var state: FenceState
    /// When `state` was reached (the fix's time).
    public var since: Instant?
    /// The state the latest fixes point to, not yet held for the dwell time.
    public var pending: FenceState?
    public var pendingSince: Instant?

    public init(state: FenceState = .unknown, since: Instant? = nil, pending: FenceState? = nil, pendingSince: Instant? = nil) {
        self.state = state
        self.since = since
        self.pending = pending
        self.pendingSince = pendingSince
    }

    public static let unknown = FenceStatus()
}

/// What happens when the first usable fix after arming finds the user already on the firing
/// side of a fence (inside an "arrive" fence, outside a "leave" fence).
public enum InitialStatePolicy: String, Hashable, Sendable, CaseIterable {
    /// The default: the first fix only records the state; the alarm fires on the next real
    /// crossing. Adding "remind me when I arrive at the office" while at the office does not
    /// fire at once (Core Location behaves the same way).
    case settle
    /// The first fix fires the alarm when it finds the user on the firing side already.
    case fire
}

extension Alarm.Trigger {
    /// The ledger key part of a location alarm: `enter@52.52000,13.40500/150` (the alarm's own
    /// radius, so a new default radius does not make new keys); nil for timed alarms.
    public var locationKeyText: String? {
        guard case .location(let place, let proximity) = self else { return nil }
        let center = Coordinate(latitude: place.latitude, longitude: place.longitude)
        return "\(proximity.rawValue)@\(center)/\(Geodesy.metresText(place.radius))"
    }
}
