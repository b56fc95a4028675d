import ChimeCore

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
        var reader = ContentLineReader(file: file, repairs: repairs)
        try reader.read(bytes, isLast: true) { result.append($0) }
        return result
    }

    /// Parses one unfolded content line. Works on bytes: every delimiter is ASCII, which never
    /// occurs inside a multi-byte UTF-8 sequence, so only the pieces are decoded.
    static func property(_ line: [UInt8], line number: Int, file: String) throws(ICSError) -> ICSProperty {
        // Read through the array's buffer: each byte of every line of a file is looked at here,
        // and the array's own subscript checked each index against its bounds.
        try line.withUnsafeBufferPointer { bytes throws(ICSError) in try property(bytes, line: number, file: file) }
    }

    private static func property(_ bytes: UnsafeBufferPointer<UInt8>, line: Int, file: String) throws(ICSError) -> ICSProperty {
        // Most lines are ASCII, valid without decoding them whole.
        guard bytes.allSatisfy({ $0 < 0x80 }) || String(validating: bytes, as: UTF8.self) != nil else {
            throw ICSError(file: file, line: line, "invalid UTF-8")
        }
        let n = bytes.count
        var i = 0
        func isNameByte(_ c: UInt8) -> Bool {
            (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c == 45 || c == 95
        }
        func text(_ from: Int, _ to: Int) -> String { String(decoding: UnsafeBufferPointer(rebasing: bytes[from..<to]), as: UTF8.self) }
        let colon: UInt8 = 58, semicolon: UInt8 = 59, comma: UInt8 = 44, quote: UInt8 = 34, equals: UInt8 = 61
        while i < n && isNameByte(bytes[i]) { i += 1 }
        let name = text(0, i).asciiUppercased
        guard !name.isEmpty else {
            throw ICSError(
                file: file, line: line, MessageText("not a content line (expected NAME:value): {text}", ["text": excerpt(text(0, min(n, 60)))]))
        }
        var parameters: [ICSParameter] = []
        while i < n && bytes[i] == semicolon {
            i += 1
            let start = i
            while i < n && isNameByte(bytes[i]) { i += 1 }
            let paramName = text(start, i).asciiUppercased
            guard !paramName.isEmpty, i < n, bytes[i] == equals else {
                throw ICSError(file: file, line: line, property: name, MessageText("malformed parameter (expected NAME=value)"))
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
            throw ICSError(file: file, line: line, property: name, MessageText("missing ':' before the value"))
        }
        return ICSProperty(name: name, parameters: parameters, value: text(i + 1, n), line: line)
    }

    /// True when a physical line begins like a content line: a name, then `:` or `;` — or a known
    /// property name followed by anything (a broken property, skipped later, not a continuation).
    static func startsContentLine(_ line: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
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

    static func isDelimiter(_ line: [UInt8]) -> Bool {
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
        "SEQUENCE", "REQUEST-STATUS", "NAME", "REFRESH-INTERVAL", "SOURCE", "COLOR", "IMAGE", "CONFERENCE"
    ]

    static func excerpt(_ s: String) -> String {
        s.count > 40 ? "\"\(s.prefix(40))…\"" : "\"\(s)\""
    }
}

/// Unfolded content lines from a file read a chunk at a time, as ``ContentLines/parse(_:file:)``
/// reads a whole one (it is this reader given the whole file as one chunk): the same lines, line
/// numbers and repairs wherever the chunks are cut, without the file's bytes held whole.
///
/// ```swift
/// var reader = ContentLineReader(file: "feed.ics", repairs: RepairLog(file: "feed.ics", strict: false))
/// try reader.read(firstChunk, isLast: false) { line in print(line.name) }
/// try reader.read(lastChunk, isLast: true) { line in print(line.name) }
/// ```
struct ContentLineReader {
    let file: String
    let repairs: RepairLog
    /// The logical line being unfolded, and the physical line it began on.
    private var current: [UInt8] = []
    private var currentLine = 0
    private var lineNumber = 0
    /// A physical line the last chunk ended inside of.
    private var carry: [UInt8] = []
    /// Whether the start of the file (where a byte order mark may be) was passed.
    private var started = false
    /// The last chunk ended with CR: a LF at the start of the next one is the same line break.
    private var afterCR = false

    init(file: String, repairs: RepairLog) {
        self.file = file
        self.repairs = repairs
    }

    /// Reads the next chunk, passing each completed content line to `emit`; with `isLast` the
    /// file ends after it.
    mutating func read(_ chunk: [UInt8], isLast: Bool, emit: (ICSProperty) throws(ICSError) -> Void) throws(ICSError) {
        var bytes = chunk
        if !carry.isEmpty {
            // A chunk without a line break only lengthens the carried line: appended, not
            // re-read, so a file with no line breaks costs its length, not its length squared.
            if !isLast && !chunk.contains(where: { $0 == 0x0A || $0 == 0x0D }) {
                carry += chunk
                return
            }
            bytes = carry + chunk
            carry.removeAll()
        }
        var i = 0
        if afterCR {
            afterCR = false
            if !bytes.isEmpty && bytes[0] == 0x0A { i = 1 }
        }
        let n = bytes.count
        if !started {
            // A UTF-8 byte order mark can only be told once three bytes (or the end) are here.
            guard n >= 3 || isLast || bytes.contains(where: { $0 == 0x0A || $0 == 0x0D }) else {
                carry = bytes
                return
            }
            started = true
            if n >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { i = 3 }
        }
        // Read through the buffer: every byte of the file is looked at here, and the array's own
        // subscript checked each index against its bounds.
        let complete = try bytes.withUnsafeBufferPointer { bytes throws(ICSError) in try lines(bytes, from: i, isLast: isLast, emit: emit) }
        if complete && isLast { try flush(emit) }
    }

    /// The lines of `bytes` from `i`; false when the last one's line break is in the next chunk
    /// (the line is carried to it).
    private mutating func lines(
        _ bytes: UnsafeBufferPointer<UInt8>, from start: Int, isLast: Bool, emit: (ICSProperty) throws(ICSError) -> Void
    ) throws(ICSError) -> Bool {
        let n = bytes.count
        var i = start
        while i < n {
            var end = i
            while end < n && bytes[end] != 0x0A && bytes[end] != 0x0D { end += 1 }
            if end == n && !isLast {
                carry = Array(bytes[i..<n])  // its line break is in the next chunk
                return false
            }
            lineNumber += 1
            let isContinuation = i < end && (bytes[i] == 0x20 || bytes[i] == 0x09)
            if isContinuation && !current.isEmpty {
                current.append(contentsOf: bytes[(i + 1)..<end])
            } else if i < end, !current.isEmpty, !ContentLines.startsContentLine(bytes[i..<end]) {
                let shown = ContentLines.excerpt(String(decoding: bytes[i..<min(end, i + 40)], as: UTF8.self))
                if ContentLines.isDelimiter(current) {
                    // Never glue text onto BEGIN:/END: — that would break the component structure.
                    try repairs.note(line: lineNumber, property: nil, MessageText("{line} is not a content line: skipped", ["line": shown]))
                } else {
                    try repairs.note(
                        line: lineNumber, property: nil,
                        MessageText("{line} is not a content line: joined to the line before (a folded line without its leading space)", ["line": shown]))
                    current.append(contentsOf: bytes[i..<end])
                }
            } else if i < end {
                try flush(emit)
                current.append(contentsOf: bytes[i..<end])
                currentLine = lineNumber
            }
            // One line break: CRLF, LF or a lone CR.
            if end < n && bytes[end] == 0x0D {
                end += 1
                if end < n && bytes[end] == 0x0A { end += 1 } else if end == n && !isLast { afterCR = true }
            } else if end < n && bytes[end] == 0x0A {
                end += 1
            }
            i = end
        }
        return true
    }

    /// Parses the logical line unfolded so far, repairing or skipping it as the file needs.
    private mutating func flush(_ emit: (ICSProperty) throws(ICSError) -> Void) throws(ICSError) {
        if current.isEmpty { return }
        defer { current.removeAll(keepingCapacity: true) }
        let parsed: ICSProperty
        do {
            parsed = try ContentLines.property(current, line: currentLine, file: file)
        } catch {
            guard error.message == "invalid UTF-8" else {
                try repairs.note(error, MessageText("the line was skipped"))
                return
            }
            try repairs.note(error, MessageText("read as Windows-1252"))
            let text = Windows1252.decode(current)
            do { parsed = try ContentLines.property(Array(text.utf8), line: currentLine, file: file) } catch {
                try repairs.note(error, MessageText("the line was skipped"))
                return
            }
        }
        try emit(parsed)
    }
}
