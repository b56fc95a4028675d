import ChimeCore
import GRDB
import HeapModule

/// Merges the occurrences of many series (and single events, and detached occurrences) into one
/// stream sorted by start, holding one pending occurrence per series in a min-heap.
struct OccurrenceMerger {
    private struct Source {
        var template: Event
        var iterator: OccurrenceIterator?
        /// Start of the pending occurrence, and the instant the series scheduled it at.
        var pending: (start: Int64, scheduled: Int64)?
        let duration: Int64
        /// Instants replaced by detached occurrences.
        let detached: Set<Int64>
    }

    private struct Entry: Comparable {
        let start: Int64
        let source: Int
        static func < (a: Entry, b: Entry) -> Bool { (a.start, a.source) < (b.start, b.source) }
    }

    private var sources: [Source] = []
    private var heap = Heap<Entry>()
    private let from: Int64
    private let to: Int64
    private let zone: ZoneRules

    private init(from: Int64, to: Int64, zone: ZoneRules) {
        self.from = from
        self.to = to
        self.zone = zone
    }

    /// Reads the candidate rows in one read transaction; expansion then happens lazily.
    static func load(_ db: Database, predicate: EventPredicate, floatingZone: ZoneRules) throws -> OccurrenceMerger {
        var merger = OccurrenceMerger(from: predicate.start.secondsSince1970, to: predicate.end.secondsSince1970, zone: floatingZone)
        let lo = merger.from - ItemRows.floatingMargin, hi = merger.to + ItemRows.floatingMargin
        var filter = "kind = 'event' AND range_start < ? AND (range_end IS NULL OR range_end >= ?)"
        var arguments: StatementArguments = [hi, lo]
        if let calendars = predicate.calendars {
            filter += " AND calendar_id IN (\(calendars.map { _ in "?" }.joined(separator: ",")))"
            arguments += StatementArguments(calendars)
        }
        let alarms = try AlarmRows.fetch(db, itemFilter: "SELECT id FROM item WHERE \(filter)", arguments: arguments)
        var detached: [String: Set<Int64>] = [:]
        let pairs = try Row.fetchCursor(db, sql: "SELECT series_id, recurrence_id FROM item WHERE series_id IS NOT NULL")
        while let row = try pairs.next() { detached[row[0], default: []].insert(row[1]) }

        let rows = try Row.fetchCursor(db, sql: "SELECT \(ItemColumns.list) FROM item WHERE \(filter) ORDER BY range_start, id",
                                       arguments: arguments)
        while let row = try rows.next() {
            let id: String = row[ItemColumns.id]
            let event = try ItemRows.event(row, alarms: alarms[id] ?? [])
            merger.add(event, detached: event.isDetached ? [] : detached[id] ?? [])
        }
        return merger
    }

    private mutating func add(_ event: Event, detached: Set<Int64>) {
        let duration = event.durationSeconds(floatingZone: zone)
        let recurring = !event.isDetached && (!event.recurrenceRules.isEmpty || !event.recurrenceDates.isEmpty)
        var source = Source(template: event, iterator: nil, pending: nil, duration: duration, detached: detached)
        if recurring {
            // Start expanding one occurrence-length before the window, not at the series' beginning.
            source.iterator = event.recurrenceSet.occurrences(near: Instant(secondsSince1970: from - max(duration, 0)),
                                                             floatingZone: zone)
        } else {
            let start = event.start.instant(floatingZone: zone).secondsSince1970
            if overlaps(start, duration) {
                source.pending = (start, event.occurrenceDate?.secondsSince1970 ?? start)
            }
        }
        sources.append(source)
        let index = sources.count - 1
        if recurring { advance(index) }
        if let pending = sources[index].pending { heap.insert(Entry(start: pending.start, source: index)) }
    }

    private func overlaps(_ start: Int64, _ duration: Int64) -> Bool {
        start < to && (start + duration > from || (duration <= 0 && start >= from))
    }

    /// Moves a series to its next occurrence that overlaps the window (or to none).
    private mutating func advance(_ index: Int) {
        sources[index].pending = nil
        let duration = sources[index].duration
        while let o = sources[index].iterator?.next() {
            let start = o.instant.secondsSince1970
            if start >= to { sources[index].iterator = nil; return }
            if sources[index].detached.contains(start) || !overlaps(start, duration) { continue }
            sources[index].pending = (start, start)
            return
        }
        sources[index].iterator = nil
    }

    mutating func next() -> Event? {
        guard let top = heap.popMin() else { return nil }
        let source = sources[top.source]
        guard let pending = source.pending else { return nil }
        var event = source.template
        event.occurrenceDate = Instant(secondsSince1970: pending.scheduled)
        if source.iterator != nil {
            let at = Instant(secondsSince1970: pending.start)
            if case .allDay = event.start {
                let day = zone.localTime(at: at).date
                event.start = .allDay(day)
                event.end = .allDay(day.adding(days: Int(source.duration / 86_400)))
            } else {
                event.start = event.start.with(instant: at, floatingZone: zone)
                event.end = event.end.with(instant: Instant(secondsSince1970: pending.start + source.duration), floatingZone: zone)
            }
            advance(top.source)
            if let next = sources[top.source].pending { heap.insert(Entry(start: next.start, source: top.source)) }
        } else {
            sources[top.source].pending = nil
        }
        return event
    }
}
