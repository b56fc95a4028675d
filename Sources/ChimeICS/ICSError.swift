import ChimeCore

/// A problem in an iCalendar file, named by file, line and property:
/// `calendar.ics:1043: DTSTART: invalid date-time "20261301T090000"`.
///
/// ```swift
/// let problem = ICSError(file: "work.ics", line: 12, property: "VEVENT", MessageText("missing DTSTART: this event was skipped"))
/// problem.description            // work.ics:12: VEVENT: missing DTSTART: this event was skipped
/// problem.text(in: german)       // work.ics:12: VEVENT: DTSTART fehlt: dieser Termin wurde übersprungen
/// ```
public struct ICSError: Error, Hashable, Sendable, CustomStringConvertible {
    public var file: String
    /// 1-based line of the (first physical line of the) content line; 0 when not known.
    public var line: Int
    public var property: String?
    /// The problem in English, as logs, JSON and tests see it.
    public var message: String
    /// The same for the user's language, where it was written for translation.
    public var text: MessageText?
    /// A fault a lenient read repairs, refused by a strict one: its text says the repair as done.
    public var isRefusedRepair = false
    /// A component a lenient read skips as a whole (its text says it was skipped): a strict read
    /// refuses the file as it refuses a repair.
    var skipsComponent = false

    public init(file: String, line: Int, property: String? = nil, _ message: String) {
        self.file = file
        self.line = line
        self.property = property
        self.message = message
    }

    public init(file: String, line: Int, property: String? = nil, _ text: MessageText) {
        self.init(file: file, line: line, property: property, text.english)
        self.text = text
    }

    public var description: String { place + message }

    /// The problem as the user's language says it, named by file, line and property as ever.
    public func text(in messages: Messages) -> String { messages(located) }

    /// Where the problem is, as the message starts: `work.ics:12: VEVENT: `.
    public var place: String { "\(file):\(line): " + (property.map { "\($0): " } ?? "") }

    /// The problem's text without its place, for a sentence of another message: translated where it can be.
    public var messageText: MessageText { text ?? .verbatim(message) }

    /// The whole line, file and line first, for a sentence of another message.
    public var located: MessageText { .verbatim(place) + messageText }

    public static func == (a: ICSError, b: ICSError) -> Bool {
        (a.file, a.line, a.property, a.message) == (b.file, b.line, b.property, b.message)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(file)
        hasher.combine(line)
        hasher.combine(property)
        hasher.combine(message)
    }
}
