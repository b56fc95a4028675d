import ChimeCore
import Foundation
import GRDB

/// A stored item as a lookup lists it: enough to choose between several.
public struct ItemMatch: Hashable, Sendable {
    public var identifier: String
    public var kind: String
    public var title: String
    /// The iCalendar UID.
    public var uid: String = ""
}

extension EventStore {
    /// Items (series and single items, not detached occurrences) whose identifier starts with
    /// `prefix`, ignoring case, as git reads abbreviated commit names; at most `limit`.
    ///
    /// ```swift
    /// try store.items(identifierPrefix: "6f1c")   // [ItemMatch(identifier: "6F1C…", kind: "event", title: "Stand-up")]
    /// ```
    ///
    /// `kinds`: only items of these kinds (`"event"`, `"reminder"`), chosen before the limit applies.
    public func items(
        identifierPrefix prefix: String, kinds: Set<String> = ["event", "reminder"],
        limit: Int = 10
    ) throws(StoreError) -> [ItemMatch] {
        guard !prefix.isEmpty, !prefix.contains(where: { $0 == "%" || $0 == "_" || $0 == "\\" }) else { return [] }
        return try matches(where: "id LIKE :pattern ESCAPE '\\'", ["pattern": prefix + "%"], kinds: kinds, limit: limit)
    }

    /// Items (series and single items) whose iCalendar UID is `uid` (EventKit's
    /// `calendarItemExternalIdentifier`): the name an item has on every machine and in every
    /// client, where its local identifier differs per machine. A UID can be in several calendars.
    ///
    /// ```swift
    /// try store.items(uid: "4kd7sfk2@google.com")   // [ItemMatch(identifier: "6F1C…", kind: "event", title: "Stand-up")]
    /// ```
    public func items(uid: String, kinds: Set<String> = ["event", "reminder"], limit: Int = 10) throws(StoreError) -> [ItemMatch] {
        guard !uid.isEmpty else { return [] }
        return try matches(where: "external_id = :uid", ["uid": uid], kinds: kinds, limit: limit)
    }

    /// Items whose title contains `text`, newest change first; at most `limit`. Compared as people
    /// expect in every script (``TitleMatch``): `врач` finds "Врач", `cafe` finds "Café", `ｔｅａ` finds "tea".
    ///
    /// ```swift
    /// try store.items(titleContaining: "dentist")
    /// ```
    public func items(
        titleContaining text: String, kinds: Set<String> = ["event", "reminder"],
        limit: Int = 50
    ) throws(StoreError) -> [ItemMatch] {
        return try matches(where: "instr(\(TitleMatch.sqlName)(title), :needle) > 0", ["needle": TitleMatch.fold(text)], kinds: kinds, limit: limit)
    }

    private func matches(where condition: String, _ arguments: [String: String], kinds: Set<String>, limit: Int) throws(StoreError) -> [ItemMatch] {
        let kinds = kinds.intersection(["event", "reminder"])
        guard !kinds.isEmpty else { return [] }
        var arguments = arguments
        for (n, kind) in kinds.sorted().enumerated() { arguments["kind\(n)"] = kind }
        let kindList = (0..<kinds.count).map { ":kind\($0)" }.joined(separator: ", ")
        return try read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT id, kind, title, external_id FROM item
                    WHERE series_id IS NULL AND kind IN (\(kindList)) AND \(condition)
                    ORDER BY modified DESC LIMIT \(max(1, limit))
                    """, arguments: StatementArguments(arguments)
            ).map {
                ItemMatch(identifier: $0["id"], kind: $0["kind"], title: $0["title"], uid: $0["external_id"])
            }
        }
    }

    /// How many events or reminders a calendar holds (a series counts once).
    ///
    /// ```swift
    /// try store.itemCount(calendar: work.identifier)   // 12
    /// ```
    public func itemCount(calendar identifier: String) throws(StoreError) -> Int {
        try read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item WHERE calendar_id = ? AND series_id IS NULL", arguments: [identifier]) ?? 0
        }
    }
}
