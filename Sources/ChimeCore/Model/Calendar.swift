/// What a calendar holds (EventKit's `EKEntityType`).
public enum EntityType: String, Hashable, Sendable, CaseIterable {
    case event
    case reminder

    public var plural: String { rawValue + "s" }
}

/// A calendar of events, or a list of reminders (EventKit's `EKCalendar`).
///
/// ```swift
/// var work = Calendar(title: "Work", entityType: .event, color: "#3366CC")
/// try store.saveCalendar(work)
/// ```
public struct Calendar: Hashable, Sendable, Identifiable {
    public var identifier: String
    public var title: String
    /// `#RRGGBB`.
    public var color: String
    public var entityType: EntityType
    public var allowsModifications: Bool
    /// Calendar-level iCalendar properties from an import (`X-WR-TIMEZONE`, `X-WR-CALDESC`,
    /// `X-APPLE-CALENDAR-COLOR` …), kept verbatim (unfolded) so exporting this calendar writes
    /// them back.
    public var icsExtras: [String] = []

    public var id: String { identifier }

    public init(
        identifier: String = newIdentifier(), title: String, entityType: EntityType,
        color: String = "#3A87AD", allowsModifications: Bool = true
    ) {
        self.identifier = identifier
        self.title = title
        self.color = color
        self.entityType = entityType
        self.allowsModifications = allowsModifications
    }
}
