import ChimeCore

/// How a recurring reminder moves from one instance to the next, and back.
enum RecurringReminders {
    /// The instance after `anchor` (the current due date, or start date when there is no due date).
    static func nextInstance(of r: Reminder, after anchor: CalendarDate, zone: ZoneRules) -> Occurrence? {
        let set = RecurrenceSet(start: anchor, rules: r.recurrenceRules)
        var iterator = set.occurrences(floatingZone: zone).makeIterator()
        _ = iterator.next()   // DTSTART: the instance being completed
        return iterator.next()
    }

    /// A completed, non-recurring snapshot of the current instance.
    static func completedCopy(of r: Reminder, id: String) -> Reminder {
        var copy = r
        copy.identifier = id
        copy.externalIdentifier = id
        copy.recurrenceRules = []
        copy.isCompleted = true
        return copy
    }

    /// The series moved to `following`: due (and start, by the same wall-clock step) moved,
    /// COUNT one fewer, incomplete again.
    static func advanced(_ r: Reminder, to following: Occurrence) throws -> Reminder {
        var series = r
        let anchor = r.recurrenceAnchor!
        let step = following.nominal.localSeconds - anchor.local.localSeconds
        series.dueDate = r.dueDate.map { shifted($0, by: step) }
        series.startDate = r.startDate.map { shifted($0, by: step) }
        series.recurrenceRules = try r.recurrenceRules.map { rule in
            guard case .count(let n) = rule.end else { return rule }
            return try rule.with(end: .count(max(1, n - 1)))
        }
        series.isCompleted = false
        series.completionDate = nil
        return series
    }

    /// The series moved back to the completed copy's instance, when that copy is the most recent
    /// completion (the series now stands at the instance right after it); nil otherwise.
    static func undo(copy: Reminder, series: Reminder, zone: ZoneRules) throws -> Reminder? {
        guard !series.isCompleted, let copyAnchor = copy.recurrenceAnchor, let seriesAnchor = series.recurrenceAnchor else { return nil }
        let probe = RecurrenceSet(start: copyAnchor, rules: series.recurrenceRules.map { rule in
            (try? rule.with(end: .never)) ?? rule
        })
        var iterator = probe.occurrences(floatingZone: zone).makeIterator()
        _ = iterator.next()
        guard let after = iterator.next(), after.instant == seriesAnchor.instant(floatingZone: zone) else { return nil }
        var restored = series
        let step = copyAnchor.local.localSeconds - seriesAnchor.local.localSeconds
        restored.dueDate = series.dueDate.map { shifted($0, by: step) }
        restored.startDate = series.startDate.map { shifted($0, by: step) }
        restored.recurrenceRules = try series.recurrenceRules.map { rule in
            guard case .count(let n) = rule.end else { return rule }
            return try rule.with(end: .count(n + 1))
        }
        return restored
    }

    private static func shifted(_ d: CalendarDate, by seconds: Int64) -> CalendarDate {
        d.with(local: LocalDateTime(localSeconds: d.local.localSeconds + seconds))
    }
}
