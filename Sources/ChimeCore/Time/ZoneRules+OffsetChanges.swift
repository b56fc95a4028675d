/// A change of UTC offset in a zone: from `at` on, the zone is at `offsetAfter`.
struct OffsetChange: Hashable {
    /// UTC seconds of the first second at the new offset.
    var at: Int64
    var offsetBefore: Int32
    var offsetAfter: Int32

    /// The onset as a wall time on the clock before the change (what DTSTART and RDATE say).
    var localOnset: Int64 { at + Int64(offsetBefore) }
}

extension ZoneRules {
    /// Every change of UTC offset with `start < at ≤ end`, in order, found through the public
    /// conversion alone (so it works for any rules: tzdata, VTIMEZONE, fixed): the offset is sampled
    /// every `step` seconds and each change is bisected to the second. Offset excursions shorter
    /// than `step` that return to the same offset are not seen; no zone has one.
    ///
    /// ```swift
    /// try ZoneRules.named("Europe/Berlin").offsetChanges(after: 1_767_225_600, through: 1_798_761_600)
    /// // 2026-03-29T01:00:00Z +3600 → +7200, 2026-10-25T01:00:00Z +7200 → +3600
    /// ```
    func offsetChanges(after start: Int64, through end: Int64, step: Int64 = 6 * 3600) -> [OffsetChange] {
        var result: [OffsetChange] = []
        var t = LocalDateTime.computable(start)
        let end = LocalDateTime.computable(end)
        var current = offset(at: Instant(secondsSince1970: t))
        while t < end {
            let next = end - t > step ? t + step : end
            let sampled = offset(at: Instant(secondsSince1970: next))
            guard sampled != current else { t = next; continue }
            // offset(lo) == current, offset(hi) != current: bisect to the first changed second.
            var lo = t
            var hi = next
            while hi - lo > 1 {
                let mid = lo + (hi - lo) / 2
                if offset(at: Instant(secondsSince1970: mid)) == current { lo = mid } else { hi = mid }
            }
            let after = offset(at: Instant(secondsSince1970: hi))
            result.append(OffsetChange(at: hi, offsetBefore: current, offsetAfter: after))
            t = hi
            current = after
        }
        return result
    }
}
