/// Someone an event or to-do names: its organizer or an attendee (iCalendar `ORGANIZER`,
/// `ATTENDEE`), as EventKit's `EKParticipant` models them, read-only.
///
/// The lines stay in the item's kept iCalendar lines, byte for byte (every parameter, `RSVP`,
/// `DELEGATED-TO`, `SCHEDULE-STATUS` …, survives export and sync); this is their reading.
///
/// ```swift
/// let p = Participant(contentLine: "ATTENDEE;CN=\"Doe, Jane\";PARTSTAT=DECLINED:mailto:jane@example.org")
/// p?.name     // "Doe, Jane"
/// p?.status   // .declined
/// ```
public struct Participant: Hashable, Sendable {
    public enum Role: String, Sendable { case chair, required, optional, nonParticipant = "non-participant" }
    public enum Kind: String, Sendable { case person, room, resource, group, unknown }
    public enum Status: String, Sendable {
        case needsAction = "needs-action", accepted, declined, tentative, delegated, completed, inProcess = "in-process"
    }

    /// `CN`, if given.
    public var name: String?
    /// The calendar address, as written (`mailto:jane@example.org`).
    public var address: String
    public var role: Role
    public var kind: Kind
    /// `PARTSTAT` (needs-action when absent, as RFC 5545 says).
    public var status: Status
    /// True for the `ORGANIZER` line.
    public var isOrganizer: Bool

    /// Reads one unfolded `ATTENDEE` or `ORGANIZER` content line; nil for any other line.
    public init?(contentLine line: String) {
        let (name, parameters, value) = Self.split(line)
        switch name.uppercased() {
        case "ATTENDEE": isOrganizer = false
        case "ORGANIZER": isOrganizer = true
        default: return nil
        }
        address = value
        self.name = parameters["CN"]
        role =
            switch parameters["ROLE"]?.uppercased() {
            case "CHAIR": .chair
            case "OPT-PARTICIPANT": .optional
            case "NON-PARTICIPANT": .nonParticipant
            default: isOrganizer ? .chair : .required
            }
        kind =
            switch parameters["CUTYPE"]?.uppercased() {
            case nil, "INDIVIDUAL": .person
            case "ROOM": .room
            case "RESOURCE": .resource
            case "GROUP": .group
            default: .unknown
            }
        status =
            switch parameters["PARTSTAT"]?.uppercased() {
            case "ACCEPTED": .accepted
            case "DECLINED": .declined
            case "TENTATIVE": .tentative
            case "DELEGATED": .delegated
            case "COMPLETED": .completed
            case "IN-PROCESS": .inProcess
            default: isOrganizer ? .accepted : .needsAction
            }
    }

    /// The address as people read it: `jane@example.org` for `mailto:jane@example.org`.
    public var shownAddress: String { address.lowercased().hasPrefix("mailto:") ? String(address.dropFirst(7)) : address }

    /// Whether this is the user: its address is one of `identity`'s.
    public func isCurrentUser(_ identity: Identity) -> Bool { identity.contains(address) }

    /// A content line's name, parameters (names upper-cased, quotes taken off) and value.
    static func split(_ line: String) -> (String, [String: String], String) {
        var name = "", parameters: [String: String] = [:]
        var field = "", key: String?, quoted = false
        var index = line.startIndex
        var inName = true
        func finishParameter() {
            if inName { name = field } else if let key { parameters[key.uppercased()] = field } else if !field.isEmpty { parameters[field.uppercased()] = "" }
            field = ""; key = nil
        }
        while index < line.endIndex {
            let c = line[index]
            if c == "\"" {
                quoted.toggle()
            } else if !quoted && c == ":" {
                finishParameter(); return (name, parameters, String(line[line.index(after: index)...]))
            } else if !quoted && c == ";" {
                finishParameter(); inName = false
            } else if !quoted && c == "=" && !inName && key == nil {
                key = field; field = ""
            } else {
                field.append(c)
            }
            index = line.index(after: index)
        }
        finishParameter()
        return (name, parameters, "")
    }
}

/// Who the user is: their calendar addresses (a CalDAV principal's `calendar-user-address-set`,
/// `[identity] addresses` in config.toml), compared as calendar clients compare them: `mailto:`
/// and letter case aside.
///
/// ```swift
/// let me = Identity(["mailto:Ana@Example.org", "ana@work.example"])
/// me.contains("MAILTO:ana@example.org")   // true
/// ```
public struct Identity: Hashable, Sendable {
    public private(set) var addresses: Set<String>

    public init(_ addresses: some Sequence<String> = [String]()) {
        self.addresses = Set(addresses.map(Self.normalized).filter { !$0.isEmpty })
    }

    public var isEmpty: Bool { addresses.isEmpty }

    public func contains(_ address: String) -> Bool { addresses.contains(Self.normalized(address)) }

    public mutating func add(_ more: some Sequence<String>) { addresses.formUnion(more.map(Self.normalized).filter { !$0.isEmpty }) }

    /// `mailto:Ana@Example.org` → `ana@example.org`; other URIs lower-cased as they are.
    static func normalized(_ address: String) -> String {
        var text = Substring(address.trimmingSpaces())
        if text.lowercased().hasPrefix("mailto:") { text = text.dropFirst(7) }
        return text.lowercased()
    }
}

/// EventKit's `EKEventStatus`: `STATUS` of an event (none when absent).
public enum EventStatus: String, Sendable { case none, tentative, confirmed, cancelled }

/// EventKit's `EKEventAvailability`: `TRANSP`, or Microsoft's `X-MICROSOFT-CDO-BUSYSTATUS` where given.
public enum EventAvailability: String, Sendable { case notSupported = "not-supported", busy, free, tentative, unavailable }

extension CalendarItem {
    /// The organizer (`ORGANIZER`), if the item names one.
    public var organizer: Participant? {
        ICalendarText.topLevel(icsExtras).lazy.compactMap(Participant.init(contentLine:)).first { $0.isOrganizer }
    }

    /// The attendees (`ATTENDEE`), in the file's order.
    public var attendees: [Participant] { ICalendarText.topLevel(icsExtras).compactMap(Participant.init(contentLine:)).filter { !$0.isOrganizer } }

    /// The value of a kept property (`STATUS`, `TRANSP` …), upper-cased; nil when absent.
    func keptValue(_ property: String) -> String? {
        ICalendarText.firstValue(of: property, in: ICalendarText.topLevel(icsExtras))?.uppercased()
    }

    /// `STATUS:CANCELLED` (an event, or a to-do).
    public var isCancelled: Bool { keptValue("STATUS") == "CANCELLED" }

    /// How the user answered the invitation: their attendee line's status; nil when they are not
    /// among the attendees (their own item, or nobody knows who they are).
    public func answer(of identity: Identity) -> Participant.Status? {
        guard !identity.isEmpty else { return nil }
        if let organizer, organizer.isCurrentUser(identity) { return .accepted }
        return attendees.first { $0.isCurrentUser(identity) }?.status
    }
}

extension Event {
    public var status: EventStatus {
        switch keptValue("STATUS") {
        case "TENTATIVE": .tentative
        case "CONFIRMED": .confirmed
        case "CANCELLED": .cancelled
        default: .none
        }
    }

    public var availability: EventAvailability {
        switch keptValue("X-MICROSOFT-CDO-BUSYSTATUS") {
        case "FREE": return .free
        case "TENTATIVE": return .tentative
        case "BUSY": return .busy
        case "OOF": return .unavailable
        default: break
        }
        switch keptValue("TRANSP") {
        case "TRANSPARENT": return .free
        case "OPAQUE": return .busy
        default: return .notSupported
        }
    }
}
