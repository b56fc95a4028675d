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
///   file makes one notification a minute, not sixty, and no ledger row for each second;
/// - an instance answered on another device or client (at or before `answeredThrough`: the
///   alarm's `ACKNOWLEDGED`, the item's `X-MOZ-LASTACK`, see ``AlarmAnswers``) does not fire; with
///   `includesAnswered` it is listed, marked with ``AlarmFiring/acknowledgedAt``.
public struct AlarmTimeline {
    /// The shortest gap between two firings of one alarm of a series.
    public static let coalescingSeconds: Int64 = 60

    /// One firing without the alarm and item it shares with the timeline's other firings: what
    /// the agenda keeps per pending timeline (a full ``AlarmFiring`` is built when asked for).
    struct Step {
        let fireAt: Int64
        let start: Int64?
        let end: Int64?
        let coalescedCount: Int32
    }

    private enum Source {
        case once(Step?)
        /// A series keeps its rules, not an iterator: each step starts a fresh iterator near the
        /// occurrence after `after` (the last one fired), so a daemon holding thousands of
        /// timelines keeps a few hundred bytes for each instead of every iterator's buffers.
        case series(Series, after: Int64?)
        /// A series with a COUNT rule keeps its iterator: COUNT is counted from DTSTART, so a fresh
        /// iterator would walk every earlier occurrence again at each step.
        case counted(Series, IteratorBox)
    }

    /// An iterator kept between steps, boxed so that other timelines do not carry its room;
    /// copied before a step when a copy of the timeline shares it.
    private final class IteratorBox {
        var iterator: OccurrenceIterator
        init(_ iterator: OccurrenceIterator) { self.iterator = iterator }
    }

    /// What a series timeline restarts its iterator from; boxed, so that the timelines of
    /// single items do not carry its room.
    private final class Series: Sendable {
        let set: RecurrenceSet
        let zone: ZoneRules
        /// Where the first step looks: the first occurrence that can fire at or after `from`.
        let near: Int64
        let duration: Int64
        let replaced: Set<Int64>

        init(set: RecurrenceSet, zone: ZoneRules, near: Int64, duration: Int64, replaced: Set<Int64>) {
            self.set = set
            self.zone = zone
            self.near = near
            self.duration = duration
            self.replaced = replaced
        }
    }

    public let alarm: Alarm
    public let item: ItemSummary
    private var source: Source
    private let from: Instant
    /// Added to the anchor of relative alarms: the all-day time of day, else 0.
    private let anchorShift: Int64
    private var lastFireAt: Int64?
    /// Instances firing at or before this (seconds) were answered elsewhere.
    private let answeredThrough: Int64?
    private let includesAnswered: Bool
    /// Why the item does not ring, for a listing that shows such alarms anyway.
    var silence: AlarmDefaults.Silence?

    /// The timeline of `alarm` on `event` (a single event, a series, or a detached occurrence);
    /// nil for location alarms. `replaced` holds the occurrence starts (seconds) that detached
    /// copies override.
    public init?(
        alarm: Alarm, of event: Event, replaced: Set<Int64> = [], zone: ZoneRules, from: Instant,
        allDayTimeOfDay: Int64 = 0, answeredThrough: Instant? = nil, includesAnswered: Bool = false
    ) {
        guard alarm.trigger.keyText != nil else { return nil }
        self.alarm = alarm
        self.answeredThrough = answeredThrough?.secondsSince1970
        self.includesAnswered = includesAnswered
        self.item = ItemSummary(event)
        self.from = from
        self.anchorShift = event.isAllDay ? allDayTimeOfDay : 0
        let duration = event.durationSeconds(floatingZone: zone)
        if case .relative(let offset, let relation) = alarm.trigger, event.isRecurring {
            // The first occurrence that can fire at or after `from` starts at from − offset (− duration for END).
            let lead = offset + anchorShift + (relation == .end ? duration : 0)
            // Instances answered elsewhere are not walked one by one: an answer far ahead (a
            // client with a wrong clock) on a minutely series would be millions of steps.
            let firstUnanswered = includesAnswered ? nil : answeredThrough.map { $0.secondsSince1970 + 1 }
            let series = Series(
                set: event.recurrenceSet, zone: zone, near: max(from.secondsSince1970, firstUnanswered ?? .min) - lead,
                duration: duration, replaced: replaced)
            if event.recurrenceRules.contains(where: { if case .count = $0.end { true } else { false } }) {
                source = .counted(
                    series,
                    IteratorBox(
                        series.set.occurrences(
                            near: Instant(secondsSince1970: series.near),
                            floatingZone: zone)))
            } else {
                source = .series(series, after: nil)
            }
        } else {
            let start = event.start.instant(floatingZone: zone).secondsSince1970
            let step = Self.step(alarm.trigger, start: start, end: start + duration, shift: anchorShift)
            source = .once(
                step.fireAt >= from.secondsSince1970 && !Self.skips(step, answeredThrough: answeredThrough?.secondsSince1970, includesAnswered) ? step : nil)
        }
    }

    /// The timeline of `alarm` on `reminder`; nil for location alarms, completed reminders, and
    /// relative alarms on a reminder with no date.
    public init?(
        alarm: Alarm, of reminder: Reminder, zone: ZoneRules, from: Instant, allDayTimeOfDay: Int64 = 0,
        answeredThrough: Instant? = nil, includesAnswered: Bool = false
    ) {
        guard alarm.trigger.keyText != nil, !reminder.isCompleted else { return nil }
        self.answeredThrough = answeredThrough?.secondsSince1970
        self.includesAnswered = includesAnswered
        let dueDate = reminder.dueDate ?? reminder.startDate
        let due = dueDate?.instant(floatingZone: zone)
        if case .relative = alarm.trigger, due == nil { return nil }
        self.alarm = alarm
        self.item = ItemSummary(reminder)
        self.from = from
        self.anchorShift = dueDate?.isAllDay == true ? allDayTimeOfDay : 0
        let step = Self.step(alarm.trigger, start: due?.secondsSince1970, end: nil, shift: anchorShift)
        source = .once(
            step.fireAt >= from.secondsSince1970 && !Self.skips(step, answeredThrough: answeredThrough?.secondsSince1970, includesAnswered) ? step : nil)
    }

    /// The next firing at or after `from`, or nil when the alarm will not fire again.
    public mutating func next() -> AlarmFiring? {
        nextStep().map(firing)
    }

    /// The next step, the lean form of ``next()``.
    mutating func nextStep() -> Step? {
        switch source {
        case .once(let step):
            source = .once(nil)
            return step
        case .series(let series, let after):
            var iterator = series.set.occurrences(
                near: Instant(secondsSince1970: after.map { $0 + 1 } ?? series.near),
                floatingZone: series.zone)
            guard let step = nextStep(of: series, from: &iterator, after: after) else {
                source = .once(nil)
                return nil
            }
            source = .series(series, after: step.start)
            return step
        case .counted(let series, var box):
            source = .once(nil)  // drops this timeline's reference, so a box it alone holds is changed in place
            if !isKnownUniquelyReferenced(&box) { box = IteratorBox(box.iterator) }
            guard let step = nextStep(of: series, from: &box.iterator, after: nil) else { return nil }
            source = .counted(series, box)
            return step
        }
    }

    /// The next firing of `series` that `iterator` reaches (occurrences up to `after` skipped),
    /// with the ones less than ``coalescingSeconds`` after the previous firing folded into it.
    private mutating func nextStep(of series: Series, from iterator: inout OccurrenceIterator, after: Int64?) -> Step? {
        var folded: Int32 = 0
        while let occurrence = iterator.next() {
            let start = occurrence.instant.secondsSince1970
            if let after, start <= after { continue }
            if series.replaced.contains(start) { continue }
            let step = Self.step(
                alarm.trigger, start: start, end: start + series.duration, shift: anchorShift,
                coalescedCount: folded)
            guard step.fireAt >= from.secondsSince1970, !Self.skips(step, answeredThrough: answeredThrough, includesAnswered) else { continue }
            if let last = lastFireAt, step.fireAt - last < Self.coalescingSeconds {
                folded += 1
                continue
            }
            lastFireAt = step.fireAt
            return step
        }
        return nil
    }

    /// The firing a step stands for.
    func firing(_ step: Step) -> AlarmFiring {
        let occurrence: Instant
        if case .relative = alarm.trigger {
            occurrence = Instant(secondsSince1970: step.start!)
        } else {
            occurrence = Instant(secondsSince1970: step.fireAt)
        }
        var firing = AlarmFiring(
            key: FiringKey(item: item.identifier, occurrence: occurrence, alarm: alarm.trigger.keyText!),
            fireAt: Instant(secondsSince1970: step.fireAt), alarm: alarm, item: item,
            occurrenceStart: step.start.map(Instant.init(secondsSince1970:)),
            occurrenceEnd: step.end.map(Instant.init(secondsSince1970:)))
        firing.coalescedCount = Int(step.coalescedCount)
        firing.silencedBecause = silence
        if let answeredThrough, step.fireAt <= answeredThrough { firing.acknowledgedAt = Instant(secondsSince1970: answeredThrough) }
        return firing
    }

    /// Whether `step` was answered elsewhere and is left out.
    private static func skips(_ step: Step, answeredThrough: Int64?, _ includesAnswered: Bool) -> Bool {
        guard let answeredThrough, !includesAnswered else { return false }
        return step.fireAt <= answeredThrough
    }

    private static func step(
        _ trigger: Alarm.Trigger, start: Int64?, end: Int64?, shift: Int64,
        coalescedCount: Int32 = 0
    ) -> Step {
        switch trigger {
        case .absolute(let date):
            return Step(fireAt: date.secondsSince1970, start: start, end: end, coalescedCount: coalescedCount)
        case .relative(let offset, let relation):
            let anchor = relation == .end ? (end ?? start!) : start!
            return Step(fireAt: anchor + offset + shift, start: start, end: end, coalescedCount: coalescedCount)
        case .location:
            preconditionFailure("location alarms have no timeline")
        }
    }
}

extension Instant {
    /// This instant moved by `seconds`.
    public func adding(_ seconds: Int64) -> Instant { Instant(secondsSince1970: secondsSince1970 + seconds) }
}
