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
            result.append(try property(current, line: currentLine, file: file))
            current.removeAll(keepingCapacity: true)
        }
        while i < n {
            lineNumber += 1
            var end = i
            while end < n && bytes[end] != 0x0A && bytes[end] != 0x0D { end += 1 }
            let isContinuation = i < end && (bytes[i] == 0x20 || bytes[i] == 0x09)
            if isContinuation && !current.isEmpty {
                current.append(contentsOf: bytes[(i + 1)..<end])
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

    /// Parses one unfolded content line.
    static func property(_ bytes: [UInt8], line: Int, file: String) throws(ICSError) -> ICSProperty {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw ICSError(file: file, line: line, "invalid UTF-8")
        }
        let scalars = Array(text.unicodeScalars)
        var i = 0
        func isNameChar(_ c: Unicode.Scalar) -> Bool {
            (c >= "A" && c <= "Z") || (c >= "a" && c <= "z") || (c >= "0" && c <= "9") || c == "-" || c == "_"
        }
        while i < scalars.count && isNameChar(scalars[i]) { i += 1 }
        let name = String(String.UnicodeScalarView(scalars[0..<i])).uppercased()
        guard !name.isEmpty else {
            throw ICSError(file: file, line: line, "not a content line (expected NAME:value): \(excerpt(text))")
        }
        var parameters: [ICSParameter] = []
        while i < scalars.count && scalars[i] == ";" {
            i += 1
            let start = i
            while i < scalars.count && isNameChar(scalars[i]) { i += 1 }
            let paramName = String(String.UnicodeScalarView(scalars[start..<i])).uppercased()
            guard !paramName.isEmpty, i < scalars.count, scalars[i] == "=" else {
                throw ICSError(file: file, line: line, property: name, "malformed parameter (expected NAME=value)")
            }
            i += 1
            var values: [String] = []
            while true {
                var value = String.UnicodeScalarView()
                if i < scalars.count && scalars[i] == "\"" {
                    i += 1
                    while i < scalars.count && scalars[i] != "\"" { value.append(scalars[i]); i += 1 }
                    guard i < scalars.count else {
                        throw ICSError(file: file, line: line, property: name, "unterminated quoted value of parameter \(paramName)")
                    }
                    i += 1
                } else {
                    while i < scalars.count && scalars[i] != ";" && scalars[i] != ":" && scalars[i] != "," {
                        value.append(scalars[i]); i += 1
                    }
                }
                values.append(String(value))
                if i < scalars.count && scalars[i] == "," { i += 1; continue }
                break
            }
            parameters.append(ICSParameter(name: paramName, values: values))
        }
        guard i < scalars.count, scalars[i] == ":" else {
            throw ICSError(file: file, line: line, property: name, "missing ':' before the value")
        }
        let value = String(String.UnicodeScalarView(scalars[(i + 1)...]))
        return ICSProperty(name: name, parameters: parameters, value: value, line: line)
    }

    static func excerpt(_ s: String) -> String {
        s.count > 40 ? "\"\(s.prefix(40))…\"" : "\"\(s)\""
    }
}
