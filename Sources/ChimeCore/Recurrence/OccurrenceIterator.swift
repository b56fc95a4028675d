/// Merges the instances of every rule with the RDATEs, drops EXDATEs and duplicates.
/// Memory is constant in the number of occurrences produced: one pending instance per source.
public struct OccurrenceIterator: IteratorProtocol {
    private var rules: [RuleIterator]
    private var heads: [(local: Int64, instant: Int64)?]
    private var extraDates: [(local: Int64, instant: Int64)]
    private var extraIndex = 0
    private let excludedInstants: Set<Int64>
    private let excludedDays: Set<Int>
    private let zone: ZoneRules
    private let simple: Bool
    private var lastInstant = Int64.min

    /// Why the last rule stopped, once every source is exhausted (the most telling reason wins:
    /// a rule that hit the search horizon is reported even if another ended by COUNT).
    public var end: ExpansionEnd? {
        let ends = rules.compactMap(\.end)
        if ends.contains(.searchHorizon) { return .searchHorizon }
        if ends.contains(.endOfCalendar) { return .endOfCalendar }
        return ends.first
    }

    init(set: RecurrenceSet, floatingZone: ZoneRules) {
        let zone = set.start.zone(floatingZone: floatingZone)
        self.zone = zone
        let start = set.start.local
        rules = set.rules.map { RuleIterator(rule: $0, start: start, zone: zone) }
        heads = Array(repeating: nil, count: rules.count)

        var extra: [(local: Int64, instant: Int64)] = []
        let timeOfDay = start.localSeconds - Int64(start.date.daysSinceEpoch) * 86_400
        func resolve(_ value: RecurrenceDate, dateTime: Int64) -> (Int64, Int64) {
            switch value {
            case .date(let d):
                let local = Int64(d.daysSinceEpoch) * 86_400 + dateTime
                return (local, zone.instantSeconds(forLocalSeconds: local))
            case .local(let l): return (l.localSeconds, zone.instantSeconds(forLocalSeconds: l.localSeconds))
            case .instant(let i):
                return (i.secondsSince1970 + Int64(zone.offset(at: i)), i.secondsSince1970)
            }
        }
        if rules.isEmpty {
            extra.append((start.localSeconds, zone.instantSeconds(forLocalSeconds: start.localSeconds)))
        }
        for d in set.dates { extra.append(resolve(d, dateTime: timeOfDay)) }
        extra.sort { $0.instant < $1.instant }
        extraDates = extra

        var days = Set<Int>()
        var instants = Set<Int64>()
        for value in set.exceptionDates {
            if case .date(let d) = value { days.insert(d.daysSinceEpoch) } else { instants.insert(resolve(value, dateTime: 0).1) }
        }
        excludedDays = days
        excludedInstants = instants
        simple = rules.count == 1 && extra.isEmpty && days.isEmpty && instants.isEmpty
        for i in rules.indices { heads[i] = rules[i].next() }
    }

    /// Moves every source so that it next yields its first instance at or after `instant` (or a
    /// little before it). Rules with COUNT are left to be counted from DTSTART.
    mutating func skip(toInstant instant: Instant) {
        // Two days of margin: a wall time inside a DST gap maps forward, at most a day.
        let local = zone.localTime(at: instant).localSeconds - 2 * 86_400
        for i in rules.indices where !rules[i].hasCount {
            if let head = heads[i], head.instant >= instant.secondsSince1970 { continue }
            rules[i].skip(toLocal: local)
            heads[i] = rules[i].next()
        }
        while extraIndex < extraDates.count && extraDates[extraIndex].instant < instant.secondsSince1970 { extraIndex += 1 }
    }

    public mutating func next() -> Occurrence? {
        if simple {
            guard let head = heads[0] else { return nil }
            heads[0] = rules[0].next()
            return Occurrence(nominalSeconds: head.local, instant: head.instant)
        }
        while true {
            var best = -1
            var bestInstant = Int64.max
            for i in heads.indices { if let h = heads[i], h.instant < bestInstant { best = i; bestInstant = h.instant } }
            var candidate: (local: Int64, instant: Int64)
            if extraIndex < extraDates.count && extraDates[extraIndex].instant <= bestInstant {
                candidate = extraDates[extraIndex]
                extraIndex += 1
            } else if best >= 0 {
                candidate = heads[best]!
                heads[best] = rules[best].next()
            } else {
                return nil
            }
            if candidate.instant == lastInstant { continue }
            lastInstant = candidate.instant
            if excludedInstants.contains(candidate.instant) { continue }
            if !excludedDays.isEmpty && excludedDays.contains(Int(floorDiv(candidate.local, 86_400))) { continue }
            return Occurrence(nominalSeconds: candidate.local, instant: candidate.instant)
        }
    }
}
