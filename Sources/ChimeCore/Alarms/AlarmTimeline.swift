/// The firings of one timed alarm of one item, in time order, computed lazily.
///
/// A relative alarm on a recurring event walks the series' occurrences one at a time, starting
/// near the first one that can fire at or after `from`; nothing is materialised. Occurrences
/// replaced by detached copies are skipped (the copy has its own alarms and timeline).
///
/// Rules:
/// - absolute alarms fire once, at their date;
/// - relative alarms on events fire at each occurrence's start plus the offset, or at its end
///   with `relatedTo: .end`;
/// - relative alarms on reminders fire at the due date plus the offset (the start date when there
///   is no due date); completed reminders never fire; a recurring reminder is stored as its current
///   instance, so only that instance fires;
/// - all-day dates are local midnight in `zone` and floating times are read in `zone`; relative
///   alarms of all-day items count from `allDayTimeOfDay` after that midnight (``AlarmDefaults``);
/// - a series fires at most once per ``coalescingSeconds``: the firings in between are counted
///   in the next one shown (``AlarmFiring/coalescedCount``), so a SECONDLY rule from an imported
///   file makes one notification a minute, not sixty, and no ledger row for each second.
public struct AlarmTimeline {
    /// The shortest gap between two firings of one alarm of a series.
    public static let coalescingSeconds: Int64 = 60

    private enum Source {
        case once(AlarmFiring?)
        case series(OccurrenceIterator, duration: Int64, replaced: Set<Int64>)
    }

    public let alarm: Alarm
    public let item: ItemSummary
    private var source: Source
    private let from: Instant
    /// Added to the anchor of relative alarms: the all-day time of day, else 0.
    private let anchorShift: Int64
    private var lastFireAt: Instant?

    /// The timeline of `alarm` on `event` (a single event, a series, or a detached occurrence);
    /// nil for location alarms. `replaced` holds the occurrence starts (seconds) that detached
    /// copies override.
    public init?(alarm: Alarm, of event: Event, replaced: Set<Int64> = [], zone: ZoneRules, from: Instant,
                 allDayTimeOfDay: Int64 = 0) {
        guard alarm.trigger.keyText != nil else { return nil }
        self.alarm = alarm
        self.item = ItemSummary(event)
        self.from = from
        self.anchorShift = event.isAllDay ? allDayTimeOfDay : 0
        let duration = event.durationSeconds(floatingZone: zone)
        if case .relative(let offset, let relation) = alarm.trigger, event.isRecurring {
            // The first occurrence that can fire at or after `from` starts at from − offset (− duration for END).
            let lead = offset + anchorShift + (relation == .end ? duration : 0)
            let near = Instant(secondsSince1970: from.secondsSince1970 - lead)
            source = .series(event.recurrenceSet.occurrences(near: near, floatingZone: zone), duration: duration,
                             replaced: replaced)
        } else {
            let start = event.start.instant(floatingZone: zone)
            let firing = Self.firing(alarm, item: item, start: start, end: start.adding(duration), shift: anchorShift)
            source = .once(firing.fireAt >= from ? firing : nil)
        }
    }

    /// The timeline of `alarm` on `reminder`; nil for location alarms, completed reminders, and
    /// relative alarms on a reminder with no date.
    public init?(alarm: Alarm, of reminder: Reminder, zone: ZoneRules, from: Instant, allDayTimeOfDay: Int64 = 0) {
        guard alarm.trigger.keyText != nil, !reminder.isCompleted else { return nil }
        let dueDate = reminder.dueDate ?? reminder.startDate
        let due = dueDate?.instant(floatingZone: zone)
        if case .relative = alarm.trigger, due == nil { return nil }
        self.alarm = alarm
        self.item = ItemSummary(reminder)
        self.from = from
        self.anchorShift = dueDate?.isAllDay == true ? allDayTimeOfDay : 0
        let firing = Self.firing(alarm, item: item, start: due, end: nil, shift: anchorShift)
        source = .once(firing.fireAt >= from ? firing : nil)
    }

    /// The next firing at or after `from`, or nil when the alarm will not fire again.
    public mutating func next() -> AlarmFiring? {
        switch source {
        case .once(let firing):
            source = .once(nil)
            return firing
        case .series(var iterator, let duration, let replaced):
            defer { source = .series(iterator, duration: duration, replaced: replaced) }
            var folded = 0
            while let occurrence = iterator.next() {
                let start = occurrence.instant
                if replaced.contains(start.secondsSince1970) { continue }
                var firing = Self.firing(alarm, item: item, start: start, end: start.adding(duration), shift: anchorShift)
                guard firing.fireAt >= from else { continue }
                if let last = lastFireAt, firing.fireAt.secondsSince1970 - last.secondsSince1970 < Self.coalescingSeconds {
                    folded += 1
                    continue
                }
                firing.coalescedCount = folded
                lastFireAt = firing.fireAt
                return firing
            }
            source = .once(nil)
            return nil
        }
    }

    private static func firing(_ alarm: Alarm, item: ItemSummary, start: Instant?, end: Instant?, shift: Int64) -> AlarmFiring {
        let fireAt: Instant, occurrence: Instant
        switch alarm.trigger {
        case .absolute(let date):
            fireAt = date
            occurrence = date
        case .relative(let offset, let relation):
            let anchor = relation == .end ? (end ?? start!) : start!
            fireAt = anchor.adding(offset + shift)
            occurrence = start!
        case .location:
            preconditionFailure("location alarms have no timeline")
        }
        return AlarmFiring(key: FiringKey(item: item.identifier, occurrence: occurrence, alarm: alarm.trigger.keyText!),
                           fireAt: fireAt, alarm: alarm, item: item, occurrenceStart: start, occurrenceEnd: end)
    }
}

extension Instant {
    /// This instant moved by `seconds`.
    public func adding(_ seconds: Int64) -> Instant { Instant(secondsSince1970: secondsSince1970 + seconds) }
}
