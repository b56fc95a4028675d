import ChimeCore

/// A date-range query for events (what EventKit's `predicateForEvents(withStart:end:calendars:)`
/// returns): every occurrence that overlaps `[start, end)`, in the given calendars (nil = all).
public struct EventPredicate: Hashable, Sendable {
    public var start: Instant
    public var end: Instant
    /// Calendar identifiers; nil means every event calendar.
    public var calendars: [String]?
    /// Whether the events come with their alarms. A caller that never looks at them (a listing)
    /// sets this to false and the alarm rows are not read at all.
    public var includesAlarms: Bool = true
    /// Whether the events come with what a listing never shows: notes, URL, the external
    /// identifier, creation and modification dates, SEQUENCE and preserved iCalendar lines. A
    /// listing sets this to false and those columns are not read (the events have the defaults
    /// of a new ``Event`` there, the external identifier equal to the identifier).
    public var includesDetails: Bool = true

    public init(start: Instant, end: Instant, calendars: [String]? = nil, includesAlarms: Bool = true) {
        self.start = start
        self.end = end
        self.calendars = calendars
        self.includesAlarms = includesAlarms
    }
}

extension EventStore {
    /// A query for every occurrence overlapping `[start, end)`.
    ///
    /// ```swift
    /// let week = store.predicateForEvents(start: now, end: Instant(secondsSince1970: now.secondsSince1970 + 7 * 86_400))
    /// for event in try store.events(matching: week) { print(event.start, event.title) }
    /// ```
    public func predicateForEvents(start: Instant, end: Instant, calendars: [ChimeCore.Calendar]? = nil) -> EventPredicate {
        EventPredicate(start: start, end: end, calendars: calendars?.map(\.identifier))
    }

    /// Every occurrence the predicate matches, sorted by start (then by series order), as a
    /// collection of ``Event``s that builds each one when it is read (see ``EventList``).
    ///
    /// ```swift
    /// let today = try store.events(matching: store.predicateForEvents(start: midnight, end: nextMidnight))
    /// if let next = today.first(where: { $0.start.instant(floatingZone: store.floatingZone) >= now }) { print(next.title) }
    /// ```
    public func events(matching predicate: EventPredicate) throws(StoreError) -> EventList {
        var merger = try OccurrenceMerger.reading(predicate, from: self, expandingAll: true)
        let list = EventList(sources: merger.sources, slots: merger.allSlots())
        if let leftovers = merger.takeLeftovers() { LetGo.elsewhere(leftovers) }
        return list
    }

    /// Streams the predicate's occurrences in start order without building the whole list; set
    /// `stop` to true to end early. Each series is expanded lazily from near the window start.
    /// The store's own failures are ``StoreError``s; an error `body` throws comes out as it was
    /// thrown (it is the caller's, not the store's).
    ///
    /// ```swift
    /// try store.enumerateEvents(matching: week) { event, stop in
    ///     print(event.title)
    ///     stop = true   // only the first one
    /// }
    /// ```
    public func enumerateEvents(matching predicate: EventPredicate, using body: (Event, inout Bool) throws -> Void) throws {
        var merger = try OccurrenceMerger.reading(predicate, from: self)
        var stop = false
        while !stop, let occurrence = merger.nextOccurrence() { try body(occurrence.event, &stop) }
    }

    /// The same occurrences as ``enumerateEvents(matching:using:)``, in the same order, as light
    /// values: the stored event is shared and an ``Event`` is built only where
    /// ``EventOccurrence/event`` is asked for. With `predicate.includesAlarms` false, alarm rows
    /// are not read. `body` is called on the calling thread; for a long listing (many stored
    /// events in the window) the merge runs a few batches ahead on a thread of its own.
    ///
    /// ```swift
    /// var week = store.predicateForEvents(start: now, end: Instant(secondsSince1970: now.secondsSince1970 + 7 * 86_400))
    /// week.includesAlarms = false
    /// try store.enumerateOccurrences(matching: week) { o, _ in print(o.start, o.source.event.title) }
    /// ```
    public func enumerateOccurrences(
        matching predicate: EventPredicate,
        using body: (EventOccurrence, inout Bool) throws -> Void
    ) throws {
        var merger = try OccurrenceMerger.reading(predicate, from: self)
        var stop = false
        guard merger.sources.count >= Self.mergedAheadFrom else {
            while !stop, let occurrence = merger.nextOccurrence() { try body(occurrence, &stop) }
            return
        }
        // A long listing (a year of a busy store): the merge runs on a thread of its own, a few
        // batches ahead of `body`, which is called here, in order, as before.
        let sources = merger.sources
        do {
            try ReadWhileStoring.run(capacity: 4) { hand in
                var batch: [OccurrenceSlot] = []
                batch.reserveCapacity(Self.mergedBatch)
                while let slot = merger.nextSlot() {
                    batch.append(slot)
                    if batch.count == Self.mergedBatch {
                        try hand(batch)
                        batch.removeAll(keepingCapacity: true)
                    }
                }
                if !batch.isEmpty { try hand(batch) }
            } store: { (batch: inout [OccurrenceSlot]) in
                for slot in batch {
                    try body(EventOccurrence(source: sources[Int(slot.source)], slot: slot), &stop)
                    if stop { throw EnumerationStopped() }
                }
            }
        } catch is EnumerationStopped {}
    }

    /// From how many stored events a listing's merge runs ahead on a thread of its own: a year
    /// of a 10,000-event store has 5,700; a week, a few hundred (where a thread would cost more
    /// than it saves).
    static let mergedAheadFrom = 1_000
    static let mergedBatch = 1_024
    private struct EnumerationStopped: Error {}
}

extension OccurrenceMerger {
    /// The merger for `predicate`, its rows read in one transaction of `store`.
    static func reading(_ predicate: EventPredicate, from store: EventStore, expandingAll: Bool = false) throws(StoreError) -> OccurrenceMerger {
        let zone = store.floatingZone, unreadable = store.unreadable, decoded = store.decodedEvents
        // A store whose reads are taken one at a time (the daemon's) reads on one connection.
        let aside = expandingAll && store.readGate == nil ? store.pool : nil
        return try store.read { db in
            try OccurrenceMerger.load(
                db, predicate: predicate, floatingZone: zone, unreadable: unreadable, decoded: decoded, expandingAll: expandingAll,
                aside: aside)
        }
    }
}
