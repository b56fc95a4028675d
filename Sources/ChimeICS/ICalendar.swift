import ChimeCore

/// iCalendar (RFC 5545) files in and out.
///
/// ```swift
/// let result = try ICalendar.parse(Array(try Data(contentsOf: url)), file: "work.ics")
/// for item in result.items { print(item.title) }
/// let text = ICalendar.serialize(result.items.map(\.item))
/// ```
public enum ICalendar {
    /// Marks a series made up on import for instances whose series the file lacks (Thunderbird's
    /// name for the same thing). ``serialize(_:calendarName:calendarProperties:now:floatingZone:)``
    /// writes only its instances, as they came.
    public static let standInSeriesMarker = "X-MOZ-FAKED-MASTER:1"

    /// Names an item's calendar in an export of several calendars (iCalendar has one calendar per
    /// file), so an import into the defaults puts each item back where it was.
    public static let calendarMarker = "X-CHIME-CALENDAR"

    /// The marker line for a calendar title.
    public static func calendarMarkerLine(_ title: String) -> String { calendarMarker + ":" + ICSText.escape(title) }

    /// Takes the calendar marker out of an item's kept lines, giving its title (nil: none).
    public static func takeCalendarMarker(_ extras: inout [String]) -> String? {
        guard let value = extras.lazy.compactMap({ $0.droppingASCIIPrefix(markerLine) }).first else { return nil }
        let title = ICSText.unescape(String(value))
        extras.removeAll { $0.hasASCIIPrefix(markerLine) || $0.hasASCIIPrefix(markerWithParameters) }
        return title
    }

    // Made once: an import looks for them in every item.
    private static let markerLine = calendarMarker + ":"
    private static let markerWithParameters = calendarMarker + ";"

    /// The component tree of a file (structure only): the VCALENDAR.
    public static func parseComponents(_ bytes: [UInt8], file: String = "<input>") throws(ICSError) -> ICSComponent {
        let lines = try ContentLines.parse(bytes, file: file)
        let roots = try ICSComponent.tree(lines, file: file)
        guard let calendar = roots.first(where: { $0.name == "VCALENDAR" }) else {
            throw ICSError(file: file, line: roots.first?.line ?? 1, "no BEGIN:VCALENDAR in the file")
        }
        return calendar
    }

    /// Events and reminders of a file, with their overrides (RECURRENCE-ID), what was repaired
    /// and what was skipped.
    ///
    /// The file is read the way the best clients read real files: line, property and structure
    /// faults are repaired (``ICSParseResult/repairs`` says each, with file and line), a
    /// component that cannot be an item is dropped alone (``ICSParseResult/skipped``); only a
    /// file with no calendar in it is refused.
    ///
    /// ```swift
    /// let result = try ICalendar.parse(bytes, file: "export.ics")
    /// for r in result.repairs { print("warning: \(r)") }     // export.ics:12: RRULE: "FREQ=WEEKLY; BYDAY=MO": removed spaces
    /// ```
    /// - Parameters:
    ///   - strict: refuse the file at its first fault instead (for validating a file).
    ///   - zones: VTIMEZONE definitions already read from other files of the same batch (a CalDAV
    ///     pull's copies), so that each distinct definition is read and resolved once.
    public static func parse(
        _ bytes: [UInt8], file: String = "<input>", strict: Bool = false, zones: ZoneDefinitions? = nil
    ) throws(ICSError) -> ICSParseResult {
        var reader = ICSStreamReader(file: file, strict: strict, zones: zones)
        try reader.read(bytes, isLast: true)
        return try reader.finish()
    }

    /// Reads a file as ``parse(_:file:strict:zones:)`` does, a chunk at a time (a feed as it downloads,
    /// a file being imported): `next` gives the next chunk, nil at the end. The file's bytes are
    /// never held whole, nor its content lines listed, only the components they make and the
    /// items made of them. The result, repairs and errors are those of `parse` on the same bytes,
    /// wherever the chunks are cut.
    ///
    /// ```swift
    /// let result = try ICalendar.parse(file: "big.ics") { try file.read(upToCount: 65_536).map(Array.init) }
    /// ```
    public static func parse(
        file: String = "<input>", strict: Bool = false,
        chunks next: () throws(ICSError) -> [UInt8]?
    ) throws(ICSError) -> ICSParseResult {
        var reader = ICSStreamReader(file: file, strict: strict, zones: nil)
        while let chunk = try next() { try reader.read(chunk, isLast: false) }
        try reader.read([], isLast: true)
        return try reader.finish()
    }

    /// Reads a file a chunk at a time as ``parse(file:strict:chunks:)`` does (repairing, never
    /// strict: a strict read stops at the file's first fault, which only the whole file can
    /// say, since its structure is checked before its items), but hands each event
    /// and reminder to `each` as soon as it is read, so that a large file's items are never held
    /// together (an import writes each as it comes). `each` also gets the calendar's name and
    /// properties, which come before its first component.
    ///
    /// Returns the rest of what `parse` returns (overrides, skipped components, repairs and
    /// warnings, the same texts in the same order; `items` empty), or nil as soon as the file
    /// needs the whole-file read because a rule only the whole file decides applies: a UID given
    /// twice, a time zone the file defines itself, a calendar property after the first component,
    /// an item outside the calendar. The caller then undoes what it did with the items and reads
    /// the file again with `parse` (most files stream; those are rare and small).
    ///
    /// ```swift
    /// let rest = try ICalendar.stream(file: "big.ics", chunks: { try next() }) { item, calendar in
    ///     try store.write(item, into: calendar.name)
    /// }
    /// if rest == nil { /* undo; read the whole file */ }
    /// ```
    public static func stream(
        file: String = "<input>",
        chunks next: () throws(ICSError) -> [UInt8]?,
        each: (consuming ICSItem, ICSCalendarHeader) throws -> Void
    ) throws -> ICSParseResult? {
        var reader = ICSItemStream(file: file)
        var done = false
        while !done {
            let chunk = try next()
            done = chunk == nil
            try reader.read(chunk ?? [], isLast: done)
            if try !reader.handOut(each) { return nil }
        }
        return try reader.finish()
    }

    /// The components read outside a calendar as if inside it.
    static let itemComponents: Set<String> = ["VEVENT", "VTODO", "VTIMEZONE"]

    /// The calendar made of a file's top-level components: several calendars (concatenated
    /// exports) are one, and items outside any calendar are taken in (each a repair).
    fileprivate static func read(
        roots: consuming [ICSComponent], file: String, repairs: RepairLog, zones: ZoneDefinitions?
    ) throws(ICSError) -> ICSParseResult {
        // The components are moved, never copied, into the one calendar the reader owns, so each
        // is freed as soon as its item is made: a large file's tree and its items are never
        // held whole side by side.
        let firstLine = roots.first?.line ?? 1
        var calendar: ICSComponent?
        var bare: [ICSComponent] = []
        roots.reverse()
        while var root = roots.popLast() {
            if root.name == "VCALENDAR" {
                if calendar == nil {
                    calendar = root
                } else {
                    // Several calendars in one file (concatenated exports) are one: RFC 5545 allows a
                    // stream of them. One named otherwise than the first is said: its items join the first.
                    let first = calendar!["X-WR-CALNAME"]?.value, name = root["X-WR-CALNAME"]?.value
                    if let name, name != first {
                        let text =
                            first.map {
                                MessageText(
                                    "another calendar, \"{name}\", in the file: its items are read into the first one, \"{first}\"",
                                    ["name": name, "first": $0])
                            } ?? MessageText("another calendar, \"{name}\", in the file: its items are read into the first one", ["name": name])
                        try repairs.note(line: root.line, property: "VCALENDAR", text)
                    }
                    let more = root.components
                    root.components = []
                    calendar!.components += more
                }
            } else if itemComponents.contains(root.name) {
                bare.append(root)
            }
        }
        if !bare.isEmpty {
            try repairs.note(
                line: bare[0].line, property: bare[0].name,
                MessageText("{count} component(s) outside BEGIN:VCALENDAR: read as part of the calendar", ["count": "\(bare.count)"]))
        }
        if calendar == nil && !bare.isEmpty { calendar = ICSComponent(name: "VCALENDAR", line: 1) }
        guard calendar != nil else {
            throw ICSError(file: file, line: firstLine, MessageText("no BEGIN:VCALENDAR in the file: not an iCalendar file"))
        }
        calendar!.components += bare
        bare = []
        // Moved into the reader, so the reader's copy is the only one.
        var reader = ItemReader(calendar: calendar.take()!, file: file, repairs: repairs, zoneDefinitions: zones)
        return try reader.read()
    }
}

/// What a file holds, ready to store.
public struct ICSParseResult: Sendable {
    /// Series, single events and reminders (no overrides), in file order.
    public var items: [ICSItem]
    /// RECURRENCE-ID overrides, applied after their series.
    public var overrides: [ICSOverride]
    /// Components dropped (one that cannot be an item, or an unsupported kind such as VJOURNAL), with the reason.
    public var skipped: [ICSError]
    /// Which items and changed occurrences in ``skipped`` the file still holds, in a form that
    /// cannot be read: a refresh that replaces a calendar by a feed keeps their stored copies
    /// rather than taking them as gone from the feed.
    public var unreadable = ICSUnreadableItems()
    /// Faults repaired, each `FILE:LINE: PROPERTY: the fault: what was done`, in file order.
    public var repairs: [ICSError] = []
    public var calendarName: String?
    /// The VCALENDAR's own properties other than VERSION, PRODID, CALSCALE, METHOD and
    /// X-WR-CALNAME (X-WR-TIMEZONE, X-WR-CALDESC, colours …), as unfolded content lines.
    public var calendarProperties: [String] = []

    public init(
        items: [ICSItem], overrides: [ICSOverride], skipped: [ICSError], unreadable: ICSUnreadableItems = ICSUnreadableItems(),
        repairs: [ICSError] = [],
        calendarName: String? = nil, calendarProperties: [String] = []
    ) {
        self.items = items
        self.overrides = overrides
        self.skipped = skipped
        self.unreadable = unreadable
        self.repairs = repairs
        self.calendarName = calendarName
        self.calendarProperties = calendarProperties
    }
}

/// The events, to-dos and changed occurrences a file holds but the reader skipped (each said in
/// ``ICSParseResult/skipped``), by what identifies them.
///
/// ```swift
/// let parsed = try ICalendar.parse(bytes, file: "team.ics")
/// if parsed.unreadable.uids.contains("standup-1") { /* keep the stored copy */ }
/// ```
public struct ICSUnreadableItems: Sendable, Equatable {
    /// The UIDs of events and to-dos themselves (not of their changed occurrences).
    public var uids: Set<String> = []
    /// Changed occurrences whose RECURRENCE-ID could still be read: by UID, the dates they change.
    public var occurrences: [String: [CalendarDate]] = [:]

    public init(uids: Set<String> = [], occurrences: [String: [CalendarDate]] = [:]) {
        self.uids = uids
        self.occurrences = occurrences
    }
}

/// One event or reminder from a file, with the iCalendar fields the store keeps beside it.
public struct ICSItem: Sendable {
    public var item: AnyCalendarItem
    public var uid: String
    public var lastModified: Instant?
    public var line: Int
    /// LAST-MODIFIED, else DTSTAMP: which of two copies in one file is newer.
    public var stamp: Instant? = nil
    /// VALARMs the file has and the item lost: unreadable ones (no TRIGGER, a place cut at its
    /// comma by a server) and Apple's placeholders. A sync keeps the local alarms they may stand for.
    public var unreadAlarms = 0

    public init(item: AnyCalendarItem, uid: String, lastModified: Instant?, line: Int, stamp: Instant? = nil) {
        self.item = item
        self.uid = uid
        self.lastModified = lastModified
        self.line = line
        self.stamp = stamp
    }
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
    public var stamp: Instant? = nil

    public init(
        uid: String, recurrenceID: CalendarDate, thisAndFuture: Bool, isCancelled: Bool, event: Event, line: Int, stamp: Instant? = nil
    ) {
        self.uid = uid
        self.recurrenceID = recurrenceID
        self.thisAndFuture = thisAndFuture
        self.isCancelled = isCancelled
        self.event = event
        self.line = line
        self.stamp = stamp
    }
}

extension AnyCalendarItem {
    public var externalIdentifier: String {
        switch self {
        case .event(let e): return e.externalIdentifier
        case .reminder(let r): return r.externalIdentifier
        }
    }
}

/// A file read a chunk at a time: content lines, then the component tree, then items.
private struct ICSStreamReader {
    let file: String
    let repairs: RepairLog
    private var lines: ContentLineReader
    private var tree: ComponentTreeBuilder
    private let zones: ZoneDefinitions?

    init(file: String, strict: Bool, zones: ZoneDefinitions?) {
        self.file = file
        self.zones = zones
        repairs = RepairLog(file: file, strict: strict)
        lines = ContentLineReader(file: file, repairs: repairs)
        tree = ComponentTreeBuilder(repairs: repairs)
    }

    mutating func read(_ chunk: [UInt8], isLast: Bool) throws(ICSError) {
        try lines.read(chunk, isLast: isLast) { line throws(ICSError) in try tree.add(line) }
    }

    mutating func finish() throws(ICSError) -> ICSParseResult {
        try ICalendar.read(roots: try tree.finish(), file: file, repairs: repairs, zones: zones)
    }
}

/// A calendar's own name and properties, as ``ICSParseResult`` gives them.
public struct ICSCalendarHeader: Sendable, Equatable {
    public var name: String?
    public var properties: [String]

    public init(name: String?, properties: [String]) {
        self.name = name
        self.properties = properties
    }
}

/// A file read as a stream of items (``ICalendar/stream(file:chunks:each:)``).
private struct ICSItemStream {
    let file: String
    let repairs: RepairLog
    private var lines: ContentLineReader
    private var tree: ComponentTreeBuilder
    /// Made at the first component, from the calendar's properties then (all of them: a later
    /// one sends the file to the whole-file read).
    private var reader: ItemReader?
    private var values: ValueReader?
    private var header = ICSCalendarHeader(name: nil, properties: [])
    private var overrides: [ICSOverride] = []
    private var skipped: [ICSError] = []
    private var unreadable = ICSUnreadableItems()
    /// Each item's kind and UID, hashed: a second copy of one needs the whole file to choose.
    private var seen: Set<Int> = []
    /// TZIDs tzdata names: a component with any other needs the file's own definitions.
    private var namedZones: Set<String> = []
    private var wholeFile = false

    init(file: String) {
        self.file = file
        repairs = RepairLog(file: file, strict: false)
        lines = ContentLineReader(file: file, repairs: repairs)
        tree = ComponentTreeBuilder(repairs: repairs, handsOut: true)
    }

    mutating func read(_ chunk: [UInt8], isLast: Bool) throws(ICSError) {
        try lines.read(chunk, isLast: isLast) { line throws(ICSError) in try tree.add(line) }
        if isLast { _ = try tree.finish() }
    }

    /// Reads the components the last chunk finished, handing out their items; false when the
    /// file needs the whole-file read.
    mutating func handOut(_ each: (consuming ICSItem, ICSCalendarHeader) throws -> Void) throws -> Bool {
        var components = tree.finished
        tree.finished = []
        for index in components.indices {
            var c = ICSComponent(name: "")
            swap(&c, &components[index])
            guard !tree.needsWholeFile, !wholeFile, streams(c) else { return false }
            if reader == nil, let calendar = tree.firstCalendar {
                let itemReader = ItemReader(calendar: calendar, file: file, repairs: repairs)
                values = ValueReader(
                    file: file, zones: ZoneResolver(definitions: [:], floatingDefault: ItemReader.floatingDefault(of: calendar), file: file))
                header = itemReader.header
                reader = itemReader
            }
            guard let reader, let values else { return false }
            guard let item = try reader.read(c, values, overrides: &overrides, skipped: &skipped, unreadable: &unreadable) else { continue }
            var key = Hasher()
            key.combine(item.item.kindName)
            key.combine(item.uid)
            guard seen.insert(key.finalize()).inserted else {
                wholeFile = true
                return false
            }
            try each(item, header)
        }
        return !tree.needsWholeFile
    }

    /// Whether `c` reads the same alone as in the whole file: its zones are all tzdata's.
    private mutating func streams(_ c: ICSComponent) -> Bool {
        if c.name == "VTIMEZONE" {
            guard let tzid = c["TZID"]?.value.trimmingSpaces else { return true }
            return ZoneResolver.namedZone(tzid) != nil
        }
        for p in c.properties {
            guard let tzid = p.parameter("TZID") else { continue }
            if namedZones.contains(tzid) { continue }
            guard ZoneResolver.namedZone(tzid) != nil else { return false }
            namedZones.insert(tzid)
        }
        for inner in c.components where !streams(inner) { return false }
        return true
    }

    mutating func finish() throws -> ICSParseResult? {
        guard !tree.needsWholeFile, !wholeFile else { return nil }
        guard let reader else {
            // No component in any calendar: the whole-file read says what such a file is.
            return nil
        }
        return try reader.result(items: [], overrides: overrides, skipped: skipped, unreadable: unreadable)
    }
}
