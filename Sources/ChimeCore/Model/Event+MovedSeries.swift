/// Where an occurrence goes when its series' start moves.
extension Event {
    /// Where this series' occurrence at `instant` is in `moved` (the same series, its start
    /// moved): on the same day at the moved series' time of day, as calendar apps move a
    /// series' time; or, where the series' days come from its start (no BYDAY, BYMONTHDAY or
    /// BYYEARDAY) and `moved` has no occurrence that day, as many days later as the start moved.
    /// Nil: it has no place in `moved`.
    ///
    /// ```swift
    /// // A weekday stand-up moved from 9:00 to 10:15: Tuesday's 9:00 occurrence is Tuesday's 10:15.
    /// let place = standup.placeOfOccurrence(at: tuesdayNine, inMoved: later, floatingZone: zone)
    /// ```
    public func placeOfOccurrence(at instant: Instant, inMoved moved: Event, floatingZone: ZoneRules) -> Instant? {
        let oldClock = start.zone(floatingZone: floatingZone), newClock = moved.start.zone(floatingZone: floatingZone)
        let oldStart = oldClock.localTime(at: start.instant(floatingZone: floatingZone))
        let newStart = newClock.localTime(at: moved.start.instant(floatingZone: floatingZone))
        let day = oldClock.localTime(at: instant).date
        // Days named by the rules (BYDAY, BYMONTHDAY…) stay; days taken from the start move with it.
        let daysFollowStart = moved.recurrenceRules.allSatisfy { $0.daysOfTheWeek.isEmpty && $0.daysOfTheMonth.isEmpty && $0.daysOfTheYear.isEmpty }
        let shifted = day.adding(days: newStart.date.daysSinceEpoch - oldStart.date.daysSinceEpoch)
        for date in daysFollowStart ? [day, shifted] : [day] {
            let candidate = newClock.instant(for: LocalDateTime(date: date, hour: newStart.hour, minute: newStart.minute, second: newStart.second))
            if moved.hasOccurrence(at: candidate, floatingZone: floatingZone) { return candidate }
        }
        return nil
    }

    /// Whether the series (rules, RDATEs less EXDATEs) has an occurrence that starts at `instant`.
    public func hasOccurrence(at instant: Instant, floatingZone: ZoneRules) -> Bool {
        var occurrences = recurrenceSet.occurrences(near: instant, floatingZone: floatingZone)
        while let o = occurrences.next() {
            if o.instant == instant { return true }
            if o.instant > instant { return false }
        }
        return false
    }
}
