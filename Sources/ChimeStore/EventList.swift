import ChimeCore

/// What ``EventStore/events(matching:)`` returns: a query's occurrences in start order (then in
/// series order), read as ``Event``s.
///
/// Each occurrence is kept as a light value (which stored event, its start); the ``Event`` is
/// built when it is read, so a year of 170,000 occurrences costs a few megabytes, not a copy of
/// every event, and counting, slicing or reading a few of them builds only those. Reading the
/// same position twice builds it twice; keep the value if it is read often.
///
/// ```swift
/// let week = try store.events(matching: store.predicateForEvents(start: monday, end: nextMonday))
/// print(week.count, "occurrences")
/// for event in week.prefix(5) { print(event.start, event.title) }
/// let busy = week.filter { !$0.isAllDay }       // an [Event], as before
/// if !week.isEmpty {
///     let light = week.occurrence(at: 0)        // no Event built: start, end, stored event
///     print(light.start, light.end, light.source.event.title)
/// }
/// ```
///
/// Two lists are equal when they hold equal events in the same order.
public struct EventList: RandomAccessCollection, Equatable, Sendable {
    /// The stored events the occurrences come from, each shared by all of its occurrences.
    let sources: [StoredEvent]
    let slots: OccurrenceOrder

    init(sources: [StoredEvent], slots: OccurrenceOrder) {
        self.sources = sources
        self.slots = slots
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { slots.count }

    /// The occurrence at `position`, built as an ``Event`` (as ``EventOccurrence/event`` builds it).
    public subscript(position: Int) -> Event { occurrence(at: position).event }

    public static func == (a: EventList, b: EventList) -> Bool { a.elementsEqual(b) }

    /// The occurrence at `position` as a light value: no ``Event`` is built.
    public func occurrence(at position: Int) -> EventOccurrence {
        let slot = slots[position]
        return EventOccurrence(source: sources[Int(slot.source)], slot: slot)
    }
}
