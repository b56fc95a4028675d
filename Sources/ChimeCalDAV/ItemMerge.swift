import ChimeCore

/// A field-level three-way merge of one item: what changed here since the last server copy
/// (the base) is laid over the server's new copy; where both sides changed the same field the
/// server wins, except that a completion is never undone and an answered alarm stays answered
/// (`ACKNOWLEDGED` on a VALARM, `X-MOZ-LASTACK` on the item: the later answer of the two sides).
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
            m.field("start", \.start); m.field("end", \.end); m.alarms(\.alarms); m.answers(\.icsExtras)
            m.field("repeat", \.recurrenceRules); m.field("extra dates", \.recurrenceDates); m.field("excluded dates", \.exceptionDates)
            self.init(m, wrap: AnyCalendarItem.event)
        case (.reminder(let b)?, .reminder(let l), .reminder(let s)):
            var m = FieldMerge(base: b, local: l, server: s)
            m.field("title", \.title); m.field("notes", \.notes); m.field("url", \.url); m.field("location", \.location)
            m.field("start", \.startDate); m.field("due", \.dueDate); m.field("priority", \.priority)
            m.alarms(\.alarms); m.answers(\.icsExtras)
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

    /// The alarms, where an answer never loses: when the two sides' alarms differ only in their
    /// `ACKNOWLEDGED` lines (answered here, there, or both), each alarm keeps its later answer;
    /// otherwise the alarms merge as any field. An answer the server was sent already (it is in
    /// the base) and did not keep is not laid over again: a server that drops the line costs one
    /// write, never a loop.
    mutating func alarms(_ path: WritableKeyPath<Item, [Alarm]>) {
        let mine = local[keyPath: path], theirs = result[keyPath: path], was = base[keyPath: path]
        guard mine != theirs, mine.map(Self.unanswered) == theirs.map(Self.unanswered) else { return field("alarms", path) }
        var merged = theirs
        for index in merged.indices {
            guard let answered = Self.answer(in: mine[index].icsExtras),
                !(was.indices.contains(index) && Self.answer(in: was[index].icsExtras) == answered),
                Self.answer(in: theirs[index].icsExtras).map({ $0 < answered }) ?? true
            else { continue }
            merged[index].icsExtras = Self.replacing("ACKNOWLEDGED", with: mine[index].icsExtras, in: theirs[index].icsExtras)
        }
        if merged != theirs {
            result[keyPath: path] = merged
            changedHere = true
        }
    }

    /// The item's Thunderbird answer lines (`X-MOZ-LASTACK`, `X-MOZ-SNOOZE-TIME…`): an answer given
    /// only here is laid over the server's copy; when both sides answered, the later
    /// `X-MOZ-LASTACK` is kept with the server's snoozes. The other kept lines are the server's.
    mutating func answers(_ path: WritableKeyPath<Item, [String]>) {
        func answerLines(_ lines: [String]) -> [String] { lines.filter(Self.isAnswerLine) }
        let mine = answerLines(local[keyPath: path]), theirs = answerLines(result[keyPath: path])
        let was = answerLines(base[keyPath: path])
        guard mine != was, mine != theirs else { return }
        if theirs == was {
            result[keyPath: path] = result[keyPath: path].filter { !Self.isAnswerLine($0) } + mine
            changedHere = true
        } else if let answered = Self.answer(in: mine, named: "X-MOZ-LASTACK"),
            Self.answer(in: theirs, named: "X-MOZ-LASTACK").map({ $0 < answered }) ?? true
        {
            result[keyPath: path] = Self.replacing("X-MOZ-LASTACK", with: local[keyPath: path], in: result[keyPath: path])
            changedHere = true
        }
    }

    private static func isAnswerLine(_ line: String) -> Bool {
        ICalendarText.hasNamePrefix(line, "X-MOZ-LASTACK") || ICalendarText.hasNamePrefix(line, "X-MOZ-SNOOZE-TIME")
    }

    private static func named(_ name: String) -> (String) -> Bool {
        { line in ICalendarText.isLine(line, of: name) }
    }

    /// The instant of the first `NAME:…` line among `lines` (an answer's time).
    private static func answer(in lines: [String], named name: String = "ACKNOWLEDGED") -> Instant? {
        ICalendarText.firstValue(of: name, in: lines).flatMap(AlarmAnswers.utcInstant)
    }

    /// `into` with its `NAME` lines replaced by those of `from`.
    private static func replacing(_ name: String, with from: [String], in into: [String]) -> [String] {
        into.filter { !named(name)($0) } + from.filter(named(name))
    }

    private static func unanswered(_ alarm: Alarm) -> Alarm {
        var plain = alarm
        plain.icsExtras.removeAll(where: named("ACKNOWLEDGED"))
        return plain
    }
}
