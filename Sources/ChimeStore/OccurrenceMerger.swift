import ChimeCore
import GRDB
import Dispatch
import HeapModule

/// Merges the occurrences of many series (and single events, and detached occurrences) into one
/// stream sorted by start, holding one pending occurrence per series in a min-heap.
struct OccurrenceMerger {
    /// Per-series state, kept in parallel arrays so that advancing one series mutates its
    /// iterator in place instead of copying a struct full of references (retain/release
    /// traffic dominated the one-year agenda before).
    /// The events, boxed once: shared by every ``EventOccurrence`` (not copied per occurrence).
    private(set) var sources: [StoredEvent] = []
    /// Instants replaced by detached occurrences, per series.
    private var detached: [Set<Int64>] = []
    /// Each stored event's walk through its occurrences in the window, made when the merge starts.
    private var walks: [OccurrenceWalk] = []
    /// Start of the pending occurrence, and the instant the series scheduled it at.
    private var pending: [(start: Int64, scheduled: Int64)?] = []
    private var started = false
    /// A whole list's expansion, started by ``load`` when asked for.
    private var expansion: OccurrenceExpansion?
    /// What is left of the read: the candidates' identifiers, every alarm of a table read whole.
    private var leftovers: ReadLeftovers?

    struct ReadLeftovers: Sendable {
        let candidates: Candidates
        let alarms: ReadAside<[String: [Alarm]]>?
    }

    /// What is left of a whole list's read (``load`` with `expandingAll`), for the caller to
    /// free on another thread once the occurrences are in order (``LetGo``): freeing its
    /// thousands of strings and arrays at the end of the read took 2.7–4.3 ms of a year's first
    /// query's 30, and during the walk it took the cores the walk needs.
    mutating func takeLeftovers() -> ReadLeftovers? {
        defer { leftovers = nil }
        return leftovers
    }

    private struct Entry: Comparable {
        let start: Int64
        let source: Int
        static func < (a: Entry, b: Entry) -> Bool { (a.start, a.source) < (b.start, b.source) }
    }

    /// The merge order is kept in two parts: series whose pending start falls in the current
    /// bucket of time sit in a small heap; later ones wait in their bucket, a list threaded
    /// through `nextInBucket` (-1 ends it). With one heap of every series, the heap's sifts were
    /// the largest part of a one-year agenda (12 % of it, 3,000 series); an hour's bucket holds
    /// a few dozen.
    private var heap = Heap<Entry>()
    private var bucketHeads: [Int]
    private var nextInBucket: [Int] = []
    private var currentBucket = 0
    private let bucketSeconds: Int64
    private let from: Int64
    private let to: Int64

    private init(from: Int64, to: Int64) {
        self.from = from
        self.to = to
        // Hours, or longer for windows of more than 65,536 hours (7.5 years).
        bucketSeconds = max(3_600, (to - from) / 65_536 + 1)
        bucketHeads = Array(repeating: -1, count: Int(max(0, to - from) / bucketSeconds) + 1)
    }

    /// The bucket of a pending start (starts before the window, of occurrences already under
    /// way, go to the first).
    private func bucket(_ start: Int64) -> Int {
        start <= from ? 0 : min(bucketHeads.count - 1, Int((start - from) / bucketSeconds))
    }

    /// Puts a series with a pending start into the merge order.
    private mutating func schedule(_ index: Int, start: Int64) {
        let b = bucket(start)
        if b <= currentBucket {
            heap.insert(Entry(start: start, source: index))
        } else {
            nextInBucket[index] = bucketHeads[b]
            bucketHeads[b] = index
        }
    }

    /// The earliest pending entry, moving on to the next non-empty bucket when the current one
    /// is done.
    private mutating func top() -> Entry? {
        while heap.isEmpty {
            currentBucket += 1
            guard currentBucket < bucketHeads.count else { return nil }
            var index = bucketHeads[currentBucket]
            bucketHeads[currentBucket] = -1
            while index >= 0 {
                if let p = pending[index] { schedule(index, start: p.start) }
                index = nextInBucket[index]
            }
        }
        return heap.min
    }

    /// Reads the candidate rows in one read transaction; expansion then happens lazily.
    /// With `expandingAll`, a whole list is wanted (``allSlots()``): its expansion starts while
    /// the alarms are read, and with `aside` (the store's pool, where reads may run side by
    /// side) a long window's alarms are read on another connection while the rows are read
    /// here (see ``ReadAside``).
    static func load(
        _ db: Database, predicate: EventPredicate, floatingZone: ZoneRules,
        unreadable: UnreadableRows, decoded: DecodedEvents, expandingAll: Bool = false, aside: DatabasePool? = nil
    ) throws -> OccurrenceMerger {
        var merger = OccurrenceMerger(from: predicate.start.secondsSince1970, to: predicate.end.secondsSince1970)
        let lo = merger.from - ItemRows.floatingMargin, hi = merger.to + ItemRows.floatingMargin
        var filter = "kind = 'event' AND range_start < ? AND (range_end IS NULL OR range_end >= ?)"
        var arguments: StatementArguments = [hi, lo]
        // Series whose days miss the window's are passed over in the index (see DayMasks); a
        // window of every day filters nothing.
        let days = DayMasks(window: predicate.start, to: predicate.end)
        if !days.isAll {
            filter +=
                " AND (IFNULL(day_weekdays, 127) & ?) != 0 AND (IFNULL(day_monthdays, 4294967294) & ?) != 0"
                + " AND (IFNULL(day_months, 8190) & ?) != 0"
            arguments += [days.weekdays, days.monthDays, days.months]
        }
        if let calendars = predicate.calendars {
            filter += " AND calendar_id IN (\(calendars.map { _ in "?" }.joined(separator: ",")))"
            arguments += StatementArguments(calendars)
        }
        // Detached occurrences that replace an instant before the window's end (later ones cannot
        // matter here): all of them when the store has few, else those of the candidate series.
        let detached =
            try ItemRows.detachedOverridesIfFew(db, before: hi)
            ?? ItemRows.detachedOverrides(db, seriesFilter: filter, arguments: arguments, before: hi)

        // Every candidate, kept or read; the merge takes them in the order (range_start, id).
        // Read rows get their alarms once all are read (then their items are known: see
        // AlarmRows), after the expansion of a whole list has started on another thread.
        var found = Candidates()

        // Events decoded by an earlier query of the unchanged file are taken as they are: the
        // candidates then come from the window index alone (rowid, range_start), and only the
        // rows not kept are read. Otherwise (or when fewer than half are kept: then one read of
        // every row costs less than one seek per missing row) every candidate row is read. From
        // a store's second query on, what is read is kept for the next.
        let details = predicate.includesDetails
        let key = try DecodedEvents.key(db)
        let keeping = decoded.countQuery()
        let contents = DecodedEvents.Contents(details: details, alarms: predicate.includesAlarms)
        var rowFilter = filter, rowArguments = arguments, rowsToRead = true
        if decoded.holds(key: key, contents: contents) {
            var candidates: [(rowid: Int64, rangeStart: Int64)] = []
            let rows = try Row.fetchCursor(
                db.cachedStatement(sql: "SELECT rowid, range_start FROM item WHERE \(filter)"),
                arguments: arguments)
            while let row = try rows.next() { candidates.append((row[0], row[1])) }
            let entries = decoded.lookup(candidates.map(\.rowid), key: key, contents: contents)
            if let entries, entries.count(where: { $0 != nil }) * 2 >= candidates.count {
                var missing: [String] = []
                for (candidate, entry) in zip(candidates, entries) {
                    if let entry {
                        found.append(entry.event, id: entry.id, rangeStart: candidate.rangeStart, rowid: nil)
                    } else {
                        missing.append(String(candidate.rowid))
                    }
                }
                rowsToRead = !missing.isEmpty
                (rowFilter, rowArguments) = ("rowid IN (SELECT value FROM json_each(?))", [JSONText.array(missing)])
            }
        }
        var rowsRead = 0
        // A long window's alarms, read on a second connection while this one reads the rows.
        var alarmsAside: ReadAside<[String: [Alarm]]>?
        if let aside, expandingAll, contents.alarms, rowsToRead, rowFilter == filter,
            predicate.end.secondsSince1970 - predicate.start.secondsSince1970 >= Self.longWindowSeconds
        {
            let alarmFilter = filter, alarmArguments = arguments
            alarmsAside = ReadAside(pool: aside) { db in
                try AlarmRows.fetch(db, candidates: alarmFilter, arguments: alarmArguments, from: lo, to: hi)
            }
        }
        if rowsToRead {
            let columns = details ? ItemColumns.list : ItemColumns.listing
            let statement = try db.cachedStatement(sql: "SELECT \(columns), range_start, rowid FROM item WHERE \(rowFilter)")
            let rows = try Row.fetchCursor(statement, arguments: rowArguments)
            let row = StatementColumns(statement)
            var cache = ItemRows.DecodingCache()
            while try rows.next() != nil {
                guard let id = row.text(ItemColumns.id),
                    let event = unreadable.decode(
                        row, { row throws(StoreError) in try ItemRows.event(row, id: id, alarms: [], cache: &cache, details: details) })
                else { continue }
                found.append(event, id: id, rangeStart: row.int64(ItemColumns.count) ?? 0, rowid: row.int64(ItemColumns.count + 1))
                rowsRead += 1
            }
        }
        decoded.noteRowsRead(rowsRead)

        // The merge order, and what each stored event's walk needs (not its alarms).
        var keys = found.events.indices.map { (rangeStart: found.rangeStarts[$0], index: $0) }
        keys.sort { a, b in
            a.rangeStart != b.rangeStart ? a.rangeStart < b.rangeStart : Self.bytesPrecede(found.ids[a.index], found.ids[b.index])
        }
        let order = keys.map(\.index)
        let durations = order.map { found.events[$0].durationSeconds(floatingZone: floatingZone) }
        merger.detached = order.map { i in
            found.events[i].isDetached || detached.isEmpty ? [] : detached[found.ids[i]] ?? []
        }
        if expandingAll {
            let plans = order.indices.map { p in OccurrenceWalk.Plan(found.events[order[p]], duration: durations[p], floatingZone: floatingZone) }
            merger.expansion = OccurrenceExpansion(plans, replaced: merger.detached, from: merger.from, to: merger.to, helper: aside != nil)
        }

        if contents.alarms && rowsRead > 0 {
            let alarms =
                try alarmsAside?.value(readAt: Journal.lastSequence(db))
                ?? AlarmRows.fetch(db, items: Set(found.events.indices.lazy.filter { found.rowids[$0] != nil }.map { found.ids[$0] }))
            for i in found.events.indices where found.rowids[i] != nil {
                // In place: the event's storage is not shared yet, so nothing is copied.
                if let a = alarms[found.ids[i]] { found.events[i].alarms = a }
            }
        }
        if keeping {
            decoded.keep(
                found.events.indices.compactMap { i in
                    found.rowids[i].map { ($0, DecodedEvents.Entry(id: found.ids[i], event: found.events[i])) }
                }, key: key, contents: contents)
        }
        // Boxed once: handing over references copies no Event.
        merger.sources = order.indices.map { p in
            StoredEvent(event: found.events[order[p]], duration: durations[p], zone: floatingZone, ordinal: p)
        }
        // A whole list's are kept, not freed here (see ``takeLeftovers()``).
        if expandingAll { merger.leftovers = ReadLeftovers(candidates: found, alarms: alarmsAside) }
        return merger
    }

    /// The stored events a query found, kept from an earlier query (rowid nil) or read now: one
    /// array per field, so reading one field of a candidate copies nothing else.
    struct Candidates: Sendable {
        var events: [Event] = []
        var ids: [String] = []
        var rangeStarts: [Int64] = []
        var rowids: [Int64?] = []

        mutating func append(_ event: Event, id: String, rangeStart: Int64, rowid: Int64?) {
            events.append(event)
            ids.append(id)
            rangeStarts.append(rangeStart)
            rowids.append(rowid)
        }
    }

    /// From how long a window a whole list's alarms are read on a second connection: a month of
    /// a busy store has a few thousand candidates; a day's few would pay more for the thread
    /// and the connection than they save.
    static let longWindowSeconds: Int64 = 28 * 86_400

    /// Whether `a` sorts before `b` by their UTF-8 bytes, as SQLite's BINARY collation orders
    /// them (String's `<` follows Unicode, which differs outside ASCII).
    private static func bytesPrecede(_ a: String, _ b: String) -> Bool {
        var a = a, b = b
        return a.withUTF8 { x in
            b.withUTF8 { y in
                for i in 0..<min(x.count, y.count) where x[i] != y[i] { return x[i] < y[i] }
                return x.count < y.count
            }
        }
    }

    /// Starts every stored event's walk and puts its first occurrence into the merge order (once,
    /// on the first ``nextSlot()``: ``allSlots()`` needs none of it).
    private mutating func start() {
        started = true
        walks.reserveCapacity(sources.count)
        pending = Array(repeating: nil, count: sources.count)
        nextInBucket = Array(repeating: -1, count: sources.count)
        for index in sources.indices {
            walks.append(OccurrenceWalk(OccurrenceWalk.Plan(sources[index]), replaced: detached[index], from: from, to: to))
            pending[index] = walks[index].next()
            if let p = pending[index] { schedule(index, start: p.start) }
        }
    }

    /// The next occurrence as its series' position in ``sources``, its start and the instant its
    /// series scheduled it at: nothing is retained for it.
    mutating func nextSlot() -> OccurrenceSlot? {
        if !started { start() }
        guard let top = top(), let current = pending[top.source] else { return nil }
        let index = top.source
        pending[index] = walks[index].next()
        settleTop(index)
        return OccurrenceSlot(source: Int32(truncatingIfNeeded: index), start: current.start, scheduled: current.scheduled)
    }

    /// The next occurrence as a light value: no `Event` is built for it.
    mutating func nextOccurrence() -> EventOccurrence? {
        nextSlot().map { EventOccurrence(source: sources[Int($0.source)], slot: $0) }
    }

    /// Every occurrence at once, in the order ``nextSlot()`` gives them (see ``OccurrenceOrder``).
    func allSlots() -> OccurrenceOrder {
        let expansion =
            expansion
            ?? OccurrenceExpansion(
                sources.map(OccurrenceWalk.Plan.init),
                replaced: detached, from: from, to: to, helper: false)
        return expansion.finish()
    }

    /// After the series at the top of the heap moved on: its next occurrence takes its place in
    /// one sift (not a pop and an insert) when it falls in the current bucket, else it leaves the
    /// heap for its bucket (or for good).
    private mutating func settleTop(_ index: Int) {
        if let next = pending[index], bucket(next.start) <= currentBucket {
            heap.replaceMin(with: Entry(start: next.start, source: index))
        } else {
            heap.removeMin()
            if let next = pending[index] { schedule(index, start: next.start) }
        }
    }
}

/// Values freed on another thread, when freeing them would hold up the caller.
///
/// ```swift
/// let rows = readRows()
/// …
/// LetGo.elsewhere(consume rows)   // the other thread's reference is the last
/// ```
enum LetGo {
    static func elsewhere<Value: Sendable>(_ value: consuming Value) {
        let value = value
        DispatchQueue.global(qos: .utility).async { withExtendedLifetime(value) {} }
    }
}

/// One occurrence as a query's merge hands it over: which of the query's stored events, when it
/// starts, and the instant its series scheduled it at (seconds since 1970).
struct OccurrenceSlot: Sendable {
    let source: Int32
    let start: Int64
    let scheduled: Int64
}

/// A stored event as a query read it: a series, a single event or a detached occurrence, shared
/// by every ``EventOccurrence`` it produced.
///
/// ```swift
/// // Something per event, built on its first occurrence: an array indexed by `ordinal`.
/// var titles: [String?] = []
/// try store.enumerateOccurrences(matching: week) { o, _ in
///     let n = o.source.ordinal
///     if n >= titles.count { titles += Array(repeating: nil, count: n + 1 - titles.count) }
///     if titles[n] == nil { titles[n] = o.source.event.title.uppercased() }
///     print(o.start, titles[n]!, o.source.isAllDay ? "(all day)" : "")
/// }
/// ```
public final class StoredEvent: Sendable {
    /// The event as stored (for a series: its first occurrence's dates, its rules).
    public let event: Event
    /// Seconds from an occurrence's start to its end (whole days for all-day events).
    public let duration: Int64
    /// The zone the query read floating times and all-day dates in.
    public let floatingZone: ZoneRules
    /// This event's position among the stored events of its query, from 0: a caller that keeps
    /// something per event (a listing's labels) keeps it in an array indexed by this.
    public let ordinal: Int
    /// `event.isRecurring` and `event.isAllDay`, read once: a listing asks for each several
    /// times per occurrence.
    public let isRecurring: Bool
    public let isAllDay: Bool
    /// The zone a timed occurrence's end is read on (the end's own, else `floatingZone`).
    let endZone: ZoneRules

    init(event: Event, duration: Int64, zone: ZoneRules, ordinal: Int) {
        self.event = event
        self.duration = duration
        self.floatingZone = zone
        self.ordinal = ordinal
        isRecurring = event.isRecurring
        isAllDay = event.isAllDay
        endZone = event.end.zone(floatingZone: zone)
    }
}

/// One occurrence from ``EventStore/enumerateOccurrences(matching:using:)``: when it is and which
/// stored event it comes from, without an ``Event`` value built for it (a listing of a year
/// touches 170,000 of them and reads a few fields of each).
public struct EventOccurrence: Sendable {
    /// The stored event: title, calendar, location, rules… are read from here.
    public let source: StoredEvent
    /// When this occurrence starts.
    public let start: Instant
    /// The instant the series scheduled it at (`start`, unless a detached occurrence was moved);
    /// what ``Event/occurrenceDate`` holds and occurrence references name.
    public let occurrenceDate: Instant

    init(source: StoredEvent, slot: OccurrenceSlot) {
        self.source = source
        start = Instant(secondsSince1970: slot.start)
        occurrenceDate = Instant(secondsSince1970: slot.scheduled)
    }

    /// Whether this is one occurrence of a series (or a detached one): what decides whether a
    /// reference names the occurrence (`ID@…`) or the event alone.
    public var isOccurrenceOfSeries: Bool { source.isRecurring || source.event.isDetached }

    public var isAllDay: Bool { source.isAllDay }

    /// The first day, on the floating clock (what an all-day occurrence shows).
    public var startDay: CivilDate {
        guard source.isRecurring else { return source.event.start.local.date }
        return source.floatingZone.localTime(at: start).date
    }

    /// When this occurrence ends (for all-day ones: the start of the day after its last), the
    /// same instant as ``event``'s end, computed without building it.
    public var end: Instant {
        if source.isAllDay {
            return CalendarDate.allDay(startDay.adding(days: Int(source.duration / 86_400))).instant(floatingZone: source.floatingZone)
        }
        guard source.isRecurring else { return source.event.end.instant(floatingZone: source.floatingZone) }
        // The event's end moved to start + duration and read back on its clock: the wall time
        // there, then that wall time's instant (in an overlap, its first one), as
        // `Event.occurrence(at:…)` gives it, without building the dates between.
        let zone = source.endZone, end = Instant(secondsSince1970: start.secondsSince1970 + source.duration)
        let wall = end.secondsSince1970 + Int64(zone.offset(at: end))
        return Instant(secondsSince1970: zone.instantSeconds(forLocalSeconds: wall))
    }

    /// The full ``Event`` for this occurrence, as ``EventStore/enumerateEvents(matching:using:)``
    /// gives it (built on each call).
    public var event: Event {
        let e = source.event
        guard source.isRecurring else {
            var single = e
            single.occurrenceDate = occurrenceDate
            return single
        }
        return e.occurrence(at: start, duration: source.duration, floatingZone: source.floatingZone)
    }
}
