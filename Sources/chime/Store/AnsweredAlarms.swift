import ChimeCore
import ChimeFormat
import ChimeStore

/// The alarm firings `chime dismiss` and `chime snooze` answer: given by key (as `chime alarms
/// --json` and the D-Bus `AlarmFired` signal print it) or by item reference (every alarm of the
/// item that rang in the last 24 hours and is not answered, and any snooze of it still to ring).
struct AnsweredAlarms {
    /// The firings to answer.
    var keys: [FiringKey] = []
    /// Those that rang while no daemon recorded them: recorded as missed first, so that the
    /// ledger has a row to answer.
    var unrecorded: [AlarmFiring] = []

    init(_ targets: [String], in store: EventStore, now: Instant, zone: ZoneRules, defaults: AlarmDefaults) throws {
        let listing = try AlarmListing(store, zone: zone, from: now.adding(-86_400), to: now, defaults: defaults)
        let open = listing.firings.filter { $0.acknowledgedAt == nil }
        let snoozed = try store.ledger.entries(state: .snoozed)
        let recorded = try store.ledger.entries(for: open.map(\.key))
        func take(_ firings: [AlarmFiring], _ snoozedKeys: [FiringKey]) {
            for firing in firings where !keys.contains(firing.key) {
                keys.append(firing.key)
                if recorded[firing.key] == nil { unrecorded.append(firing) }
            }
            for key in snoozedKeys where !keys.contains(key) { keys.append(key) }
        }
        for target in targets {
            if let key = FiringKey(parsing: target) {
                let firings = open.filter { $0.key == key }, snoozedKeys = snoozed.map(\.key).filter { $0 == key }
                guard !firings.isEmpty || !snoozedKeys.isEmpty else {
                    throw InputError(
                        translatable:
                            "{key}: no such alarm rang in the last 24 hours, or it is answered already (`chime alarms --from yesterday --json` lists them with their keys)",
                        ["key": DisplayText.singleLine(target)])
                }
                take(firings, snoozedKeys)
                continue
            }
            let reference = try ItemReference(target)
            let identifier = try reference.resolvedIdentifier(in: store)
            let occurrence = reference.occurrence?.instant(in: store.floatingZone)
            let firings = open.filter { $0.item.identifier == identifier && (occurrence == nil || $0.occurrenceStart == occurrence) }
            let snoozedKeys = snoozed.map(\.key).filter { $0.item == identifier && (occurrence == nil || $0.occurrence == occurrence) }
            guard !firings.isEmpty || !snoozedKeys.isEmpty else {
                throw InputError(
                    translatable: "{item}: no alarm of it rang in the last 24 hours that is not answered yet (`chime alarms --from yesterday` lists them)",
                    ["item": DisplayText.singleLine(target)])
            }
            take(firings, snoozedKeys)
        }
    }
}
