/// Percent-encoding of hrefs (RFC 3986 §2.1), on UTF-8 bytes. Foundation's
/// `removingPercentEncoding` and `addingPercentEncoding` go through NSString and UTF-16 on Linux,
/// and cost more than reading the rest of a multiget answer.
enum PercentEncoding {
    /// `text` with each `%XX` decoded; nil when a `%` is not followed by two hex digits or the
    /// bytes are not UTF-8 (as Foundation's `removingPercentEncoding`).
    ///
    /// ```swift
    /// PercentEncoding.decoded("/cal/a%20b.ics")   // "/cal/a b.ics"
    /// ```
    static func decoded(_ text: String) -> String? {
        let bytes = text.utf8
        guard bytes.contains(UInt8(ascii: "%")) else { return text }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var iterator = bytes.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                out.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
            out.append(high << 4 | low)
        }
        return String(validating: out, as: UTF8.self)
    }

    /// A path with every byte outside RFC 3986's path characters (and `%` itself) encoded as
    /// `%XX`, uppercase: what Foundation's `addingPercentEncoding(withAllowedCharacters:)` makes of
    /// `.urlPathAllowed` without `%`.
    ///
    /// ```swift
    /// PercentEncoding.encodedPath("/cal/a b#1.ics")   // "/cal/a%20b%231.ics"
    /// ```
    static func encodedPath(_ path: String) -> String {
        let bytes = path.utf8
        guard !bytes.allSatisfy(isPathByte) else { return path }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 16)
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in bytes {
            if isPathByte(byte) {
                out.append(byte)
            } else {
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Unreserved characters, sub-delimiters but `;` (Foundation encodes it), `:`, `@` and `/`.
    private static func isPathByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "-._~!$&'()*+,=:@/".utf8.contains(byte)
        }
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
