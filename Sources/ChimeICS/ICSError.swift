/// A problem in an iCalendar file, named by file, line and property:
/// `calendar.ics:1043: DTSTART: invalid date-time "20261301T090000"`.
public struct ICSError: Error, Hashable, Sendable, CustomStringConvertible {
    public var file: String
    /// 1-based line of the (first physical line of the) content line; 0 when not known.
    public var line: Int
    public var property: String?
    public var message: String

    public init(file: String, line: Int, property: String? = nil, _ message: String) {
        self.file = file
        self.line = line
        self.property = property
        self.message = message
    }

    public var description: String {
        "\(file):\(line): " + (property.map { "\($0): " } ?? "") + message
    }
}
