/// An RFC 5545 VTIMEZONE (§3.6.5) as a plain value: a TZID and its STANDARD and DAYLIGHT
/// observances, each an onset (DTSTART, RRULE, RDATEs) with the UTC offsets either side of it.
///
/// `ZoneRules(_:)` turns one into zone rules; ``ZoneRules/vTimeZone(from:to:)`` writes one for a
/// zone, and ``contentLines()`` gives its text.
///
/// ```swift
/// let cet = VTimeZone(identifier: "W. Europe Standard Time", observances: [
///     .init(kind: .standard, start: LocalDateTime(year: 1601, month: 10, day: 28, hour: 3),
///           offsetFrom: 7200, offsetTo: 3600,
///           rule: try RecurrenceRule(parsing: "FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10")),
///     .init(kind: .daylight, start: LocalDateTime(year: 1601, month: 3, day: 25, hour: 2),
///           offsetFrom: 3600, offsetTo: 7200,
///           rule: try RecurrenceRule(parsing: "FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3")),
/// ])
/// let zone = try ZoneRules(cet)
/// zone.offset(at: Instant(secondsSince1970: 1_782_864_000))   // 7200 (July 2026, CEST)
/// ```
public struct VTimeZone: Hashable, Sendable {
    /// One STANDARD or DAYLIGHT sub-component: from each onset on, the zone is at `offsetTo`.
    ///
    /// ```swift
    /// VTimeZone.Observance(kind: .standard, start: LocalDateTime(year: 1970, month: 1, day: 1),
    ///                      offsetFrom: 32_400, offsetTo: 32_400, name: "JST")
    /// ```
    public struct Observance: Hashable, Sendable {
        public enum Kind: String, Sendable {
            case standard, daylight

            /// The component name, `STANDARD` or `DAYLIGHT`.
            public var componentName: String { rawValue.uppercased() }
        }

        public var kind: Kind
        /// DTSTART: the first onset, as a wall time read with `offsetFrom` (the offset before it).
        public var start: LocalDateTime
        /// TZOFFSETFROM, seconds east of UTC.
        public var offsetFrom: Int32
        /// TZOFFSETTO, seconds east of UTC.
        public var offsetTo: Int32
        /// RRULE: further onsets, expanded from `start` (UNTIL is UTC, as RFC 5545 requires here).
        public var rule: RecurrenceRule?
        /// RDATEs: further onsets, wall times read with `offsetFrom`.
        public var dates: [LocalDateTime]
        /// TZNAME, e.g. `CET`.
        public var name: String?

        public init(
            kind: Kind, start: LocalDateTime, offsetFrom: Int32, offsetTo: Int32,
            rule: RecurrenceRule? = nil, dates: [LocalDateTime] = [], name: String? = nil
        ) {
            self.kind = kind
            self.start = start
            self.offsetFrom = offsetFrom
            self.offsetTo = offsetTo
            self.rule = rule
            self.dates = dates
            self.name = name
        }
    }

    /// TZID.
    public var identifier: String
    public var observances: [Observance]

    public init(identifier: String, observances: [Observance]) {
        self.identifier = identifier
        self.observances = observances
    }

    /// Reads RFC 5545 UTC-OFFSET text, `+HHMM` or `+HHMMSS` (`-0000` is refused, as the RFC says),
    /// to seconds east of UTC.
    ///
    /// ```swift
    /// VTimeZone.utcOffset(parsing: "+0530")    // 19800
    /// VTimeZone.utcOffset(parsing: "-003439")  // -2079
    /// VTimeZone.utcOffset(parsing: "0100")     // nil (the sign is required)
    /// ```
    public static func utcOffset(parsing text: some StringProtocol) -> Int32? {
        let b = Array(text.utf8)
        guard b.count == 5 || b.count == 7, b[0] == UInt8(ascii: "+") || b[0] == UInt8(ascii: "-"),
            b.dropFirst().allSatisfy({ $0 >= 48 && $0 <= 57 })
        else { return nil }
        func field(_ i: Int) -> Int32 { Int32(b[i] - 48) * 10 + Int32(b[i + 1] - 48) }
        let (hours, minutes, seconds) = (field(1), field(3), b.count == 7 ? field(5) : 0)
        guard minutes < 60, seconds < 60 else { return nil }
        let magnitude = hours * 3600 + minutes * 60 + seconds
        if b[0] == UInt8(ascii: "-") && magnitude == 0 { return nil }
        return b[0] == UInt8(ascii: "-") ? -magnitude : magnitude
    }
}

/// Why a VTIMEZONE cannot be turned into zone rules.
///
/// ```swift
/// do { _ = try ZoneRules(VTimeZone(identifier: "Nowhere", observances: [])) }
/// catch { print(error) }   // VTIMEZONE "Nowhere" has no STANDARD or DAYLIGHT observance
/// ```
public enum VTimeZoneError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The VTIMEZONE has no STANDARD or DAYLIGHT sub-component.
    case noObservances(tzid: String)
    /// Observance number `index` (0-based, in the order given) cannot be expanded.
    case unexpandable(tzid: String, index: Int, reason: String)

    public var description: String {
        switch self {
        case .noObservances(let tzid):
            return "VTIMEZONE \"\(tzid)\" has no STANDARD or DAYLIGHT observance"
        case .unexpandable(let tzid, let index, let reason):
            return "VTIMEZONE \"\(tzid)\": observance \(index + 1) cannot be expanded: \(reason)"
        }
    }
}

extension ZoneRules {
    /// Onsets are expanded up to (not including) 2401-01-01T00:00:00Z, like the tzdata table.
    static let vTimeZoneExpansionEnd = Int64(CivilDate.days(year: ZoneRules.precomputedThroughYear + 1, month: 1, day: 1)) * 86_400

    /// At most this many onsets per observance: a yearly rule from 1601 has 800; more means a
    /// rule such as `FREQ=DAILY` that no real zone has.
    static let vTimeZoneOnsetLimit = 10_000

    /// The rules a VTIMEZONE describes: every onset of every observance (DTSTART, RRULE instances
    /// through 2400 or the rule's end, RDATEs) becomes a transition at `onset − TZOFFSETFROM` to
    /// TZOFFSETTO; before the earliest onset the zone is at that onset's TZOFFSETFROM. After 2400
    /// the last offset holds. The zone's identifier is the TZID.
    ///
    /// ```swift
    /// let tokyo = try ZoneRules(VTimeZone(identifier: "Tokyo Standard Time", observances: [
    ///     .init(kind: .standard, start: LocalDateTime(year: 1601, month: 1, day: 1),
    ///           offsetFrom: 32_400, offsetTo: 32_400)]))
    /// tokyo.offset(at: Instant(secondsSince1970: 0))   // 32400
    /// ```
    public convenience init(_ definition: VTimeZone) throws(VTimeZoneError) {
        let tzid = definition.identifier
        guard !definition.observances.isEmpty else { throw .noObservances(tzid: tzid) }
        var onsets: [(at: Int64, index: Int, from: Int32, to: Int32)] = []
        for (index, observance) in definition.observances.enumerated() {
            for at in try Self.onsets(of: observance, index: index, tzid: tzid) {
                onsets.append((at, index, observance.offsetFrom, observance.offsetTo))
            }
        }
        // Two observances claiming the same instant: the one given later wins (sorted last).
        onsets.sort { ($0.at, $0.index) < ($1.at, $1.index) }
        var transitions: [Int64] = []
        var offsets: [Int32] = []
        let initial = onsets.first?.from ?? definition.observances[0].offsetFrom
        var current = initial
        for (i, onset) in onsets.enumerated() {
            if i + 1 < onsets.count && onsets[i + 1].at == onset.at { continue }
            if onset.to == current { continue }
            transitions.append(onset.at)
            offsets.append(onset.to)
            current = onset.to
        }
        self.init(identifier: tzid, transitions: transitions, offsetsAfter: offsets, initialOffset: initial, footer: nil)
    }

    /// The UTC instants of an observance's onsets before ``vTimeZoneExpansionEnd``, in order.
    private static func onsets(of observance: VTimeZone.Observance, index: Int, tzid: String) throws(VTimeZoneError) -> [Int64] {
        func fail(_ reason: String) -> VTimeZoneError { .unexpandable(tzid: tzid, index: index, reason: reason) }
        for (label, offset) in [("TZOFFSETFROM", observance.offsetFrom), ("TZOFFSETTO", observance.offsetTo)]
        where abs(Int(offset)) >= 86_400 {
            throw fail("\(label) \(offset) s is a day or more from UTC")
        }
        guard observance.start.isValid else { throw fail("DTSTART \(observance.start) is not a valid date-time") }
        if let bad = observance.dates.first(where: { !$0.isValid }) { throw fail("RDATE \(bad) is not a valid date-time") }
        // Onsets are wall times on the clock before the change: a fixed offset of TZOFFSETFROM.
        let clock = ZoneRules.fixed(offset: observance.offsetFrom, identifier: tzid)
        let set = RecurrenceSet(
            start: .zoned(observance.start, clock), rules: observance.rule.map { [$0] } ?? [],
            dates: observance.dates.map { .local($0) })
        var result: [Int64] = []
        var iterator = set.occurrences().makeIterator()
        while let occurrence = iterator.next() {
            let at = occurrence.instant.secondsSince1970
            if at >= vTimeZoneExpansionEnd { break }
            guard result.count < vTimeZoneOnsetLimit else {
                throw fail(
                    "more than \(vTimeZoneOnsetLimit) onsets before \(ZoneRules.precomputedThroughYear + 1) (RRULE \(observance.rule.map(\.rfc5545) ?? "none"))"
                )
            }
            result.append(at)
        }
        return result
    }
}
