import ChimeCore
import Dispatch
import Synchronization

/// One stored event's occurrences that overlap a query's window `[from, to)`, in start order:
/// what the merge takes one at a time, and what a whole list (``OccurrenceMerger/allSlots()``)
/// takes at once. A series is expanded from one occurrence-length before the window, not from
/// its beginning; instants that detached occurrences replace are passed over.
struct OccurrenceWalk {
    private var iterator: OccurrenceIterator?
    /// A single event's (or a detached occurrence's) one occurrence, until it is taken.
    private var single: (start: Int64, scheduled: Int64)?
    private let duration: Int64
    private let from: Int64
    private let to: Int64
    private let replaced: Set<Int64>

    /// What a walk needs of a stored event: not its alarms, which a query reads after the walks
    /// of a whole list have started.
    struct Plan: Sendable {
        /// A series' dates and rules; nil for a single event or a detached occurrence.
        let recurrence: RecurrenceSet?
        /// A single event's start and the instant it is scheduled at (its series', if detached).
        let start: Int64
        let scheduled: Int64
        let duration: Int64
        let floatingZone: ZoneRules

        init(_ event: Event, duration: Int64, floatingZone: ZoneRules) {
            self.duration = duration
            self.floatingZone = floatingZone
            if event.isRecurring {
                recurrence = event.recurrenceSet
                (start, scheduled) = (0, 0)
            } else {
                recurrence = nil
                start = event.start.instant(floatingZone: floatingZone).secondsSince1970
                scheduled = event.occurrenceDate?.secondsSince1970 ?? start
            }
        }

        /// The plan of an event a query has already stored.
        init(_ source: StoredEvent) {
            self.init(source.event, duration: source.duration, floatingZone: source.floatingZone)
        }
    }

    init(_ plan: Plan, replaced: Set<Int64>, from: Int64, to: Int64) {
        duration = plan.duration
        self.from = from
        self.to = to
        self.replaced = replaced
        if let recurrence = plan.recurrence {
            iterator = recurrence.occurrences(near: Instant(secondsSince1970: from - max(duration, 0)), floatingZone: plan.floatingZone)
        } else if Self.overlaps(plan.start, duration, from, to) {
            single = (plan.start, plan.scheduled)
        }
    }

    private static func overlaps(_ start: Int64, _ duration: Int64, _ from: Int64, _ to: Int64) -> Bool {
        start < to && (start + duration > from || (duration <= 0 && start >= from))
    }

    /// The next occurrence's start and the instant its series scheduled it at (nil: no more).
    mutating func next() -> (start: Int64, scheduled: Int64)? {
        if let s = single {
            single = nil
            return s
        }
        while let o = iterator?.next() {
            let start = o.instant.secondsSince1970
            if start >= to { break }
            if !replaced.isEmpty && replaced.contains(start) { continue }
            if !Self.overlaps(start, duration, from, to) { continue }
            return (start, start)
        }
        iterator = nil
        return nil
    }
}

/// A query's occurrences in merge order (by start, then by position among its stored events),
/// as ``OccurrenceMerger/allSlots()`` finds them: each stored event's occurrences are walked on
/// their own, half of the events on a second thread when there are many, then put in order once.
/// For a whole list this costs less than choosing the next occurrence among thousands of series
/// one at a time.
///
/// An occurrence is kept as one 8-byte key, its start (from the earliest any can have) above its
/// stored event's position, so sorting the keys is the merge order and a year of 170,000
/// occurrences takes 1.4 MB. A window too wide for that (centuries over millions of events) is
/// kept as slots.
struct OccurrenceOrder: Sendable {
    private enum Storage: Sendable {
        case packed(keys: [UInt64], base: Int64, sourceBits: Int)
        case slots([OccurrenceSlot])
    }
    private let storage: Storage
    /// The scheduled instant of the few occurrences whose start differs (moved detached
    /// occurrences, one each), by stored event; empty when there are none.
    private let scheduledBySource: [Int64?]

    var count: Int {
        switch storage {
        case .packed(let keys, _, _): keys.count
        case .slots(let slots): slots.count
        }
    }

    subscript(position: Int) -> OccurrenceSlot {
        switch storage {
        case .packed(let keys, let base, let sourceBits):
            let key = keys[position]
            let source = Int32(truncatingIfNeeded: key & ((UInt64(1) << UInt64(sourceBits)) &- 1))
            let start = base &+ Int64(bitPattern: key >> UInt64(sourceBits))
            let scheduled = scheduledBySource.isEmpty ? start : scheduledBySource[Int(source)] ?? start
            return OccurrenceSlot(source: source, start: start, scheduled: scheduled)
        case .slots(let slots):
            return slots[position]
        }
    }

    fileprivate init(packed keys: [UInt64], base: Int64, sourceBits: Int, scheduledBySource: [Int64?]) {
        storage = .packed(keys: keys, base: base, sourceBits: sourceBits)
        self.scheduledBySource = scheduledBySource
    }

    fileprivate init(slots: [OccurrenceSlot]) {
        storage = .slots(slots)
        scheduledBySource = []
    }
}

/// The walks of a whole list's stored events, shared by two threads: the one that starts them
/// begins at once, on a thread of its own when there are many events, while the query goes on
/// reading their alarms; the query's thread joins in ``finish()`` and takes what is left. Each
/// thread takes the next few events in turn, keeps its own occurrences and sorts them; the two
/// sorted parts are merged.
final class OccurrenceExpansion: Sendable {
    private let plans: [OccurrenceWalk.Plan]
    private let replaced: [Set<Int64>]
    private let from: Int64
    private let to: Int64
    /// Occurrences are packed (see ``OccurrenceOrder``) from `base`, the earliest start any
    /// occurrence in the window can have, when the keys have room.
    private let base: Int64
    private let sourceBits: Int
    private let keyBits: Int
    private let packed: Bool
    private let next = Atomic<Int>(0)
    private let parts = Mutex<[Walked]>([])
    private let helperDone: DispatchGroup?
    /// The helper's part: 0 not begun, 1 begun, 2 given up (the caller took every batch before
    /// the helper thread was scheduled, and does not wait for it).
    private let helperState = Atomic<Int>(0)
    /// Events taken at a time: small enough that both threads finish close together.
    private static let batch = 64

    /// `helper`: whether a thread of its own may take part (not for a store whose reads are
    /// taken one at a time, such as the daemon's, which starts no pool of worker threads).
    init(_ plans: [OccurrenceWalk.Plan], replaced: [Set<Int64>], from: Int64, to: Int64, helper: Bool) {
        self.plans = plans
        self.replaced = replaced
        self.from = from
        self.to = to
        sourceBits = max(1, Int.bitWidth - (plans.count - 1).leadingZeroBitCount)
        // Every occurrence in the window starts after from − (its duration) and before `to`.
        let longest = plans.reduce(Int64(0)) { max($0, $1.duration) }
        let (base, below) = from.subtractingReportingOverflow(longest)
        let (span, over) = to.subtractingReportingOverflow(base)
        self.base = base
        keyBits = sourceBits + UInt64.bitWidth - UInt64(max(span, 0)).leadingZeroBitCount
        packed = !below && !over && keyBits <= 64
        if helper && plans.count >= EventStore.mergedAheadFrom {
            let group = DispatchGroup()
            helperDone = group
            DispatchQueue.global().async(group: group) { [self] in
                guard helperState.compareExchange(expected: 0, desired: 1, ordering: .acquiringAndReleasing).exchanged else { return }
                walkUntilDone()
            }
        } else {
            helperDone = nil
        }
    }

    /// Walks what is left, waits for the other thread, and puts everything in order.
    func finish() -> OccurrenceOrder {
        walkUntilDone()
        if !helperState.compareExchange(expected: 0, desired: 2, ordering: .acquiringAndReleasing).exchanged { helperDone?.wait() }
        let walked = parts.withLock { $0 }
        var scheduledBySource: [Int64?] = []
        if walked.contains(where: { !$0.moved.isEmpty }) {
            scheduledBySource = Array(repeating: nil, count: plans.count)
            for part in walked { for m in part.moved { scheduledBySource[m.source] = m.scheduled } }
        }
        guard packed else {
            var slots = walked.flatMap(\.slots)
            slots.sort { $0.start != $1.start ? $0.start < $1.start : $0.source < $1.source }
            return OccurrenceOrder(slots: slots)
        }
        let keys = walked.count == 1 ? walked[0].keys : RadixSort.merged(walked[0].keys, walked[1].keys)
        return OccurrenceOrder(packed: keys, base: base, sourceBits: sourceBits, scheduledBySource: scheduledBySource)
    }

    /// Takes events a batch at a time until none is left; what this thread found is sorted and
    /// put with the other thread's.
    private func walkUntilDone() {
        var walked = Walked()
        while true {
            let first = next.wrappingAdd(Self.batch, ordering: .relaxed).oldValue
            if first >= plans.count { break }
            for index in first..<min(first + Self.batch, plans.count) {
                var walk = OccurrenceWalk(plans[index], replaced: replaced[index], from: from, to: to)
                while let o = walk.next() {
                    if packed {
                        walked.keys.append(UInt64(bitPattern: o.start &- base) << UInt64(sourceBits) | UInt64(index))
                    } else {
                        walked.slots.append(OccurrenceSlot(source: Int32(truncatingIfNeeded: index), start: o.start, scheduled: o.scheduled))
                    }
                    if o.scheduled != o.start { walked.moved.append((index, o.scheduled)) }
                }
            }
        }
        if packed { RadixSort.sort(&walked.keys, significantBits: keyBits) }
        parts.withLock { $0.append(walked) }
    }

    /// What one thread walked: sorted keys (or slots, when not packed) and the moved occurrences.
    private struct Walked: Sendable {
        var keys: [UInt64] = []
        var slots: [OccurrenceSlot] = []
        var moved: [(source: Int, scheduled: Int64)] = []
    }
}

/// Least-significant-digit radix sort of unsigned keys whose bits above `significantBits` are
/// zero: a few linear passes instead of a comparison sort's n log n (a year's 170,000
/// occurrences sort in three passes).
enum RadixSort {
    static func sort(_ keys: inout [UInt64], significantBits: Int) {
        guard keys.count > 1, significantBits > 0 else { return }
        let passes = (significantBits + 12) / 13
        let digitBits = (significantBits + passes - 1) / passes
        let buckets = 1 << digitBits
        let mask = UInt64(buckets - 1)
        var other = [UInt64](repeating: 0, count: keys.count)
        var counts = [Int](repeating: 0, count: buckets)
        var shift: UInt64 = 0
        for _ in 0..<passes {
            let skipped: Bool = counts.withUnsafeMutableBufferPointer { c in
                keys.withUnsafeBufferPointer { k in
                    for i in 0..<buckets { c[i] = 0 }
                    for key in k { c[Int((key >> shift) & mask)] += 1 }
                    // Every key has the same digit here: this pass would not move any.
                    if c[Int((k[0] >> shift) & mask)] == k.count { return true }
                    var sum = 0
                    for i in 0..<buckets {
                        let n = c[i]
                        c[i] = sum
                        sum += n
                    }
                    other.withUnsafeMutableBufferPointer { o in
                        for key in k {
                            let d = Int((key >> shift) & mask)
                            o[c[d]] = key
                            c[d] += 1
                        }
                    }
                    return false
                }
            }
            if !skipped { swap(&keys, &other) }
            shift += UInt64(digitBits)
        }
    }

    /// Two sorted arrays as one sorted array.
    static func merged(_ a: [UInt64], _ b: [UInt64]) -> [UInt64] {
        var out: [UInt64] = []
        out.reserveCapacity(a.count + b.count)
        var i = 0, j = 0
        while i < a.count && j < b.count {
            if a[i] <= b[j] {
                out.append(a[i])
                i += 1
            } else {
                out.append(b[j])
                j += 1
            }
        }
        out.append(contentsOf: a[i...])
        out.append(contentsOf: b[j...])
        return out
    }
}
