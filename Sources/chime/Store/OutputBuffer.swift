import ChimeCore
import Glibc

/// Bytes for stdout, written in 64 KiB blocks: a one-year agenda is 170,000 lines, and printing
/// them one `print` at a time would cost more than computing them.
struct OutputBuffer {
    private var bytes: [UInt8] = []

    init() { bytes.reserveCapacity(1 << 16) }

    mutating func append(_ s: String) {
        var s = s
        s.withUTF8 { bytes.append(contentsOf: $0) }
        flushIfFull()
    }

    mutating func append(byte: UInt8) { bytes.append(byte) }

    /// `value` in decimal, zero-padded to `width`.
    mutating func append(_ value: Int, width: Int = 1) {
        var v = value
        if v < 0 { bytes.append(UInt8(ascii: "-")); v = -v }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var n = 0
        withUnsafeMutableBytes(of: &digits) { d in
            repeat { d[n] = UInt8(48 + v % 10); v /= 10; n += 1 } while v > 0
            while n < width { d[n] = 48; n += 1 }
            for i in stride(from: n - 1, through: 0, by: -1) { bytes.append(d[i]) }
        }
    }

    /// A JSON string literal.
    mutating func appendJSON(_ s: String) {
        // DEL, C1 (U+0080–U+009F, lead byte C2) and the bidi overrides (lead byte E2) are escaped too.
        if s.utf8.contains(where: { $0 == 0x7F || $0 == 0xC2 || $0 == 0xE2 }) { append(JSONText.string(s)); return }
        bytes.append(UInt8(ascii: "\""))
        var s = s
        s.withUTF8 { utf8 in
            for b in utf8 {
                switch b {
                case UInt8(ascii: "\""): bytes.append(92); bytes.append(b)
                case UInt8(ascii: "\\"): bytes.append(92); bytes.append(b)
                case 0x0A: bytes.append(92); bytes.append(UInt8(ascii: "n"))
                case 0x0D: bytes.append(92); bytes.append(UInt8(ascii: "r"))
                case 0x09: bytes.append(92); bytes.append(UInt8(ascii: "t"))
                case 0..<0x20:
                    append("\\u00")
                    let hex: [UInt8] = Array("0123456789abcdef".utf8)
                    bytes.append(hex[Int(b >> 4)]); bytes.append(hex[Int(b & 15)])
                default: bytes.append(b)
                }
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// `YYYY-MM-DD`.
    mutating func append(date d: (year: Int, month: Int, day: Int)) {
        append(d.year, width: 4); append(byte: 45); append(d.month, width: 2); append(byte: 45); append(d.day, width: 2)
    }

    /// `HH:MM`.
    mutating func append(hour: Int, minute: Int) {
        append(hour, width: 2); append(byte: 58); append(minute, width: 2)
    }

    /// RFC 5545 basic form of a wall-clock reading given as seconds since 1970-01-01T00:00:00 on
    /// that clock: `YYYYMMDDTHHMMSS` (what `LocalDateTime.basicFormat` gives), without a String.
    mutating func appendBasic(localSeconds s: Int64) {
        let days = s >= 0 ? s / 86_400 : (s - 86_399) / 86_400
        let rest = Int(s - days * 86_400)
        appendBasic(days: Int(days))
        let h = rest / 3600, m = rest / 60 % 60, sec = rest % 60
        let t: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (UInt8(ascii: "T"), UInt8(48 + h / 10), UInt8(48 + h % 10), UInt8(48 + m / 10), UInt8(48 + m % 10),
             UInt8(48 + sec / 10), UInt8(48 + sec % 10))
        withUnsafeBytes(of: t) { bytes.append(contentsOf: $0) }
    }

    /// RFC 5545 DATE form of a day counted from 1970-01-01: `YYYYMMDD` (what `CivilDate.basicFormat` gives).
    mutating func appendBasic(days: Int) {
        let d = CivilDate(daysSinceEpoch: days)
        guard (0...9999).contains(d.year) else {
            append(d.year, width: 4); append(d.month, width: 2); append(d.day, width: 2); return
        }
        let y = d.year
        let t: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (UInt8(48 + y / 1000), UInt8(48 + y / 100 % 10), UInt8(48 + y / 10 % 10), UInt8(48 + y % 10),
             UInt8(48 + d.month / 10), UInt8(48 + d.month % 10), UInt8(48 + d.day / 10), UInt8(48 + d.day % 10))
        withUnsafeBytes(of: t) { bytes.append(contentsOf: $0) }
    }

    /// Bytes already encoded (a literal's `utf8`, a slice of input).
    mutating func append<Bytes: Sequence>(bytes more: Bytes) where Bytes.Element == UInt8 {
        bytes.append(contentsOf: more)
    }

    /// Whether enough is buffered to be worth one `write`: callers that build output in pieces
    /// ask between pieces and flush.
    var isFull: Bool { bytes.count >= 1 << 16 }

    var isEmpty: Bool { bytes.isEmpty }

    private mutating func flushIfFull() { if bytes.count >= 1 << 16 { flush() } }

    mutating func flush() {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { write(1, $0.baseAddress! + offset, $0.count - offset) }
            if written <= 0 { if errno == EINTR { continue }; break }
            offset += written
        }
        bytes.removeAll(keepingCapacity: true)
    }
}
