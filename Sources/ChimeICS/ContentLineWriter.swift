/// Writing content lines back: parameter quoting, component lines, and RFC 5545 folding.
extension ICSProperty {
    /// `NAME;PARAM=value;PARAM="quoted:value":value`, unfolded.
    public var contentLine: String {
        var out = name
        for p in parameters {
            out += ";" + p.name + "=" + p.values.map(Self.parameterValue).joined(separator: ",")
        }
        return out + ":" + value
    }

    static func parameterValue(_ v: String) -> String {
        v.contains(where: { $0 == ":" || $0 == ";" || $0 == "," }) ? "\"\(v)\"" : v
    }
}

extension ICSComponent {
    /// BEGIN, properties, sub-components, END — unfolded.
    public var contentLines: [String] {
        var lines = ["BEGIN:\(name)"]
        lines += properties.map(\.contentLine)
        for c in components { lines += c.contentLines }
        lines.append("END:\(name)")
        return lines
    }
}

enum Folding {
    /// Appends `line` folded at 75 octets, never inside a UTF-8 sequence, with CRLF endings.
    /// Works on the line's UTF-8 bytes as they are: most lines are short and go in one copy.
    static func append(_ line: String, to out: inout [UInt8]) {
        var line = line
        line.withUTF8 { bytes in
            if bytes.count <= 75 {
                out.append(contentsOf: bytes)
            } else {
                var count = 0, i = 0
                while i < bytes.count {
                    let length = sequenceLength(bytes[i])
                    if count + length > 75 {
                        out.append(contentsOf: [0x0D, 0x0A, 0x20])
                        count = 1
                    }
                    let end = min(i + length, bytes.count)
                    out.append(contentsOf: bytes[i..<end])
                    count += end - i
                    i = end
                }
            }
        }
        out.append(0x0D)
        out.append(0x0A)
    }

    /// The length of the UTF-8 sequence `lead` opens (1 for a stray continuation byte).
    private static func sequenceLength(_ lead: UInt8) -> Int {
        switch lead {
        case 0xF0...: return 4
        case 0xE0...: return 3
        case 0xC0...: return 2
        default: return 1
        }
    }
}
