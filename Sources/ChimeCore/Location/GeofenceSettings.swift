/// The geofence engine's knobs (the `[geofence]` table of the daemon's config).
///
/// ```swift
/// var settings = GeofenceSettings()
/// settings.dwellSeconds = 60        // a crossing must hold for a minute before it fires
/// ```
public struct GeofenceSettings: Hashable, Sendable {
    /// Used when an alarm's radius is 0 (EventKit's "default radius"). Metres.
    public var defaultRadius: Double = 150
    /// Smaller radii are raised to this: a laptop's position is rarely better than ~50 m. Metres.
    public var minimumRadius: Double = 50
    /// Leaving needs the fix beyond radius + max(this, ``hysteresisFraction`` × radius) + the
    /// fix's accuracy; entering needs it within the radius. Metres.
    public var hysteresisMetres: Double = 50
    public var hysteresisFraction: Double = 0.25
    /// Fixes less accurate than this (metres) never cause a transition.
    public var maximumAccuracy: Double = 250
    /// A crossing must hold for this long (seconds, by the fixes' times) before it counts; 0 = at once.
    public var dwellSeconds: Int64 = 0
    public var initialState: InitialStatePolicy = .settle
    /// When an event's location alarms are armed: from this many hours before the occurrence
    /// starts until it ends; nil (the default) = the local day(s) of the occurrence.
    public var eventArmingHours: Int? = nil
    /// Ask the provider for coarse positions while every fence is far away.
    public var adaptiveTracking: Bool = true

    public init() {}

    /// The radius in force for an alarm's radius.
    public func effectiveRadius(_ alarmRadius: Double) -> Double {
        max(alarmRadius > 0 ? alarmRadius : defaultRadius, minimumRadius)
    }

    /// Distance beyond the radius that counts as "left", for a fix of this accuracy.
    public func leaveMargin(radius: Double, accuracy: Double) -> Double {
        max(hysteresisMetres, hysteresisFraction * radius) + max(accuracy, 0)
    }
}
