import ChimeCore
import ChimeStore

/// What `chime alarms` and the D-Bus service's `UpcomingAlarms` list: the firings of a window in
/// time order (with the ones answered on another device, which do not ring), their ledger states,
/// and the armed location alarms.
///
/// ```swift
/// let listing = try AlarmListing(store, zone: zone, from: now, to: now.adding(48 * 3600),
///                                defaults: try store.alarmDefaults(AlarmDefaults()))
/// AlarmsWriter(zone: zone).json(listing.firings, states: listing.states, armed: listing.armed, to: &out)
/// ```
public struct AlarmListing {
    public let firings: [AlarmFiring]
    public let states: [FiringKey: LedgerEntry]
    public let armed: [AlarmSource]

    /// `defaults`: the alarm settings that decide what rings (with the accounts' addresses);
    /// `includesSilenced`: also the alarms of items that do not ring (cancelled, declined), each
    /// marked with why (``AlarmFiring/silencedBecause``).
    public init(
        _ store: EventStore, zone: ZoneRules, from start: Instant, to end: Instant, defaults: AlarmDefaults,
        includesSilenced: Bool = false
    ) throws(StoreError) {
        let sources = try store.alarmSources(from: start)
        firings = AlarmAgenda.firings(
            of: sources.map { ($0.item, $0.replaced) }, zone: zone, from: start, to: end, defaults: defaults,
            includesAnswered: true, includesSilenced: includesSilenced
        )
        .sorted { ($0.fireAt, $0.item.title, $0.key) < ($1.fireAt, $1.item.title, $1.key) }
        states = try store.ledger.entries(for: firings.map(\.key))
        armed = try store.locationAlarmSources(from: start)
    }
}
