import ChimeCore

/// What changed in the store since the previous set (EventKit's `EKEventStoreChanged`
/// notification, with the details EventKit leaves out).
public struct ChangeSet: Hashable, Sendable {
    /// Journal entries in commit order.
    public let changes: [StoreChange]
    /// The sequence number to resume from: pass it to ``EventStore/changes(after:)``.
    public let lastSequence: Int64
    /// True when entries between the resume point and ``changes`` were compacted away: the
    /// consumer missed something and should re-read everything it shows.
    public let isTruncated: Bool

    /// Identifiers of items or calendars that now exist and did not before.
    public var inserted: Set<String> { identifiers(.inserted) }
    public var updated: Set<String> { identifiers(.updated) }
    public var deleted: Set<String> { identifiers(.deleted) }

    private func identifiers(_ kind: ChangeKind) -> Set<String> {
        Set(changes.lazy.filter { $0.kind == kind }.map(\.identifier))
    }
}

extension EventStore {
    /// Change sets for every commit made from now on, by this process or any other on the same
    /// file, in order.
    ///
    /// ```swift
    /// for await changeSet in store.changes {
    ///     print("changed:", changeSet.updated, "removed:", changeSet.deleted)
    /// }
    /// ```
    public var changes: AsyncStream<ChangeSet> {
        changes(after: (try? currentChangeSequence()) ?? 0)
    }

    /// Change sets for every commit after `sequence`, exactly once and in order, then live ones.
    /// Keep the last ``ChangeSet/lastSequence`` to resume after a restart.
    public func changes(after sequence: Int64) -> AsyncStream<ChangeSet> {
        AsyncStream(bufferingPolicy: .unbounded) { continuation in
            let token = watcher.subscribe(after: sequence, continuation)
            continuation.onTermination = { [watcher] _ in watcher.unsubscribe(token) }
        }
    }

    /// The journal entries after `sequence`, read once (no waiting): what a client that was away
    /// (a D-Bus client, a process that restarted) missed since the last set it saw.
    ///
    /// ```swift
    /// let missed = try store.changeSet(after: lastSeen)
    /// if missed.isTruncated { reloadEverything() } else { apply(missed.changes) }
    /// lastSeen = missed.lastSequence
    /// ```
    public func changeSet(after sequence: Int64) throws(StoreError) -> ChangeSet {
        try read { db in
            let (changes, truncated) = try Journal.entries(after: sequence, in: db)
            return ChangeSet(changes: changes, lastSequence: max(sequence, try Journal.lastSequence(db)), isTruncated: truncated)
        }
    }

    /// The sequence number of the newest journal entry.
    public func currentChangeSequence() throws(StoreError) -> Int64 {
        try read { db in try Journal.lastSequence(db) }
    }
}
