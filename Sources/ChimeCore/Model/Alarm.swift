/// A place for a location alarm (EventKit's `EKStructuredLocation`).
///
/// A radius of 0 means "the default radius" chosen by the geofence engine.
///
/// ```swift
/// let office = StructuredLocation(title: "Office", latitude: 52.5200, longitude: 13.4050, radius: 150)
/// ```
public struct StructuredLocation: Hashable, Sendable {
    public var title: String
    public var latitude: Double
    public var longitude: Double
    /// Metres; 0 = the default radius.
    public var radius: Double

    public init(title: String, latitude: Double, longitude: Double, radius: Double = 0) {
        self.title = title
        self.latitude = latitude
        self.longitude = longitude
        self.radius = radius
    }

    /// The largest radius a place may have: 1,000 km (a geofence, not a continent).
    public static let maximumRadius = 1_000_000.0

    /// Throws when the coordinates or the radius cannot describe a place.
    public func validate() throws(ItemValidationError) {
        guard latitude.isFinite, (-90...90).contains(latitude) else { throw .latitudeOutOfRange(latitude) }
        guard longitude.isFinite, (-180...180).contains(longitude) else { throw .longitudeOutOfRange(longitude) }
        guard radius.isFinite, radius >= 0 else { throw .negativeRadius(radius) }
        guard radius <= Self.maximumRadius else { throw .radiusTooLarge(radius) }
    }
}

/// Which crossing of a geofence fires a location alarm (EventKit's `EKAlarmProximity`).
public enum Proximity: String, Hashable, Sendable, CaseIterable {
    /// Fires on arriving (entering the circle).
    case enter
    /// Fires on leaving the circle.
    case leave
}

/// What a relative alarm's offset is measured from (RFC 5545 `RELATED=START|END`).
public enum AlarmRelation: String, Hashable, Sendable {
    case start
    /// Events only: the end of the occurrence. EventKit has no such option; iCalendar does.
    case end
}

/// An alarm on an event or reminder (EventKit's `EKAlarm`).
///
/// Relative offsets are seconds, negative before the start (events) or due date (reminders).
/// A positive offset (after the start) is accepted: RFC 5545 allows it, although EventKit's UI
/// does not offer it.
///
/// ```swift
/// Alarm.relative(-15 * 60)                         // 15 minutes before
/// Alarm.absolute(Instant(secondsSince1970: 1_796_000_000))
/// Alarm.location(StructuredLocation(title: "Work", latitude: 48.85, longitude: 2.35), .leave)
/// ```
public struct Alarm: Hashable, Sendable {
    public enum Trigger: Hashable, Sendable {
        case absolute(Instant)
        case relative(offset: Int64, relatedTo: AlarmRelation)
        case location(StructuredLocation, Proximity)
    }

    public var trigger: Trigger
    /// iCalendar lines of the VALARM that Chime does not model (ACTION, DESCRIPTION, REPEAT,
    /// ACKNOWLEDGED, UID, X- properties …), kept verbatim for export.
    public var icsExtras: [String] = []

    public init(trigger: Trigger) { self.trigger = trigger }

    public static func absolute(_ date: Instant) -> Alarm { Alarm(trigger: .absolute(date)) }
    public static func relative(_ offsetSeconds: Int64, relatedTo: AlarmRelation = .start) -> Alarm {
        Alarm(trigger: .relative(offset: offsetSeconds, relatedTo: relatedTo))
    }
    public static func location(_ place: StructuredLocation, _ proximity: Proximity) -> Alarm {
        Alarm(trigger: .location(place, proximity))
    }

    public var structuredLocation: StructuredLocation? {
        if case .location(let place, _) = trigger { return place }
        return nil
    }

    /// The furthest a relative alarm may be from its item: 100 years (so no firing time overflows).
    /// Whether the alarm asks for a sound: its VALARM said `ACTION:AUDIO` (kept in ``icsExtras``).
    public var asksForSound: Bool { icsExtras.contains { Self.actionValue(of: $0) == "AUDIO" } }

    /// How many `ACTION:EMAIL` VALARMs an item's ``Event/icsExtras`` keep: alarms that mail
    /// attendees, which Chime keeps for export but never sends or shows.
    public static func emailAlarmCount(inItemExtras lines: [String]) -> Int {
        keptActions(inItemExtras: lines).filter { $0 == "EMAIL" }.count
    }

    /// The ACTION (upper-cased) of each VALARM an item's ``Event/icsExtras`` keep that is not an
    /// alarm Chime shows: `EMAIL`, `PROCEDURE` (a command, never run from a file), or an action
    /// Chime does not know. Apple's placeholders (`NONE`, or `DISPLAY` on the 1976 trigger) are left out.
    public static func keptActions(inItemExtras lines: [String]) -> [String] {
        var actions: [String] = [], depth = 0, action: String?
        for line in lines {
            let upper = line.uppercased()
            if upper.hasPrefix("BEGIN:VALARM") {
                depth += 1
                action = nil
            } else if upper.hasPrefix("END:VALARM"), depth > 0 {
                depth -= 1
                if let action, !["DISPLAY", "AUDIO", "NONE"].contains(action) { actions.append(action) }
                action = nil
            } else if depth > 0, let value = actionValue(of: line) {
                action = value
            }
        }
        return actions
    }

    /// An item's kept lines without the kept VALARMs whose ACTION is `action` (upper-cased), each
    /// from its `BEGIN:` to its `END:`: what `chime edit --remove-alarm email` takes out.
    ///
    /// ```swift
    /// Alarm.removingKept(action: "EMAIL", fromItemExtras: ["X-A:1", "BEGIN:VALARM", "ACTION:EMAIL", "END:VALARM"])
    /// // ["X-A:1"]
    /// ```
    public static func removingKept(action: String, fromItemExtras lines: [String]) -> [String] {
        var kept: [String] = [], alarm: [String] = [], inAlarm = false, matches = false
        for line in lines {
            let upper = line.uppercased()
            if !inAlarm {
                if upper.hasPrefix("BEGIN:VALARM") {
                    (inAlarm, matches, alarm) = (true, false, [line])
                } else {
                    kept.append(line)
                }
                continue
            }
            alarm.append(line)
            if let value = actionValue(of: line) { matches = value == action }
            if upper.hasPrefix("END:VALARM") {
                if !matches { kept += alarm }
                inAlarm = false
            }
        }
        return inAlarm ? kept + alarm : kept
    }

    /// `AUDIO` for `ACTION:audio` or `ACTION;X-P=1:AUDIO`; nil for other properties.
    private static func actionValue(of line: String) -> String? {
        let upper = line.uppercased()
        guard upper.hasPrefix("ACTION:") || upper.hasPrefix("ACTION;"), let colon = upper.firstIndex(of: ":") else { return nil }
        var value = upper[upper.index(after: colon)...]
        while value.first == " " || value.first == "\t" { value.removeFirst() }
        while value.last == " " || value.last == "\t" { value.removeLast() }
        return String(value)
    }

    public static let maximumOffset: Int64 = 100 * 366 * 86_400

    public func validate() throws(ItemValidationError) {
        switch trigger {
        case .location(let place, _): try place.validate()
        case .absolute(let instant):
            guard WritableYears.contains(instant) else {
                throw .outsideWritableYears(field: "alarm", value: WritableYears.text(instant.utc) + "Z")
            }
        case .relative(let offset, _):
            guard offset.magnitude <= UInt64(Self.maximumOffset) else { throw .alarmOffsetTooLarge(offset) }
        }
    }
}
