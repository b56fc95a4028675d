import ChimeCore

/// iCalendar (RFC 5545) files in and out.
///
/// ```swift
/// let result = try ICalendar.parse(Array(try Data(contentsOf: url)), file: "work.ics")
/// for item in result.items { print(item.title) }
/// let text = ICalendar.serialize(result.items.map(\.item))
/// ```
public enum ICalendar {
    /// The component tree of a file (structure only): the VCALENDAR.
    public static func parseComponents(_ bytes: [UInt8], file: String = "<input>") throws(ICSError) -> ICSComponent {
        let lines = try ContentLines.parse(bytes, file: file)
        let roots = try ICSComponent.tree(lines, file: file)
        guard let calendar = roots.first(where: { $0.name == "VCALENDAR" }) else {
            throw ICSError(file: file, line: roots.first?.line ?? 1, "no BEGIN:VCALENDAR in the file")
        }
        return calendar
    }

    /// Events and reminders of a file, with their overrides (RECURRENCE-ID) and what was skipped.
    ///
    /// - Parameter lenient: a broken component is skipped with a warning instead of failing the
    ///   whole file.
    public static func parse(_ bytes: [UInt8], file: String = "<input>", lenient: Bool = false) throws(ICSError) -> ICSParseResult {
        let calendar = try parseComponents(bytes, file: file)
        return try ItemReader(calendar: calendar, file: file, lenient: lenient).read()
    }
}

/// What a file holds, ready to store.
public struct ICSParseResult: Sendable {
    /// Series, single events and reminders (no overrides), in file order.
    public var items: [ICSItem]
    /// RECURRENCE-ID overrides, applied after their series.
    public var overrides: [ICSOverride]
    /// Components skipped (lenient mode, or unsupported kinds such as VJOURNAL), with the reason.
    public var skipped: [ICSError]
    public var calendarName: String?
}

/// One event or reminder from a file, with the iCalendar fields the store keeps beside it.
public struct ICSItem: Sendable {
    public var item: AnyCalendarItem
    public var uid: String
    public var lastModified: Instant?
    public var line: Int
}

/// A RECURRENCE-ID component: one occurrence changed (or, with RANGE=THISANDFUTURE, this and
/// later ones), or cancelled.
public struct ICSOverride: Sendable {
    public var uid: String
    public var recurrenceID: CalendarDate
    public var thisAndFuture: Bool
    public var isCancelled: Bool
    /// The occurrence as the file describes it (start, end, title, alarms …).
    public var event: Event
    public var line: Int
}

extension AnyCalendarItem {
    public var externalIdentifier: String {
        switch self {
        case .event(let e): return e.externalIdentifier
        case .reminder(let r): return r.externalIdentifier
        }
    }
}
