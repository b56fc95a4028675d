import Foundation
import Synchronization

/// The UTC-offset history of one IANA time zone, read from the system tzdata, as a sorted table
/// so that converting between wall-clock time and instants is a binary search, not a search
/// through calendars.
///
/// Wall time → instant follows RFC 5545 §3.3.5 and what major clients do:
/// - a nonexistent local time (spring-forward gap) is read with the offset *before* the gap,
///   so 02:30 on 2026-03-08 in New York becomes 03:30 EDT;
/// - an ambiguous local time (fall-back overlap) takes the *first* (earlier) instant.
///
/// ```swift
/// let ny = try ZoneRules.named("America/New_York")
/// ny.instant(for: LocalDateTime(year: 2026, month: 11, day: 1, hour: 1, minute: 30))
/// // 2026-11-01T05:30:00Z (01:30 EDT, the first of the two)
/// ny.offset(at: Instant(secondsSince1970: 1_790_000_000))  // -18000 or -14400
/// ```
public final class ZoneRules: Sendable, CustomStringConvertible {
    /// IANA name, `"UTC"`, a fixed offset name, or a rules-carrying `POSIX:` name
    /// (``posixPrefix``) for zones a calendar file defined that match no tzdata zone.
    public let identifier: String

    /// Transition instants (UTC seconds), ascending.
    private let transitionsUTC: [Int64]
    /// Wall-clock key of each transition: the first local second that is read with the new
    /// offset (`instant + max(before, after)`), ascending.
    private let localKeys: [Int64]
    /// UTC offset in effect from each transition on.
    private let offsetsAfter: [Int32]
    private let initialOffset: Int32
    /// Rules after the table ends (far future), if any.
    private let footer: PosixTimeZoneRule?
    /// The table holds explicit transitions up to (not including) this UTC instant.
    private let tableEnd: Int64
    /// The smallest and largest UTC offset the zone ever uses (table and footer).
    public let offsetBounds: ClosedRange<Int32>

    /// The last year the table is precomputed for; later instants evaluate the footer directly.
    static let precomputedThroughYear = 2400

    public var description: String { identifier }

    public var isUTC: Bool { transitionsUTC.isEmpty && initialOffset == 0 && footer?.daylight == nil }

    init(identifier: String, transitions: [Int64], offsetsAfter: [Int32], initialOffset: Int32, footer: PosixTimeZoneRule?) {
        var times = transitions
        var offsets = offsetsAfter
        // Extend the explicit table with the footer's rules so that common lookups stay table lookups.
        if let rule = footer, rule.daylight != nil {
            let lastExplicit = times.last ?? Int64.min
            let firstYear = max(1970, (times.last.map { Instant(secondsSince1970: $0).utc.date.year } ?? 1970))
            for year in firstYear...ZoneRules.precomputedThroughYear {
                for t in rule.transitions(in: year) where t.at > lastExplicit {
                    times.append(t.at)
                    offsets.append(t.offsetAfter)
                }
            }
        }
        var keys: [Int64] = []
        keys.reserveCapacity(times.count)
        var before = initialOffset
        for (i, t) in times.enumerated() {
            let key = t + Int64(max(before, offsets[i]))
            keys.append(max(key, keys.last ?? Int64.min))
            before = offsets[i]
        }
        var lowest = initialOffset, highest = initialOffset
        for o in offsets { lowest = min(lowest, o); highest = max(highest, o) }
        if let rule = footer {
            lowest = min(lowest, rule.standardOffset); highest = max(highest, rule.standardOffset)
            if let d = rule.daylight { lowest = min(lowest, d.offset); highest = max(highest, d.offset) }
        }
        self.offsetBounds = lowest...highest
        self.identifier = identifier
        self.transitionsUTC = times
        self.localKeys = keys
        self.offsetsAfter = offsets
        self.initialOffset = initialOffset
        self.footer = footer
        self.tableEnd =
            footer?.daylight == nil
            ? Int64.max
            : Int64(CivilDate.days(year: ZoneRules.precomputedThroughYear + 1, month: 1, day: 1)) * 86_400 - 86_400 * 2
    }

    /// A zone with a constant offset (seconds east of UTC).
    public static func fixed(offset: Int32, identifier: String) -> ZoneRules {
        ZoneRules(
            identifier: identifier, transitions: [], offsetsAfter: [], initialOffset: offset,
            footer: PosixTimeZoneRule(standardOffset: offset, daylight: nil))
    }

    public static let utc = ZoneRules.fixed(offset: 0, identifier: "UTC")

    // MARK: - Conversion

    /// UTC offset (seconds east) in effect at an instant.
    public func offset(at instant: Instant) -> Int32 {
        let t = LocalDateTime.computable(instant.secondsSince1970)
        if t >= tableEnd, let rule = footer { return ZoneRules.footerOffset(rule, utc: t) }
        let i = lastIndex(in: transitionsUTC, atOrBefore: t)
        return i < 0 ? initialOffset : offsetsAfter[i]
    }

    /// ``offset(at:)`` for instants read mostly in increasing order (a series' occurrences):
    /// `hint` keeps the table entry the last call found, so the next one in the same period is
    /// answered without a search. Start `hint` at any value; the result does not depend on it.
    ///
    /// ```swift
    /// var hint = -2
    /// for o in occurrences { print(o.instant.secondsSince1970 + Int64(zone.offset(at: o.instant, hint: &hint))) }
    /// ```
    public func offset(at instant: Instant, hint: inout Int) -> Int32 {
        let t = LocalDateTime.computable(instant.secondsSince1970)
        if t >= tableEnd, let rule = footer { return ZoneRules.footerOffset(rule, utc: t) }
        let h = hint
        if h >= -1, h < transitionsUTC.count, h < 0 || transitionsUTC[h] <= t,
            h + 1 >= transitionsUTC.count || t < transitionsUTC[h + 1]
        {
            return h < 0 ? initialOffset : offsetsAfter[h]
        }
        let i = lastIndex(in: transitionsUTC, atOrBefore: t)
        hint = i
        return i < 0 ? initialOffset : offsetsAfter[i]
    }

    /// The wall-clock reading of an instant in this zone. Every conversion here is total: an
    /// instant or wall time a million years away (`Int64.max` from a D-Bus caller) reads as the end
    /// of ``LocalDateTime/computableSeconds`` instead of overflowing.
    public func localTime(at instant: Instant) -> LocalDateTime {
        LocalDateTime(localSeconds: LocalDateTime.computable(instant.secondsSince1970) + Int64(offset(at: instant)))
    }

    /// The instant of a wall-clock time (gap → offset before the gap; overlap → first instant).
    public func instant(for local: LocalDateTime) -> Instant {
        Instant(secondsSince1970: instantSeconds(forLocalSeconds: local.localSeconds))
    }

    /// Hot-path form of ``instant(for:)``: `hint` remembers the table slot of the previous call,
    /// so a run of increasing local times costs a comparison or two instead of a search.
    @inline(__always)
    public func instantSeconds(forLocalSeconds given: Int64, hint: inout Int) -> Int64 {
        let l = LocalDateTime.computable(given)
        if l >= tableEnd, let rule = footer { return ZoneRules.footerInstant(rule, local: l) }
        let keys = localKeys
        let n = keys.count
        var i = hint
        let valid = i >= -1 && i < n && (i < 0 || keys[i] <= l) && (i + 1 == n || keys[i + 1] > l)
        if !valid {
            i = lastIndex(in: keys, atOrBefore: l)
            hint = i
        }
        return l - Int64(i < 0 ? initialOffset : offsetsAfter[i])
    }

    /// Like ``instantSeconds(forLocalSeconds:hint:)``, also telling whether the wall time lies
    /// in a gap and was moved forward. Moved instants can be later than those of wall times
    /// generated just after them (02:30 → 03:30 EDT, but 03:20 EDT is earlier), so the expander
    /// re-orders them.
    @inline(__always)
    func resolve(localSeconds given: Int64, hint: inout Int) -> (instant: Int64, movedByGap: Bool) {
        let l = LocalDateTime.computable(given)
        if l >= tableEnd, let rule = footer {
            let instant = ZoneRules.footerInstant(rule, local: l)
            return (instant, instant + Int64(ZoneRules.footerOffset(rule, utc: instant)) != l)
        }
        let instant = instantSeconds(forLocalSeconds: l, hint: &hint)
        // The offset used is the one after transition `hint`; the wall time was in the next
        // transition's gap exactly when the computed instant reaches that transition.
        let next = hint + 1
        return (instant, next < transitionsUTC.count && instant >= transitionsUTC[next])
    }

    public func instantSeconds(forLocalSeconds l: Int64) -> Int64 {
        var hint = -2
        return instantSeconds(forLocalSeconds: l, hint: &hint)
    }

    @inline(__always)
    private func lastIndex(in array: [Int64], atOrBefore value: Int64) -> Int {
        var lo = 0
        var hi = array.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            if array[mid] <= value { lo = mid + 1 } else { hi = mid }
        }
        return lo - 1
    }

    /// Every change of UTC offset with `start < at ≤ end`, read off the table: exact (unlike the
    /// sampling ``offsetChanges(after:through:step:)``, which it falls back to past the table) and
    /// without the table's entries that change only a zone abbreviation.
    func tableChanges(after start: Int64, through end: Int64) -> [OffsetChange] {
        guard end < tableEnd else { return offsetChanges(after: start, through: end) }
        var i = lastIndex(in: transitionsUTC, atOrBefore: start)
        var current = i < 0 ? initialOffset : offsetsAfter[i]
        var result: [OffsetChange] = []
        i += 1
        while i < transitionsUTC.count && transitionsUTC[i] <= end {
            if offsetsAfter[i] != current {
                result.append(OffsetChange(at: transitionsUTC[i], offsetBefore: current, offsetAfter: offsetsAfter[i]))
                current = offsetsAfter[i]
            }
            i += 1
        }
        return result
    }

    // MARK: - Beyond the table (after `precomputedThroughYear`)

    private static func footerOffset(_ rule: PosixTimeZoneRule, utc t: Int64) -> Int32 {
        let year = Instant(secondsSince1970: t).utc.date.year
        var offset = rule.standardOffset
        for y in (year - 1)...year { for tr in rule.transitions(in: y) where tr.at <= t { offset = tr.offsetAfter } }
        return offset
    }

    private static func footerInstant(_ rule: PosixTimeZoneRule, local l: Int64) -> Int64 {
        guard let dst = rule.daylight else { return l - Int64(rule.standardOffset) }
        // Every transition switches between the two offsets, so its wall-clock key is the same formula.
        let later = Int64(max(rule.standardOffset, dst.offset))
        let year = LocalDateTime(localSeconds: l).date.year
        var offset = rule.standardOffset
        for y in (year - 1)...(year + 1) {
            for tr in rule.transitions(in: y) where tr.at + later <= l { offset = tr.offsetAfter }
        }
        return l - Int64(offset)
    }
}

extension ZoneRules: Hashable {
    public static func == (a: ZoneRules, b: ZoneRules) -> Bool { a === b || a.identifier == b.identifier }
    public func hash(into hasher: inout Hasher) { hasher.combine(identifier) }
}
