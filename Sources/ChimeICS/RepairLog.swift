import ChimeCore

/// What the reader repaired in a file, in file order: one `FILE:LINE: PROPERTY: what was done`
/// each. A strict reader (``ICalendar/parse(_:file:strict:zones:)`` with `strict: true`) throws the
/// first one instead, for validating a file rather than reading it.
///
/// ```swift
/// let result = try ICalendar.parse(bytes, file: "google.ics")
/// for repair in result.repairs { print("warning: \(repair)") }
/// ```
final class RepairLog {
    let file: String
    let strict: Bool
    private(set) var entries: [ICSError] = []

    init(file: String, strict: Bool) {
        self.file = file
        self.strict = strict
    }

    /// Records a repair, or throws it when reading strictly.
    func note(line: Int, property: String?, _ message: String) throws(ICSError) {
        let entry = ICSError(file: file, line: line, property: property, message)
        if strict { throw entry.refused }
        entries.append(entry)
    }

    /// The same, written for translation.
    func note(line: Int, property: String?, _ text: MessageText) throws(ICSError) {
        let entry = ICSError(file: file, line: line, property: property, text)
        if strict { throw entry.refused }
        entries.append(entry)
    }

    /// A repair whose text already says what was done.
    func record(_ repair: ICSError) throws(ICSError) {
        if strict { throw repair.refused }
        entries.append(repair)
    }

    /// The same for an error the reader recovered from: its text, then what was done.
    func note(_ error: ICSError, _ done: MessageText) throws(ICSError) {
        if strict { throw error }
        entries.append(
            ICSError(
                file: error.file, line: error.line, property: error.property,
                MessageText("{problem}; {done}", context: "repair", parts: ["problem": error.messageText, "done": done])))
    }
}

extension ICSError {
    /// The repair, marked as refused by a strict read (``isRefusedRepair``).
    public var refused: ICSError {
        var error = self
        error.isRefusedRepair = true
        return error
    }
}
