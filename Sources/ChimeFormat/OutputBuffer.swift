import ChimeCore
import Glibc

/// Bytes for stdout, written in 64 KiB blocks: a one-year agenda is 170,000 lines, and printing
/// them one `print` at a time would cost more than computing them.
public struct OutputBuffer {
    /// Bytes `0..<count` of `bytes` are pending; the rest is room to write into. A plain
    /// allocation rather than an array: a one-year `agenda --json` makes 30 writes per
    /// occurrence, and each array access checked the array's uniqueness. Copies of a buffer share
    /// its bytes: pass it `inout`, as every writer does.
    private let bytes: Bytes
    private var count = 0
    private static let blockSize = 1 << 16

    /// False: everything stays in the buffer (``pendingText``), for an answer sent elsewhere (D-Bus).
    private let flushesToStandardOutput: Bool

    /// The allocation, freed with the last buffer that holds it.
    private final class Bytes {
        var base: UnsafeMutablePointer<UInt8>
        var capacity: Int

        init(capacity: Int) {
            base = .allocate(capacity: capacity)
            self.capacity = capacity
        }

        /// Makes room for at least `needed` bytes, keeping the first `used`.
        func grow(to needed: Int, keeping used: Int) {
            let larger = max(needed, capacity * 2)
            let fresh = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
            fresh.update(from: base, count: used)
            base.deallocate()
            base = fresh
            capacity = larger
        }

        deinit { base.deallocate() }
    }

    public init(toStandardOutput: Bool = true) {
        bytes = Bytes(capacity: Self.blockSize + 4096)
        flushesToStandardOutput = toStandardOutput
    }

    /// What is written and not yet flushed, as text: for in-process tests of the writers.
    public var pendingText: String { String(decoding: UnsafeBufferPointer(start: bytes.base, count: count), as: UTF8.self) }

    /// Writes `n` bytes through `body` at the end, growing the storage if it is short.
    @inline(__always)
    private mutating func write(_ n: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Void) {
        if count + n > bytes.capacity { bytes.grow(to: count + n, keeping: count) }
        body(bytes.base + count)
        count += n
    }

    public mutating func append(_ s: String) {
        var s = s
        s.withUTF8 { utf8 in
            write(utf8.count) { p in if let base = utf8.baseAddress { p.update(from: base, count: utf8.count) } }
        }
        flushIfFull()
    }

    public mutating func append(byte: UInt8) { write(1) { $0.pointee = byte } }

    /// `value` in decimal, zero-padded to `width`.
    public mutating func append(_ value: Int, width: Int = 1) {
        var v = value.magnitude
        var digits = 1
        var rest = v
        while rest >= 10 { rest /= 10; digits += 1 }
        let sign = value < 0 ? 1 : 0
        let n = max(digits, width) + sign
        write(n) { p in
            if sign == 1 { p[0] = UInt8(ascii: "-") }
            var i = n - 1
            while i >= sign { p[i] = UInt8(truncatingIfNeeded: 48 &+ v % 10); v /= 10; i -= 1 }
        }
    }

    /// A JSON string literal.
    public mutating func appendJSON(_ s: String) {
        // DEL, C1 (U+0080–U+009F, lead byte C2) and the bidi overrides (lead byte E2) are escaped too.
        // One pass over the contiguous bytes (a generic `contains` over the UTF-8 view cost a
        // tenth of a one-year `agenda --json`).
        var s = s
        let plain = s.withUTF8 { utf8 in
            for b in utf8 where b == 0x7F || b == 0xC2 || b == 0xE2 { return false }
            return true
        }
        if !plain { append(JSONText.string(s)); return }
        append(byte: UInt8(ascii: "\""))
        s.withUTF8 { utf8 in
            // Runs that need no escape are copied whole.
            var runStart = 0
            for (i, b) in utf8.enumerated() where b < 0x20 || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") {
                if i > runStart { append(bytes: UnsafeBufferPointer(rebasing: utf8[runStart..<i])) }
                runStart = i + 1
                switch b {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): append(byte: 92); append(byte: b)
                case 0x0A: append(byte: 92); append(byte: UInt8(ascii: "n"))
                case 0x0D: append(byte: 92); append(byte: UInt8(ascii: "r"))
                case 0x09: append(byte: 92); append(byte: UInt8(ascii: "t"))
                default:
                    let hex: [UInt8] = Array("0123456789abcdef".utf8)
                    append(bytes: "\\u00".utf8); append(byte: hex[Int(b >> 4)]); append(byte: hex[Int(b & 15)])
                }
            }
            if utf8.count > runStart { append(bytes: UnsafeBufferPointer(rebasing: utf8[runStart...])) }
        }
        append(byte: UInt8(ascii: "\""))
    }

    /// `YYYY-MM-DD`.
    public mutating func append(date d: (year: Int, month: Int, day: Int)) {
        append(d.year, width: 4); append(byte: 45); append(d.month, width: 2); append(byte: 45); append(d.day, width: 2)
    }

    /// `YYYY-MM-DDTHH:MM:SS`: ``append(date:)``, `T`, ``append(hour:minute:)``, `:SS`, in one write
    /// for the years 0…9999 (a one-year `agenda --json` writes three per occurrence).
    public mutating func append(date d: (year: Int, month: Int, day: Int), hour: Int, minute: Int, second: Int) {
        guard (0...9999).contains(d.year) else {
            append(date: d); append(byte: UInt8(ascii: "T")); append(hour: hour, minute: minute); append(byte: 58); append(second, width: 2)
            return
        }
        let y = d.year
        write(19) { p in
            p[0] = UInt8(48 + y / 1000); p[1] = UInt8(48 + y / 100 % 10); p[2] = UInt8(48 + y / 10 % 10); p[3] = UInt8(48 + y % 10)
            p[4] = 45; p[5] = UInt8(48 + d.month / 10); p[6] = UInt8(48 + d.month % 10)
            p[7] = 45; p[8] = UInt8(48 + d.day / 10); p[9] = UInt8(48 + d.day % 10)
            p[10] = UInt8(ascii: "T"); p[11] = UInt8(48 + hour / 10); p[12] = UInt8(48 + hour % 10)
            p[13] = 58; p[14] = UInt8(48 + minute / 10); p[15] = UInt8(48 + minute % 10)
            p[16] = 58; p[17] = UInt8(48 + second / 10); p[18] = UInt8(48 + second % 10)
        }
    }

    /// `HH:MM`.
    public mutating func append(hour: Int, minute: Int) {
        append(hour, width: 2); append(byte: 58); append(minute, width: 2)
    }

    /// `HH:MM-HH:MM` and two spaces, in one write: an agenda line's time column.
    public mutating func append(hour: Int, minute: Int, to endHour: Int, minute endMinute: Int) {
        write(13) { p in
            p[0] = UInt8(48 + hour / 10); p[1] = UInt8(48 + hour % 10); p[2] = 58
            p[3] = UInt8(48 + minute / 10); p[4] = UInt8(48 + minute % 10); p[5] = 45
            p[6] = UInt8(48 + endHour / 10); p[7] = UInt8(48 + endHour % 10); p[8] = 58
            p[9] = UInt8(48 + endMinute / 10); p[10] = UInt8(48 + endMinute % 10); p[11] = 32; p[12] = 32
        }
    }

    /// `YYYY-MM-DD` for a day counted from 1970-01-01.
    public mutating func appendExtended(days: Int) {
        guard let digits = extendedDigits(days) else {
            let d = CivilDate(daysSinceEpoch: days)
            append(date: (d.year, d.month, d.day))
            return
        }
        write(10) { p in
            UnsafeMutableRawPointer(p).storeBytes(of: digits.head, as: UInt64.self)
            UnsafeMutableRawPointer(p + 8).storeBytes(of: digits.day, as: UInt16.self)
        }
    }

    /// `YYYY-MM-DDTHH:MM:SS` for a wall-clock reading in seconds since 1970-01-01T00:00:00.
    public mutating func appendExtended(localSeconds s: Int64) {
        let days = LocalDateTime.day(ofLocalSeconds: s)
        let rest = Int(s - Int64(days) * 86_400)
        guard let digits = extendedDigits(days) else {
            let d = CivilDate(daysSinceEpoch: days)
            append(date: (d.year, d.month, d.day), hour: rest / 3600, minute: rest / 60 % 60, second: rest % 60)
            return
        }
        write(19) { p in
            UnsafeMutableRawPointer(p).storeBytes(of: digits.head, as: UInt64.self)
            UnsafeMutableRawPointer(p + 8).storeBytes(of: digits.day, as: UInt16.self)
            let h = rest / 3600, m = rest / 60 % 60, sec = rest % 60
            p[10] = UInt8(ascii: "T"); p[11] = UInt8(48 + h / 10); p[12] = UInt8(48 + h % 10)
            p[13] = 58; p[14] = UInt8(48 + m / 10); p[15] = UInt8(48 + m % 10)
            p[16] = 58; p[17] = UInt8(48 + sec / 10); p[18] = UInt8(48 + sec % 10)
        }
    }

    /// `YYYY-MM-DD` as bytes in memory order: `YYYY-MM-` and `DD`.
    private typealias ExtendedDigits = (head: UInt64, day: UInt16)

    /// The basic form's digits with the dashes put in; nil outside the years 0…9999.
    private mutating func extendedDigits(_ days: Int) -> ExtendedDigits? {
        guard let b = dateDigits(days: days) else { return nil }
        let dash: UInt64 = 45
        return (b & 0xFFFF_FFFF | dash << 32 | (b >> 32 & 0xFFFF) << 40 | dash << 56, UInt16(truncatingIfNeeded: b >> 48))
    }

    /// RFC 5545 basic form of a wall-clock reading given as seconds since 1970-01-01T00:00:00 on
    /// that clock: `YYYYMMDDTHHMMSS` (what `LocalDateTime.basicFormat` gives), without a String.
    public mutating func appendBasic(localSeconds s: Int64) {
        appendBasic(localSeconds: s, quoted: false, utc: false)
    }

    /// The same, with `comma` a `,` before it, `quoted` inside double quotes, and `utc` followed by
    /// `Z`, in one write: an item of `expand --batch`'s arrays, written 1.5 million times for the
    /// benchmark's batch.
    public mutating func appendBasic(localSeconds s: Int64, quoted: Bool, utc: Bool, comma: Bool = false) {
        let days = LocalDateTime.day(ofLocalSeconds: s)
        let rest = Int(s - Int64(days) * 86_400)
        guard let date = dateDigits(days: days) else {
            if comma { append(byte: UInt8(ascii: ",")) }
            if quoted { append(byte: UInt8(ascii: "\"")) }
            appendBasic(days: days)
            appendTime(rest)
            if utc { append(byte: UInt8(ascii: "Z")) }
            if quoted { append(byte: UInt8(ascii: "\"")) }
            return
        }
        let lead = (comma ? 1 : 0) + (quoted ? 1 : 0)
        let n = 15 + lead + (quoted ? 1 : 0) + (utc ? 1 : 0)
        let time = timeText(rest)
        write(n) { p in
            if comma { p[0] = UInt8(ascii: ",") }
            if quoted { p[lead - 1] = UInt8(ascii: "\""); p[n - 1] = UInt8(ascii: "\"") }
            UnsafeMutableRawPointer(p + lead).storeBytes(of: date, as: UInt64.self)
            Self.store(time: time, at: p + lead + 8)
            if utc { p[lead + 15] = UInt8(ascii: "Z") }
        }
    }

    private mutating func appendTime(_ rest: Int) {
        write(7) { Self.writeTime(rest, at: $0) }
    }

    /// `THHMMSS` for `rest` seconds into the day, at `p`.
    @inline(__always)
    private static func writeTime(_ rest: Int, at p: UnsafeMutablePointer<UInt8>) {
        let h = rest / 3600, m = rest / 60 % 60, sec = rest % 60
        p[0] = UInt8(ascii: "T")
        p[1] = UInt8(48 + h / 10); p[2] = UInt8(48 + h % 10)
        p[3] = UInt8(48 + m / 10); p[4] = UInt8(48 + m % 10)
        p[5] = UInt8(48 + sec / 10); p[6] = UInt8(48 + sec % 10)
    }

    /// The last time of day written, `THHMMSS` in a `UInt64`'s first seven bytes: a series'
    /// occurrences mostly share theirs.
    private var recentTime: (rest: Int, text: UInt64) = (-1, 0)

    /// `THHMMSS` for `rest` in a `UInt64`'s first seven bytes; the same time as the last one is
    /// not worked out again.
    @inline(__always)
    private mutating func timeText(_ rest: Int) -> UInt64 {
        if rest != recentTime.rest {
            var text: UInt64 = 0
            withUnsafeMutableBytes(of: &text) { Self.writeTime(rest, at: $0.baseAddress!.assumingMemoryBound(to: UInt8.self)) }
            recentTime = (rest, text)
        }
        return recentTime.text
    }

    /// The seven bytes of a ``timeText(_:)`` at `p`.
    @inline(__always)
    private static func store(time text: UInt64, at p: UnsafeMutablePointer<UInt8>) {
        let raw = UnsafeMutableRawPointer(p)
        raw.storeBytes(of: UInt32(truncatingIfNeeded: text), as: UInt32.self)
        raw.storeBytes(of: UInt16(truncatingIfNeeded: text >> 32), toByteOffset: 4, as: UInt16.self)
        raw.storeBytes(of: UInt8(truncatingIfNeeded: text >> 48), toByteOffset: 6, as: UInt8.self)
    }

    /// RFC 5545 DATE form of a day counted from 1970-01-01: `YYYYMMDD` (what `CivilDate.basicFormat` gives).
    public mutating func appendBasic(days: Int) {
        guard let date = dateDigits(days: days) else {
            let d = CivilDate(daysSinceEpoch: days)
            append(d.year, width: 4); append(d.month, width: 2); append(d.day, width: 2); return
        }
        write(8) { p in UnsafeMutableRawPointer(p).storeBytes(of: date, as: UInt64.self) }
    }

    /// The last two days written, the latest first: consecutive occurrences mostly fall on the
    /// same day (converting a day count to a date was a sixth of a batch's time), and an `agenda
    /// --json` line writes local and UTC times, which fall on two days for part of each day away
    /// from UTC.
    private typealias CachedDay = (days: Int, digits: UInt64?)
    private var recentDays: (CachedDay, CachedDay) = ((Int.min, nil), (Int.min, nil))
    /// The month of the last date worked out: its first day, its length, and `YYYYMM` as the
    /// first six of a date's eight bytes. Another day of the same month (a weekly rule's next
    /// occurrence, the next day) only changes the day's two digits.
    private var recentMonth: (first: Int, length: Int, digits: UInt64) = (0, 0, 0)

    /// `YYYYMMDD` as 8 ASCII bytes in memory order (little-endian), or nil outside the years 0…9999.
    private mutating func dateDigits(days: Int) -> UInt64? {
        if days == recentDays.0.days { return recentDays.0.digits }
        if days == recentDays.1.days { swap(&recentDays.0, &recentDays.1); return recentDays.0.digits }
        let latest = recentDays.0
        let offset = days &- recentMonth.first
        if offset >= 0 && offset < recentMonth.length {
            let digits = recentMonth.digits | Self.dayDigits(offset + 1)
            recentDays = ((days, digits), latest)
            return digits
        }
        let d = CivilDate(daysSinceEpoch: days)
        var digits: UInt64?
        if (0...9999).contains(d.year) {
            let y = d.year
            let month =
                UInt64(48 + y / 1000) | UInt64(48 + y / 100 % 10) << 8 | UInt64(48 + y / 10 % 10) << 16
                | UInt64(48 + y % 10) << 24 | UInt64(48 + d.month / 10) << 32 | UInt64(48 + d.month % 10) << 40
            recentMonth = (days - (d.day - 1), CivilDate.daysInMonth(year: y, month: d.month), month)
            digits = month | Self.dayDigits(d.day)
        }
        recentDays = ((days, digits), latest)
        return digits
    }

    /// A day of the month's two digits, as the last two of a date's eight bytes.
    @inline(__always)
    private static func dayDigits(_ day: Int) -> UInt64 {
        UInt64(48 + day / 10) << 48 | UInt64(48 + day % 10) << 56
    }

    /// Bytes already encoded (a literal's `utf8`, a slice of input).
    public mutating func append(bytes more: UnsafeBufferPointer<UInt8>) {
        write(more.count) { p in if let base = more.baseAddress { p.update(from: base, count: more.count) } }
    }

    public mutating func append(bytes more: String.UTF8View) {
        if more.withContiguousStorageIfAvailable({ append(bytes: $0) }) == nil { for b in more { append(byte: b) } }
    }

    /// Whether enough is buffered to be worth one `write`: callers that build output in pieces
    /// ask between pieces and flush.
    public var isFull: Bool { flushesToStandardOutput && count >= Self.blockSize }

    public var isEmpty: Bool { count == 0 }

    private mutating func flushIfFull() { if isFull { flush() } }

    public mutating func flush() {
        guard flushesToStandardOutput else { return }
        var offset = 0
        let end = count
        while offset < end {
            let written = Glibc.write(1, bytes.base + offset, end - offset)
            if written <= 0 { if errno == EINTR { continue }; break }
            offset += written
        }
        count = 0
    }
}
