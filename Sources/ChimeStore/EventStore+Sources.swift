import ChimeCore

extension EventStore {
    /// Every source that has or can have calendars: this machine, each CalDAV account, and the
    /// subscriptions when there are any (EventKit's `EKEventStore.sources`).
    ///
    /// ```swift
    /// let accounts = try store.sources().filter { $0.kind == .calDAV }
    /// ```
    public func sources() throws(StoreError) -> [Source] {
        var all = [Source.local]
        all += try sync.accounts().map { Source.calDAV(account: $0.name) }
        if try !subscriptions().isEmpty { all.append(.subscribed) }
        return all
    }

    /// The source a calendar belongs to (EventKit's `EKCalendar.source`): the CalDAV account whose
    /// collection it mirrors, the subscriptions if it is a feed, else this machine.
    ///
    /// ```swift
    /// if try store.source(of: work).kind == .calDAV { print("synced") }
    /// ```
    public func source(of calendar: ChimeCore.Calendar) throws(StoreError) -> Source {
        try sourcesByCalendar()[calendar.identifier] ?? .local
    }

    /// The calendars (or lists) of one source (EventKit's `EKSource.calendars(for:)`).
    ///
    /// ```swift
    /// let lists = try store.calendars(in: .local, for: .reminder)
    /// ```
    public func calendars(in source: Source, for entityType: EntityType) throws(StoreError) -> [ChimeCore.Calendar] {
        let sources = try sourcesByCalendar()
        return try calendars(for: entityType).filter { (sources[$0.identifier] ?? .local) == source }
    }

    /// The source of every calendar that is not local, by calendar identifier: one listing of
    /// the collections and subscriptions serves a whole list of calendars.
    public func sourcesByCalendar() throws(StoreError) -> [String: Source] {
        var sources: [String: Source] = [:]
        for collection in try sync.collections() {
            for id in collection.calendarIdentifiers { sources[id] = .calDAV(account: collection.account) }
        }
        for feed in try subscriptions() { sources[feed.calendarIdentifier] = .subscribed }
        return sources
    }
}
