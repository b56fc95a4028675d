/// Which fences an item's location alarms arm at a given instant, and when that next changes.
///
/// - Incomplete reminders arm their fences until completed. A recurring reminder is stored as
///   its current instance, so completing it disarms that instance's fence and arms the next
///   one (a new key: its due date changed).
/// - Events arm a fence per occurrence, during the occurrence's local day(s) — or, with
///   ``GeofenceSettings/eventArmingHours``, from that many hours before it starts until it ends.
///   Occurrences overridden by detached copies are skipped (the copy arms its own).
///
/// ```swift
/// let armed = GeofenceArming.fences(for: item, replaced: [], at: now, zone: zone, settings: settings)
/// for fence in armed.fences { engine.arm(fence) }
/// ```
public enum GeofenceArming {
    public struct Armed: Sendable {
        public var fences: [Geofence]
        /// When this item's armed fences change next (an event's window opens or closes), or nil.
        public var nextChange: Instant?
    }

    public static func fences(
        for item: AnyCalendarItem, replaced: Set<Int64> = [], at now: Instant,
        zone: ZoneRules, settings: GeofenceSettings
    ) -> Armed {
        switch item {
        case .reminder(let reminder): return Armed(fences: fences(for: reminder, zone: zone, settings: settings), nextChange: nil)
        case .event(let event): return fences(for: event, replaced: replaced, at: now, zone: zone, settings: settings)
        }
    }

    static func fences(for reminder: Reminder, zone: ZoneRules, settings: GeofenceSettings) -> [Geofence] {
        guard !reminder.isCompleted else { return [] }
        let due = (reminder.dueDate ?? reminder.startDate)?.instant(floatingZone: zone)
        let summary = ItemSummary(reminder)
        return reminder.alarms.compactMap { alarm in
            fence(alarm, item: summary, occurrence: due ?? Instant(secondsSince1970: 0), start: due, end: nil, settings: settings)
        }
    }

    static func fences(
        for event: Event, replaced: Set<Int64>, at now: Instant, zone: ZoneRules,
        settings: GeofenceSettings
    ) -> Armed {
        let locationAlarms = event.alarms.filter { $0.trigger.locationKeyText != nil }
        guard !locationAlarms.isEmpty else { return Armed(fences: [], nextChange: nil) }
        let duration = event.durationSeconds(floatingZone: zone)
        let summary = ItemSummary(event)
        var armed = Armed(fences: [], nextChange: nil)
        func consider(_ start: Instant) -> Bool {
            let window = armingWindow(start: start, end: start.adding(duration), zone: zone, settings: settings)
            if window.lowerBound > now {
                armed.nextChange = min(armed.nextChange ?? window.lowerBound, window.lowerBound)
                return false  // occurrences come in order: nothing later is armed now
            }
            if window.upperBound > now {
                armed.nextChange = min(armed.nextChange ?? window.upperBound, window.upperBound)
                armed.fences += locationAlarms.compactMap {
                    fence($0, item: summary, occurrence: start, start: start, end: start.adding(duration), settings: settings)
                }
            }
            return true
        }
        if event.isRecurring {
            let lead = duration + 2 * 86_400 + Int64(settings.eventArmingHours ?? 0) * 3600
            var iterator = event.recurrenceSet.occurrences(near: now.adding(-lead), floatingZone: zone)
            var steps = 0
            while steps < 10_000, let occurrence = iterator.next() {
                steps += 1
                if replaced.contains(occurrence.instant.secondsSince1970) { continue }
                if !consider(occurrence.instant) { break }
            }
        } else {
            _ = consider(event.start.instant(floatingZone: zone))
        }
        return armed
    }

    /// The instants during which an occurrence's fences are armed.
    public static func armingWindow(start: Instant, end: Instant, zone: ZoneRules, settings: GeofenceSettings) -> Range<Instant> {
        if let hours = settings.eventArmingHours {
            return start.adding(-Int64(hours) * 3600)..<max(end, start.adding(1))
        }
        let firstDay = zone.localTime(at: start).date
        // An occurrence ending exactly at midnight does not arm the next day.
        let lastDay = zone.localTime(at: max(start, end.adding(-1))).date
        return zone.instant(for: LocalDateTime(date: firstDay))..<zone.instant(for: LocalDateTime(date: lastDay.adding(days: 1)))
    }

    static func fence(
        _ alarm: Alarm, item: ItemSummary, occurrence: Instant, start: Instant?, end: Instant?,
        settings: GeofenceSettings
    ) -> Geofence? {
        guard case .location(let place, let proximity) = alarm.trigger, let keyText = alarm.trigger.locationKeyText else { return nil }
        return Geofence(
            key: FiringKey(item: item.identifier, occurrence: occurrence, alarm: keyText), place: place,
            radius: settings.effectiveRadius(place.radius), proximity: proximity, item: item,
            occurrenceStart: start, occurrenceEnd: end)
    }
}
