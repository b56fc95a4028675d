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
    public subscript(_ name: String) -> ICSProperty? { properties.first { $0.name == name } }

    public func all(_ name: String) -> [ICSProperty] { properties.filter { $0.name == name } }

    /// Deeper nesting than this is refused (real files nest 3 deep: VCALENDAR > VEVENT > VALARM).
    public static let maximumDepth = 16

    /// Builds the component tree from content lines; the lines outside any component are refused.
    static func tree(_ lines: [ICSProperty], file: String) throws(ICSError) -> [ICSComponent] {
        var stack: [ICSComponent] = []
        var roots: [ICSComponent] = []
        for line in lines {
            switch line.name {
            case "BEGIN":
                let name = line.value.uppercased()
                guard !name.isEmpty else { throw ICSError(file: file, line: line.line, property: "BEGIN", "missing component name") }
                guard stack.count < maximumDepth else {
                    throw ICSError(file: file, line: line.line, property: "BEGIN", "components nested deeper than \(maximumDepth)")
                }
                stack.append(ICSComponent(name: name, line: line.line))
            case "END":
                let name = line.value.uppercased()
                guard let open = stack.popLast() else {
                    throw ICSError(file: file, line: line.line, property: "END", "END:\(name) without a matching BEGIN")
                }
                guard open.name == name else {
                    throw ICSError(file: file, line: line.line, property: "END",
                                   "END:\(name) does not close BEGIN:\(open.name) of line \(open.line)")
                }
                if stack.isEmpty { roots.append(open) } else { stack[stack.count - 1].components.append(open) }
            default:
                guard !stack.isEmpty else {
                    throw ICSError(file: file, line: line.line, property: line.name, "property outside BEGIN:VCALENDAR … END:VCALENDAR")
                }
                stack[stack.count - 1].properties.append(line)
            }
        }
        if let open = stack.last {
            throw ICSError(file: file, line: open.line, property: "BEGIN", "BEGIN:\(open.name) is never closed (missing END:\(open.name); the file may be truncated)")
        }
        return roots
    }
}
