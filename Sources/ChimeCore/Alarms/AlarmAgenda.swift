import HeapModule

/// Every timed firing of a set of items, merged into one time-ordered stream.
///
/// Holds one pending firing per alarm timeline in a min-heap, so the next firing costs
/// O(log n) and a series is expanded only as far as it is read. Items can be replaced or
/// removed while the agenda is in use (the scheduler does so when the store changes); only
/// their own timelines are recomputed.
///
/// The preview (`chime alarms`) and the daemon both read firings from this type, so what the
/// preview shows is what the daemon fires.
///
/// ```swift
/// var agenda = AlarmAgenda(zone: zone, from: now)
/// agenda.add(.event(standup))
/// while let firing = agenda.popNext(through: now.adding(86_400)) { print(firing.fireAt, firing.item.title) }
/// ```
public struct AlarmAgenda {
    private struct Entry: Comparable {
        let fireAt: Int64
        let slot: Int
        let generation: Int
        static func < (a: Entry, b: Entry) -> Bool { (a.fireAt, a.slot) < (b.fireAt, b.slot) }
    }

    private var timelines: [AlarmTimeline?] = []
    /// Each timeline's next firing, lean: the full firing is built when it is peeked.
    private var pending: [AlarmTimeline.Step?] = []
    private var generations: [Int] = []
    private var freeSlots: [Int] = []
    /// Each item's slots as a list threaded through `nextSlotOfItem` (-1 ends it): no array
    /// per item, which for a daemon's thousands of items was an allocation each.
    private var firstSlotByItem: [String: Int] = [:]
    private var nextSlotOfItem: [Int] = []
    private var heap = Heap<Entry>()

    /// The zone floating times and all-day dates are read in.
    public private(set) var zone: ZoneRules
    /// Firings before this instant are not produced.
    public private(set) var from: Instant

    /// Implicit reminder alarms and the all-day time of day (``AlarmDefaults``).
    public let defaults: AlarmDefaults

    /// Whether instances answered on another device or client are kept (marked with
    /// ``AlarmFiring/acknowledgedAt``): for listings; the scheduler leaves them out.
    public let includesAnswered: Bool
    /// Whether the alarms of items that do not ring (cancelled, declined: ``AlarmDefaults/silence(of:)``)
    /// are kept, marked with ``AlarmFiring/silencedBecause``: for `chime alarms --all`.
    public let includesSilenced: Bool

    public init(
        zone: ZoneRules, from: Instant, defaults: AlarmDefaults = AlarmDefaults(), includesAnswered: Bool = false,
        includesSilenced: Bool = false
    ) {
        self.zone = zone
        self.from = from
        self.defaults = defaults
        self.includesAnswered = includesAnswered
        self.includesSilenced = includesSilenced
    }

    /// Adds the timed alarms of an item. `replaced` lists the occurrence starts (seconds) of a
    /// recurring event that detached occurrences override. Firings before `start` (default: the
    /// agenda's ``from``) are skipped: an item changed at noon does not fire its morning alarms.
    public mutating func add(_ item: AnyCalendarItem, replaced: Set<Int64> = [], from start: Instant? = nil) {
        // Cancelled, or declined by the user: nothing of it rings (its occurrences that are
        // overrides of their own decide for themselves).
        let silence = defaults.silence(of: item)
        guard silence == nil || includesSilenced else { return }
        let from = max(start ?? self.from, self.from)
        // Answers written by other devices and clients (AlarmAnswers): Thunderbird's for the whole item.
        let lastAcknowledged = AlarmAnswers.lastAcknowledged(of: item)
        func answeredByLines(_ alarm: Alarm) -> Instant? {
            switch (alarm.acknowledged, lastAcknowledged) {
            case (let a?, let b?): return max(a, b)
            case (let a, let b): return a ?? b
            }
        }
        let itemAlarms = item.alarms
        var alarms = itemAlarms
        func answered(_ alarm: Alarm) -> Instant? {
            // A snooze answered in Thunderbird's form only: over, whenever it was to ring.
            if case .absolute(let time) = alarm.trigger, AlarmAnswers.snoozeAnswered(alarm, in: itemAlarms, lastAcknowledged: lastAcknowledged) {
                return max(time, lastAcknowledged!)
            }
            return answeredByLines(alarm)
        }
        if case .reminder(let reminder) = item, let implicit = defaults.implicitAlarm(for: reminder) { alarms.append(implicit) }
        // Thunderbird's snoozes ring again at their time, as an absolute alarm would (once: an
        // RFC 9074 snooze alarm at the same time, written beside it, is the same ring).
        for snooze in AlarmAnswers.mozillaSnoozes(of: item) where !alarms.contains(where: { $0.trigger == .absolute(snooze.until) }) {
            alarms.append(.absolute(snooze.until))
        }
        switch item {
        case .event(let event):
            for alarm in alarms {
                if let t = AlarmTimeline(
                    alarm: alarm, of: event, replaced: replaced, zone: zone, from: from,
                    allDayTimeOfDay: defaults.allDayTimeOfDay, answeredThrough: answered(alarm),
                    includesAnswered: includesAnswered)
                {
                    insert(t, silence)
                }
            }
        case .reminder(let reminder):
            for alarm in alarms {
                if let t = AlarmTimeline(
                    alarm: alarm, of: reminder, zone: zone, from: from,
                    allDayTimeOfDay: defaults.allDayTimeOfDay, answeredThrough: answered(alarm),
                    includesAnswered: includesAnswered)
                {
                    insert(t, silence)
                }
            }
        }
    }

    /// Drops every timeline of the item with this identifier (a series and its detached occurrences).
    public mutating func remove(item identifier: String) {
        guard var slot = firstSlotByItem.removeValue(forKey: identifier) else { return }
        while slot >= 0 {
            let next = nextSlotOfItem[slot]
            timelines[slot] = nil
            pending[slot] = nil
            generations[slot] += 1
            freeSlots.append(slot)
            slot = next
        }
    }

    /// The next firing without consuming it.
    public mutating func peek() -> AlarmFiring? {
        while let top = heap.min {
            if generations[top.slot] == top.generation, let step = pending[top.slot], let timeline = timelines[top.slot] {
                return timeline.firing(step)
            }
            heap.removeMin()
        }
        return nil
    }

    /// The next firing if it fires at or before `limit`, consumed.
    public mutating func popNext(through limit: Instant) -> AlarmFiring? {
        guard let firing = peek(), firing.fireAt <= limit, let top = heap.popMin() else { return nil }
        advance(top.slot)
        return firing
    }

    /// Gives back the room the slot arrays grew into while items were added (up to half of them,
    /// as arrays double): a long-lived agenda, such as the daemon's after its start, keeps only
    /// what it holds.
    ///
    /// ```swift
    /// for source in sources { agenda.add(source.item, replaced: source.replaced) }
    /// agenda.releaseUnusedCapacity()
    /// ```
    public mutating func releaseUnusedCapacity() {
        func exact<T>(_ array: [T]) -> [T] {
            var copy: [T] = []
            copy.reserveCapacity(array.count)
            copy.append(contentsOf: array)
            return copy
        }
        timelines = exact(timelines)
        pending = exact(pending)
        generations = exact(generations)
        nextSlotOfItem = exact(nextSlotOfItem)
    }

    /// How many items have timed alarms in the agenda (including ones that will not fire again).
    public var itemCount: Int { firstSlotByItem.count }

    /// How many alarm timelines are pending (the heap's live entries).
    public var pendingCount: Int { pending.lazy.filter { $0 != nil }.count }

    private mutating func insert(_ timeline: AlarmTimeline, _ silence: AlarmDefaults.Silence?) {
        var timeline = timeline
        timeline.silence = silence
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = free
            timelines[slot] = timeline
        } else {
            slot = timelines.count
            timelines.append(timeline)
            pending.append(nil)
            generations.append(0)
            nextSlotOfItem.append(-1)
        }
        nextSlotOfItem[slot] = firstSlotByItem.updateValue(slot, forKey: timeline.item.identifier) ?? -1
        advance(slot)
    }

    private mutating func advance(_ slot: Int) {
        pending[slot] = timelines[slot]?.nextStep()
        if let next = pending[slot] {
            heap.insert(Entry(fireAt: next.fireAt, slot: slot, generation: generations[slot]))
        }
    }
}

extension AlarmAgenda {
    /// Every firing in `[from, to]`, in order (the preview's list).
    public static func firings(
        of items: [(item: AnyCalendarItem, replaced: Set<Int64>)], zone: ZoneRules,
        from: Instant, to: Instant, defaults: AlarmDefaults = AlarmDefaults(),
        includesAnswered: Bool = false, includesSilenced: Bool = false
    ) -> [AlarmFiring] {
        var agenda = AlarmAgenda(
            zone: zone, from: from, defaults: defaults, includesAnswered: includesAnswered,
            includesSilenced: includesSilenced)
        for entry in items { agenda.add(entry.item, replaced: entry.replaced) }
        var result: [AlarmFiring] = []
        while let firing = agenda.popNext(through: to) { result.append(firing) }
        return result
    }
}
