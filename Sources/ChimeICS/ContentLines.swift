/// One content line: `NAME;PARAM=VALUE;PARAM="QUOTED",OTHER:value` (RFC 5545 §3.1), unfolded.
///
/// ```swift
/// let lines = try ContentLines.parse(Array("DTSTART;TZID=Europe/Berlin:20261201T090000\r\n".utf8), file: "a.ics")
/// lines[0].name                    // "DTSTART"
/// lines[0].parameter("TZID")       // "Europe/Berlin"
/// ```
public struct ICSProperty: Hashable, Sendable {
    public var name: String
    public var parameters: [ICSParameter]
    /// The raw value, still escaped (TEXT unescaping depends on the value type).
    public var value: String
    public var line: Int

    public init(name: String, parameters: [ICSParameter] = [], value: String, line: Int = 0) {
        self.name = name
        self.parameters = parameters
        self.value = value
        self.line = line
    }

    /// The first value of a parameter (names compare case-insensitively).
    public func parameter(_ name: String) -> String? {
        parameters.first { $0.name == name }?.values.first
    }
}

public struct ICSParameter: Hashable, Sendable {
    public var name: String
    public var values: [String]

    public init(name: String, values: [String]) {
        self.name = name
        self.values = values
    }
}

/// Splitting a file into unfolded content lines, and one line into name, parameters and value.
public enum ContentLines {
    /// Lines end with CRLF, LF or a lone CR; a line starting with a space or tab continues the
    /// previous one (the fold may fall inside a multi-byte UTF-8 sequence, so unfolding works on
    /// bytes and decodes afterwards). Empty lines are skipped.
    public static func parse(_ bytes: [UInt8], file: String) throws(ICSError) -> [ICSProperty] {
        try parse(bytes, file: file, repairs: RepairLog(file: file, strict: true))
    }

    /// The same, repairing what real files get wrong and recording each repair in `repairs`:
    /// - a line that does not start like a content line (`NAME:` or `NAME;`) is a folded
    ///   continuation whose leading space was lost: joined to the previous line;
    /// - a known property name followed by neither `:` nor `;` (`SUMMARY Lunch`): the line is skipped;
    /// - bytes that are not UTF-8 (Outlook's Windows-1252): read as Windows-1252;
    /// - a malformed parameter list: the line is skipped.
    static func parse(_ bytes: [UInt8], file: String, repairs: RepairLog) throws(ICSError) -> [ICSProperty] {
        var result: [ICSProperty] = []
        var current: [UInt8] = []
        var currentLine = 0
        var lineNumber = 0
        var i = 0
        let n = bytes.count
        // Skip a UTF-8 byte order mark.
        if n >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { i = 3 }
        func flush() throws(ICSError) {
            if current.isEmpty { return }
            defer { current.removeAll(keepingCapacity: true) }
            do {
                result.append(try property(current, line: currentLine, file: file))
            } catch {
                if error.message == "invalid UTF-8" {
                    try repairs.note(error, "read as Windows-1252")
                    let text = Windows1252.decode(current)
                    do { result.append(try property(Array(text.utf8), line: currentLine, file: file)) } catch {
                        try repairs.note(error, "the line was skipped")
                    }
                } else {
                    try repairs.note(error, "the line was skipped")
                }
            }
        }
        while i < n {
            lineNumber += 1
            var end = i
            while end < n && bytes[end] != 0x0A && bytes[end] != 0x0D { end += 1 }
            let isContinuation = i < end && (bytes[i] == 0x20 || bytes[i] == 0x09)
            if isContinuation && !current.isEmpty {
                current.append(contentsOf: bytes[(i + 1)..<end])
            } else if i < end, !current.isEmpty, !startsContentLine(bytes[i..<end]) {
                let shown = excerpt(String(decoding: bytes[i..<min(end, i + 40)], as: UTF8.self))
                if isDelimiter(current) {
                    // Never glue text onto BEGIN:/END: — that would break the component structure.
                    try repairs.note(line: lineNumber, property: nil, "\(shown) is not a content line: skipped")
                } else {
                    try repairs.note(line: lineNumber, property: nil,
                                     "\(shown) is not a content line: joined to the line before (a folded line without its leading space)")
                    current.append(contentsOf: bytes[i..<end])
                }
            } else if i < end {
                try flush()
                current.append(contentsOf: bytes[i..<end])
                currentLine = lineNumber
            }
            // One line break: CRLF, LF or a lone CR.
            if end < n && bytes[end] == 0x0D {
                end += 1
                if end < n && bytes[end] == 0x0A { end += 1 }
            } else if end < n && bytes[end] == 0x0A {
                end += 1
            }
            i = end
        }
        try flush()
        return result
    }

    /// Parses one unfolded content line. Works on bytes: every delimiter is ASCII, which never
    /// occurs inside a multi-byte UTF-8 sequence, so only the pieces are decoded.
    static func property(_ bytes: [UInt8], line: Int, file: String) throws(ICSError) -> ICSProperty {
        guard String(validating: bytes, as: UTF8.self) != nil else {
            throw ICSError(file: file, line: line, "invalid UTF-8")
        }
        let n = bytes.count
        var i = 0
        func isNameByte(_ c: UInt8) -> Bool {
            (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c == 45 || c == 95
        }
        func text(_ from: Int, _ to: Int) -> String { String(decoding: bytes[from..<to], as: UTF8.self) }
        let colon: UInt8 = 58, semicolon: UInt8 = 59, comma: UInt8 = 44, quote: UInt8 = 34, equals: UInt8 = 61
        while i < n && isNameByte(bytes[i]) { i += 1 }
        let name = text(0, i).uppercased()
        guard !name.isEmpty else {
            throw ICSError(file: file, line: line, "not a content line (expected NAME:value): \(excerpt(text(0, min(n, 60))))")
        }
        var parameters: [ICSParameter] = []
        while i < n && bytes[i] == semicolon {
            i += 1
            let start = i
            while i < n && isNameByte(bytes[i]) { i += 1 }
            let paramName = text(start, i).uppercased()
            guard !paramName.isEmpty, i < n, bytes[i] == equals else {
                throw ICSError(file: file, line: line, property: name, "malformed parameter (expected NAME=value)")
            }
            i += 1
            var values: [String] = []
            while true {
                if i < n && bytes[i] == quote {
                    let from = i + 1
                    i = from
                    while i < n && bytes[i] != quote { i += 1 }
                    guard i < n else {
                        throw ICSError(file: file, line: line, property: name, "unterminated quoted value of parameter \(paramName)")
                    }
                    values.append(text(from, i))
                    i += 1
                } else {
                    let from = i
                    while i < n && bytes[i] != semicolon && bytes[i] != colon && bytes[i] != comma { i += 1 }
                    values.append(text(from, i))
                }
                if i < n && bytes[i] == comma { i += 1; continue }
                break
            }
            parameters.append(ICSParameter(name: paramName, values: values))
        }
        guard i < n, bytes[i] == colon else {
            throw ICSError(file: file, line: line, property: name, "missing ':' before the value")
        }
        return ICSProperty(name: name, parameters: parameters, value: text(i + 1, n), line: line)
    }

    /// True when a physical line begins like a content line: a name, then `:` or `;` — or a known
    /// property name followed by anything (a broken property, skipped later, not a continuation).
    static func startsContentLine(_ line: ArraySlice<UInt8>) -> Bool {
        var j = line.startIndex
        while j < line.endIndex, isNameByte(line[j]) { j += 1 }
        guard j > line.startIndex else { return false }
        // A name that fills the physical line may be folded right after it (a long X- name).
        if j == line.endIndex { return true }
        if line[j] == 58 || line[j] == 59 { return true }
        let name = String(decoding: line[line.startIndex..<j], as: UTF8.self)
        // Only an upper-case name: "Location of the meeting" is text, "LOCATION Room 4" a property.
        return name == name.uppercased() && (knownNames.contains(name) || name.hasPrefix("X-"))
    }

    private static func isDelimiter(_ line: [UInt8]) -> Bool {
        let head = String(decoding: line.prefix(6), as: UTF8.self).uppercased()
        return head.hasPrefix("BEGIN:") || head.hasPrefix("END:")
    }

    private static func isNameByte(_ c: UInt8) -> Bool {
        (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c == 45 || c == 95
    }

    /// RFC 5545's property and component-delimiter names.
    static let knownNames: Set<String> = [
        "BEGIN", "END", "CALSCALE", "METHOD", "PRODID", "VERSION", "ATTACH", "CATEGORIES", "CLASS", "COMMENT",
        "DESCRIPTION", "GEO", "LOCATION", "PERCENT-COMPLETE", "PRIORITY", "RESOURCES", "STATUS", "SUMMARY",
        "COMPLETED", "DTEND", "DUE", "DTSTART", "DURATION", "FREEBUSY", "TRANSP", "TZID", "TZNAME", "TZOFFSETFROM",
        "TZOFFSETTO", "TZURL", "ATTENDEE", "CONTACT", "ORGANIZER", "RECURRENCE-ID", "RELATED-TO", "URL", "UID",
        "EXDATE", "RDATE", "RRULE", "ACTION", "REPEAT", "TRIGGER", "CREATED", "DTSTAMP", "LAST-MODIFIED",
        "SEQUENCE", "REQUEST-STATUS", "NAME", "REFRESH-INTERVAL", "SOURCE", "COLOR", "IMAGE", "CONFERENCE",
    ]

    static func excerpt(_ s: String) -> String {
        s.count > 40 ? "\"\(s.prefix(40))…\"" : "\"\(s)\""
    }
}
