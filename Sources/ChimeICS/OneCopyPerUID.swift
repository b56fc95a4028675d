import ChimeCore

extension ICalendar {
    /// A UID held by several calendars (a subscription and a local import of the same file, one
    /// invitation in two accounts): which copy a file of several calendars writes.
    public struct DuplicateUID: Sendable, Equatable {
        public var uid: String
        /// The calendar of the copy written, then those left out.
        public var kept: String
        public var leftOut: [String]
    }

    /// The items with one copy per UID and kind, so that a file of several calendars never holds
    /// two series for one UID (which every reader, Chime's too, would have to repair). The copy
    /// kept is the one an import would keep: the highest SEQUENCE, then the newest
    /// LAST-MODIFIED, then the first. Detached occurrences follow their series.
    ///
    /// ```swift
    /// let (items, duplicates) = ICalendar.oneCopyPerUID(try store.allItems(in: nil))
    /// for d in duplicates { print("\(d.uid): written from \(d.kept)") }
    /// ```
    public static func oneCopyPerUID(_ items: [AnyCalendarItem]) -> (items: [AnyCalendarItem], duplicates: [DuplicateUID]) {
        func isSeries(_ item: AnyCalendarItem) -> Bool { if case .event(let e) = item { !e.isDetached } else { true } }
        func rank(_ item: AnyCalendarItem) -> (Int, Int64) {
            let modified: Instant? =
                switch item {
                case .event(let e): e.lastModifiedDate;
                case .reminder(let r): r.lastModifiedDate
                }
            return (item.sequence, modified?.secondsSince1970 ?? .min)
        }
        func calendar(_ item: AnyCalendarItem) -> String { item.base.calendarIdentifier ?? "" }
        // Indices, not copies: an export of 12,000 items has few or no duplicates, and copying
        // every item into a dictionary cost more than writing it.
        var firstIndex: [String: Int] = [:]
        firstIndex.reserveCapacity(items.count)
        var groups: [String: [Int]] = [:]  // only keys held more than once
        for (i, item) in items.enumerated() where isSeries(item) {
            let key = item.kindName + " " + item.externalIdentifier
            if let first = firstIndex[key] { groups[key, default: [first]].append(i) } else { firstIndex[key] = i }
        }
        guard !groups.isEmpty else { return (items, []) }
        var leftOut: Set<String> = []  // store identifiers of the copies not written
        var duplicates: [DuplicateUID] = []
        for indices in groups.values.sorted(by: { $0[0] < $1[0] }) {
            let group = indices.map { items[$0] }
            var best = group[0]
            for other in group.dropFirst() where rank(other) > rank(best) { best = other }
            let losers = group.filter { $0.identifier != best.identifier }
            leftOut.formUnion(losers.map(\.identifier))
            duplicates.append(DuplicateUID(uid: group[0].externalIdentifier, kept: calendar(best), leftOut: losers.map(calendar)))
        }
        guard !leftOut.isEmpty else { return (items, []) }
        let kept = items.filter { item in
            // A detached occurrence shares its series' store identifier.
            !leftOut.contains(item.identifier)
        }
        return (kept, duplicates)
    }
}
