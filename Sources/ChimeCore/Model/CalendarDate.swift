/// A date-only or date-and-time value on a clock: what EventKit keeps in `DateComponents` for a
/// reminder's start and due dates, and what an event's start and end are.
///
/// It is the same value as a recurrence set's DTSTART (``RecurrenceStart``): an all-day date,
/// a floating wall time (read in the system zone), a UTC time, or a wall time in an IANA zone.
///
/// ```swift
/// let due: CalendarDate = .zoned(LocalDateTime(year: 2026, month: 12, day: 1, hour: 9), try .named("Europe/Berlin"))
/// due.instant(floatingZone: .utc)   // 2026-12-01T08:00:00Z
/// let birthday: CalendarDate = .allDay(CivilDate(year: 2026, month: 12, day: 24))
/// ```
public typealias CalendarDate = RecurrenceStart

extension RecurrenceStart {
    /// The instant this value names; floating and all-day values are read on `floatingZone`.
    public func instant(floatingZone: ZoneRules) -> Instant {
        zone(floatingZone: floatingZone).instant(for: local)
    }

    /// The IANA zone, or nil for floating, all-day and UTC values.
    public var timeZone: ZoneRules? {
        if case .zoned(_, let z) = self { return z }
        return nil
    }

    public var isFloating: Bool {
        switch self {
        case .floating, .allDay: return true
        case .utc, .zoned: return false
        }
    }

    /// The same kind of value (same zone, all-day or not) at another wall time.
    public func with(local: LocalDateTime) -> CalendarDate {
        switch self {
        case .allDay: return .allDay(local.date)
        case .floating: return .floating(local)
        case .utc: return .utc(local)
        case .zoned(_, let z): return .zoned(local, z)
        }
    }

    /// The value of the same kind that names `instant` (its wall time on this value's clock).
    public func with(instant: Instant, floatingZone: ZoneRules) -> CalendarDate {
        with(local: zone(floatingZone: floatingZone).localTime(at: instant))
    }

    /// Text form for storage and `--json`: `20261224` (all-day), `20261201T090000` (floating),
    /// `20261201T090000Z` (UTC), `20261201T090000;Europe/Berlin` (zoned).
    public var storageText: String {
        switch self {
        case .allDay(let d): return d.basicFormat
        case .floating(let l): return l.basicFormat
        case .utc(let l): return l.basicFormat(then: UInt8(ascii: "Z"))
        case .zoned(let l, let z): return l.basicFormat(then: UInt8(ascii: ";"), z.identifier)
        }
    }

    /// Reads ``storageText``.
    public init?(storageText text: String) {
        var text = text
        let read = text.withUTF8 { bytes in
            Self.storageValue(bytes) { name in try? ZoneRules.named(String(decoding: name, as: UTF8.self)) }
        }
        if let read { self = read; return }
        guard let split = Self.splitStorageValue(text) else { return nil }
        self = split
    }

    /// Reads ``storageText`` from its UTF-8 bytes (a column read in place), finding zones in
    /// `zones`: a query decodes two dates per row, and most of a store's rows name a few zones.
    ///
    /// ```swift
    /// var zones = ZoneNames()
    /// let start = Array("20261201T090000;Europe/Berlin".utf8).withUnsafeBufferPointer {
    ///     CalendarDate(storageBytes: $0, zones: &zones)
    /// }
    /// ```
    package init?(storageBytes bytes: UnsafeBufferPointer<UInt8>, zones: inout ZoneNames) {
        if let read = Self.storageValue(bytes, zone: { zones.named($0) }) { self = read; return }
        guard let split = Self.splitStorageValue(String(decoding: bytes, as: UTF8.self)) else { return nil }
        self = split
    }

    /// ``init(storageText:)`` for the forms the store writes, read in place; nil for anything
    /// else, which the general reading then decides.
    private static func storageValue(
        _ bytes: UnsafeBufferPointer<UInt8>, zone: (UnsafeBufferPointer<UInt8>) -> ZoneRules?
    ) -> CalendarDate? {
        let semicolon = bytes.firstIndex(of: UInt8(ascii: ";")) ?? bytes.count
        guard semicolon == 8 || semicolon == 15 || semicolon == 16,
            let basic = BasicDateTime.parse(bytes: UnsafeBufferPointer(rebasing: bytes[..<semicolon]))
        else { return nil }
        if semicolon == bytes.count {
            switch basic {
            case .date(let d): return .allDay(d)
            case .local(let l): return .floating(l)
            case .utc(let l): return .utc(l)
            }
        }
        let name = UnsafeBufferPointer(rebasing: bytes[(semicolon + 1)...])
        guard case .local(let l) = basic, !name.isEmpty, !name.contains(UInt8(ascii: ";")), let z = zone(name) else { return nil }
        return .zoned(l, z)
    }

    private static func splitStorageValue(_ text: String) -> CalendarDate? {
        let parts = text.split(separator: ";", maxSplits: 1)
        guard let first = parts.first, let basic = BasicDateTime.parse(first) else { return nil }
        switch (basic, parts.count) {
        case (.date(let d), 1): return .allDay(d)
        case (.local(let l), 1): return .floating(l)
        case (.utc(let l), 1): return .utc(l)
        case (.local(let l), 2):
            guard let zone = try? ZoneRules.named(String(parts[1])) else { return nil }
            return .zoned(l, zone)
        default: return nil
        }
    }
}

/// Zones by the UTF-8 bytes of their names, for reading many stored dates: the first names met
/// (up to 16; a store's rows name a handful) are compared byte by byte, without building a
/// `String` or taking ``ZoneRules/named(_:)``'s lock for each date.
///
/// ```swift
/// var zones = ZoneNames()
/// let berlin = Array("Europe/Berlin".utf8).withUnsafeBufferPointer { zones.named($0) }
/// ```
package struct ZoneNames {
    private var known: [(name: [UInt8], zone: ZoneRules)] = []
    /// Names kept: a store's rows name a handful; more are looked up each time.
    private static let capacity = 16

    package init() {}

    /// The zone `name` names, nil when there is none (as ``ZoneRules/named(_:)`` throws).
    package mutating func named(_ name: UnsafeBufferPointer<UInt8>) -> ZoneRules? {
        for entry in known where entry.name.count == name.count && entry.name.withUnsafeBufferPointer({ $0.elementsEqual(name) }) {
            return entry.zone
        }
        guard let zone = try? ZoneRules.named(String(decoding: name, as: UTF8.self)) else { return nil }
        if known.count < Self.capacity { known.append((Array(name), zone)) }
        return zone
    }
}
