import ChimeCore

/// A component (`BEGIN:VEVENT` … `END:VEVENT`) with its properties and sub-components, in file order.
///
/// ```swift
/// let calendar = try ICalendar.parseComponents(bytes, file: "work.ics")
/// for event in calendar.components where event.name == "VEVENT" { print(event["SUMMARY"]?.value ?? "") }
/// ```
public struct ICSComponent: Hashable, Sendable {
    public var name: String
    public var properties: [ICSProperty]
    public var components: [ICSComponent]
    /// The line of its BEGIN.
    public var line: Int

    public init(name: String, properties: [ICSProperty] = [], components: [ICSComponent] = [], line: Int = 0) {
        self.name = name
        self.properties = properties
        self.components = components
        self.line = line
    }

    /// The first property with this name.
    public subscript(_ name: String) -> ICSProperty? {
        // Lengths first: a string's length is stored with it, and most names differ in length,
        // where comparing two names' text costs more (a reader looks up ten names per event).
        let length = name.utf8.count
        return properties.first { $0.name.utf8.count == length && $0.name == name }
    }

    public func all(_ name: String) -> [ICSProperty] { properties.filter { $0.name == name } }

    /// Deeper nesting than this is refused (real files nest 3 deep: VCALENDAR > VEVENT > VALARM).
    public static let maximumDepth = 16

    /// Builds the component tree from content lines; the lines outside any component are refused.
    static func tree(_ lines: [ICSProperty], file: String) throws(ICSError) -> [ICSComponent] {
        try tree(lines, repairs: RepairLog(file: file, strict: true))
    }

    /// The same, repairing structure the way real clients read it, each repair recorded:
    /// a line outside any component (text after END:VCALENDAR) or an END without its BEGIN is
    /// skipped; an END that closes an outer component closes the inner ones left open; a file
    /// that ends inside components (truncated) closes them where it ends.
    static func tree(_ lines: [ICSProperty], repairs: RepairLog) throws(ICSError) -> [ICSComponent] {
        var builder = ComponentTreeBuilder(repairs: repairs)
        for line in lines { try builder.add(line) }
        return try builder.finish()
    }
}

/// The component tree built a content line at a time (``ICSComponent/tree(_:repairs:)`` is this
/// builder given every line), so a file read in chunks never needs its lines listed first.
struct ComponentTreeBuilder {
    let repairs: RepairLog
    private var stack: [ICSComponent] = []
    private var roots: [ICSComponent] = []
    /// Streaming (``ICalendar/stream(file:chunks:each:)``): a component closing directly
    /// inside a VCALENDAR goes to ``finished`` for the reader to take, not into the tree.
    private let handsOut: Bool
    /// Components handed out and not yet taken.
    var finished: [ICSComponent] = []
    /// Streaming met what only a whole-file read reads right: a property of the first calendar
    /// after its first component (its name or X-WR-TIMEZONE would come too late for the items
    /// already read), a second calendar named otherwise (said), or an item outside any calendar
    /// (read after all the calendar's own).
    private(set) var needsWholeFile = false
    private var handedOut = false

    init(repairs: RepairLog, handsOut: Bool = false) {
        self.repairs = repairs
        self.handsOut = handsOut
    }

    /// The file's first VCALENDAR, with its properties so far (streaming; its components are
    /// handed out).
    var firstCalendar: ICSComponent? { closedFirstCalendar ?? (stack.first?.name == "VCALENDAR" ? stack.first : nil) }
    private var closedFirstCalendar: ICSComponent?

    private mutating func close() {
        let done = stack.removeLast()
        if stack.isEmpty {
            if handsOut {
                if done.name == "VCALENDAR" {
                    if closedFirstCalendar == nil { closedFirstCalendar = done }
                } else if ICalendar.itemComponents.contains(done.name) {
                    needsWholeFile = true
                }
            }
            roots.append(done)
        } else if handsOut && stack.count == 1 && stack[0].name == "VCALENDAR" {
            finished.append(done)
            handedOut = true
        } else {
            stack[stack.count - 1].components.append(done)
        }
    }

    mutating func add(_ line: ICSProperty) throws(ICSError) {
        switch line.name {
        case "BEGIN":
            let name = line.value.trimmingSpaces.asciiUppercased
            guard !name.isEmpty else {
                try repairs.note(line: line.line, property: "BEGIN", MessageText("missing component name: the line was skipped"))
                return
            }
            guard stack.count < ICSComponent.maximumDepth else {
                throw ICSError(file: repairs.file, line: line.line, property: "BEGIN", "components nested deeper than \(ICSComponent.maximumDepth)")
            }
            // Room for a usual event's properties at once, rather than growing the array 1, 2, 4, 8.
            var opened = ICSComponent(name: name, line: line.line)
            opened.properties.reserveCapacity(8)
            stack.append(opened)
        case "END":
            let name = line.value.trimmingSpaces.asciiUppercased
            guard let index = stack.lastIndex(where: { $0.name == name }) else {
                try repairs.note(
                    line: line.line, property: "END",
                    stack.isEmpty
                        ? MessageText("END:{name} without a matching BEGIN: skipped", ["name": name])
                        : MessageText(
                            "END:{name} does not close BEGIN:{open} of line {line}: skipped",
                            ["name": name, "open": stack.last!.name, "line": "\(stack.last!.line)"]))
                return
            }
            while stack.count > index + 1 {
                let open = stack.last!
                try repairs.note(
                    line: open.line, property: "BEGIN",
                    MessageText("BEGIN:{open} is never closed: closed at END:{name} (line {line})", ["open": open.name, "name": name, "line": "\(line.line)"]))
                close()
            }
            close()
        default:
            guard !stack.isEmpty else {
                try repairs.note(line: line.line, property: line.name, MessageText("outside BEGIN:VCALENDAR … END:VCALENDAR: skipped"))
                return
            }
            if handedOut && stack.count == 1 && closedFirstCalendar == nil { needsWholeFile = true }
            // A second calendar of another name: the whole-file read says its items join the first.
            if handsOut && stack.count == 1, let first = closedFirstCalendar, line.name == "X-WR-CALNAME",
                line.value != first["X-WR-CALNAME"]?.value
            {
                needsWholeFile = true
            }
            stack[stack.count - 1].properties.append(line)
        }
    }

    /// Closes what the file left open (each closing a repair) and returns the top-level components.
    mutating func finish() throws(ICSError) -> [ICSComponent] {
        while let open = stack.last {
            try repairs.note(
                line: open.line, property: "BEGIN",
                MessageText("BEGIN:{open} is never closed (the file may be truncated): closed at the end of the file", ["open": open.name]))
            close()
        }
        // Handed over, not shared: the reader frees each component once it is read.
        defer { roots = [] }
        return roots
    }
}
