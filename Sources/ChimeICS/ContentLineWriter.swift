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
    static func append(_ line: String, to out: inout [UInt8]) {
        var count = 0
        for scalar in line.unicodeScalars {
            var buffer: [UInt8] = []
            buffer.reserveCapacity(4)
            UTF8.encode(scalar) { buffer.append($0) }
            if count + buffer.count > 75 {
                out += [0x0D, 0x0A, 0x20]
                count = 1
            }
            out += buffer
            count += buffer.count
        }
        out += [0x0D, 0x0A]
    }
}
