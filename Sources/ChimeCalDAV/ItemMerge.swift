import ChimeCore

/// A field-level three-way merge of one item: what changed here since the last server copy
/// (the base) is laid over the server's new copy; where both sides changed the same field the
/// server wins, except that a completion is never undone.
public struct ItemMerge: Sendable {
    /// The merged item (the server's copy with the local changes that did not collide).
    public var merged: AnyCalendarItem
    /// Fields both sides changed, where the local value lost.
    public var lostFields: [String]
    /// True when the merge holds local changes the server does not have yet.
    public var hasLocalChanges: Bool

    /// Merges `local` and `server` against `base`; nil base: every local difference is a collision.
    ///
    /// ```swift
    /// let m = ItemMerge(base: lastServerCopy, local: mine, server: theirs)
    /// if !m.lostFields.isEmpty { print("server kept:", m.lostFields) }
    /// ```
    public init(base: AnyCalendarItem?, local: AnyCalendarItem, server: AnyCalendarItem) {
        switch (base, local, server) {
        case (.event(let b)?, .event(let l), .event(let s)):
            var m = FieldMerge(base: b, local: l, server: s)
            m.field("title", \.title); m.field("notes", \.notes); m.field("url", \.url); m.field("location", \.location)
            m.field("start", \.start); m.field("end", \.end); m.field("alarms", \.alarms)
            m.field("repeat", \.recurrenceRules); m.field("extra dates", \.recurrenceDates); m.field("excluded dates", \.exceptionDates)
            self.init(m, wrap: AnyCalendarItem.event)
        case (.reminder(let b)?, .reminder(let l), .reminder(let s)):
            var m = FieldMerge(base: b, local: l, server: s)
            m.field("title", \.title); m.field("notes", \.notes); m.field("url", \.url); m.field("location", \.location)
            m.field("start", \.startDate); m.field("due", \.dueDate); m.field("priority", \.priority); m.field("alarms", \.alarms)
            m.field("repeat", \.recurrenceRules)
            // A completion from either side stands (a ticked reminder never comes back).
            if l.isCompleted && !s.isCompleted {
                m.result.isCompleted = true
                m.result.completionDate = l.completionDate
                m.changedHere = true
            } else {
                m.field("completion date", \.completionDate)
            }
            self.init(m, wrap: AnyCalendarItem.reminder)
        default:
            // No base, or the kind changed: the server's copy, and every local difference lost.
            self.init(merged: server, lostFields: local == server ? [] : ["the whole item"], hasLocalChanges: false)
        }
    }

    private init(merged: AnyCalendarItem, lostFields: [String], hasLocalChanges: Bool) {
        self.merged = merged
        self.lostFields = lostFields
        self.hasLocalChanges = hasLocalChanges
    }

    private init<Item>(_ m: FieldMerge<Item>, wrap: (Item) -> AnyCalendarItem) {
        self.init(merged: wrap(m.result), lostFields: m.lost, hasLocalChanges: m.changedHere)
    }
}

private struct FieldMerge<Item> {
    let base: Item, local: Item
    var result: Item
    var lost: [String] = []
    var changedHere = false

    init(base: Item, local: Item, server: Item) {
        self.base = base
        self.local = local
        self.result = server
    }

    mutating func field<Value: Equatable>(_ name: String, _ path: WritableKeyPath<Item, Value>) {
        let mine = local[keyPath: path], theirs = result[keyPath: path], was = base[keyPath: path]
        guard mine != was, mine != theirs else { return }
        if theirs == was {
            result[keyPath: path] = mine
            changedHere = true
        } else {
            lost.append(name)
        }
    }
}
