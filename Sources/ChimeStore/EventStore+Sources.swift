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
        all += try syncAccounts().map { Source.calDAV(account: $0.name) }
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
        if let collection = try syncCollection(forCalendar: calendar.identifier) { return .calDAV(account: collection.account) }
        if try subscriptions().contains(where: { $0.calendarIdentifier == calendar.identifier }) { return .subscribed }
        return .local
    }

    /// The calendars (or lists) of one source (EventKit's `EKSource.calendars(for:)`).
    ///
    /// ```swift
    /// let lists = try store.calendars(in: .local, for: .reminder)
    /// ```
    public func calendars(in source: Source, for entityType: EntityType) throws(StoreError) -> [ChimeCore.Calendar] {
        var mine: [ChimeCore.Calendar] = []
        for c in try calendars(for: entityType) where try self.source(of: c) == source { mine.append(c) }
        return mine
    }
}
