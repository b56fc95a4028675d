import ChimeCore

/// How a recurring reminder moves from one instance to the next, and back.
enum RecurringReminders {
    /// The instance after `anchor` (the current due date, or start date when there is no due date).
    static func nextInstance(of r: Reminder, after anchor: CalendarDate, zone: ZoneRules) -> Occurrence? {
        let set = RecurrenceSet(start: anchor, rules: r.recurrenceRules)
        var iterator = set.occurrences(floatingZone: zone).makeIterator()
        _ = iterator.next()  // DTSTART: the instance being completed
        return iterator.next()
    }

    /// A completed, non-recurring snapshot of the current instance, related to its series the
    /// way Apple Reminders writes it (`RELATED-TO;RELTYPE=PARENT:<series UID>`), so other clients
    /// and servers see which series it came from.
    static func completedCopy(of r: Reminder, id: String) -> Reminder {
        var copy = r
        copy.identifier = id
        copy.externalIdentifier = id
        copy.recurrenceRules = []
        copy.isCompleted = true
        copy.icsExtras.removeAll { $0.uppercased().hasPrefix("RELATED-TO") }
        copy.icsExtras.append("RELATED-TO;RELTYPE=PARENT:" + r.externalIdentifier)
        return copy
    }

    /// The series moved to `following`: due (and start, by the same wall-clock step) moved,
    /// COUNT one fewer, incomplete again.
    static func advanced(_ r: Reminder, to following: Occurrence) throws -> Reminder {
        let step = following.nominal.localSeconds - r.recurrenceAnchor!.local.localSeconds
        var series = try moved(r, by: step, countChange: -1)
        series.isCompleted = false
        series.completionDate = nil
        return series
    }

    /// The series moved back to the completed copy's instance, when that copy is the most recent
    /// completion (the series now stands at the instance right after it); nil otherwise.
    static func undo(copy: Reminder, series: Reminder, zone: ZoneRules) throws -> Reminder? {
        guard !series.isCompleted, let copyAnchor = copy.recurrenceAnchor, let seriesAnchor = series.recurrenceAnchor else { return nil }
        let probe = RecurrenceSet(
            start: copyAnchor,
            rules: series.recurrenceRules.map { rule in
                (try? rule.with(end: .never)) ?? rule
            })
        var iterator = probe.occurrences(floatingZone: zone).makeIterator()
        _ = iterator.next()
        guard let after = iterator.next(), after.instant == seriesAnchor.instant(floatingZone: zone) else { return nil }
        return try moved(series, by: copyAnchor.local.localSeconds - seriesAnchor.local.localSeconds, countChange: 1)
    }

    /// Due and start dates moved by `step` wall-clock seconds, COUNT changed by `countChange`
    /// (never below 1).
    private static func moved(_ r: Reminder, by step: Int64, countChange: Int) throws -> Reminder {
        func shifted(_ d: CalendarDate) -> CalendarDate { d.with(local: LocalDateTime(localSeconds: d.local.localSeconds + step)) }
        var moved = r
        moved.dueDate = r.dueDate.map(shifted)
        moved.startDate = r.startDate.map(shifted)
        moved.recurrenceRules = try r.recurrenceRules.map { rule in
            guard case .count(let n) = rule.end else { return rule }
            return try rule.with(end: .count(max(1, n + countChange)))
        }
        return moved
    }
}
