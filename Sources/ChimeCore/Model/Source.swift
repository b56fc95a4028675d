/// Where a calendar lives (EventKit's `EKSource`): on this machine only, in a CalDAV account
/// (synced both ways), or in a subscribed feed (read-only).
///
/// ```swift
/// for source in try store.sources() {
///     print(source.title, try store.calendars(in: source, for: .event).map(\.title))
/// }
/// ```
public struct Source: Hashable, Sendable, Identifiable {
    /// EventKit's `EKSourceType`, for the kinds Chime has.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// Kept in the store only.
        case local
        /// Mirrors the collections of a CalDAV account (`chime account add`).
        case calDAV
        /// Read-only feeds (`chime calendar subscribe`).
        case subscribed
    }

    /// `local`, `subscribed`, or `caldav:` and the account's name.
    public var identifier: String
    /// "On this machine", the account's name, or "Subscriptions".
    public var title: String
    public var kind: Kind

    public var id: String { identifier }

    public static let local = Source(identifier: "local", title: "On this machine", kind: .local)
    public static let subscribed = Source(identifier: "subscribed", title: "Subscriptions", kind: .subscribed)

    /// The source of a CalDAV account.
    public static func calDAV(account: String) -> Source {
        Source(identifier: "caldav:" + account, title: account, kind: .calDAV)
    }
}
