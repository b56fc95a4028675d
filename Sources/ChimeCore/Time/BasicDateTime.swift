/// The RFC 5545 basic forms `YYYYMMDD`, `YYYYMMDDTHHMMSS` and `YYYYMMDDTHHMMSSZ`, validated
/// (no month 13, no February 30th, no hour 24).
///
/// ```swift
/// BasicDateTime.parse("19970902T090000")   // .local(1997-09-02T09:00:00)
/// BasicDateTime.parse("20261301T090000")   // nil
/// ```
public enum BasicDateTime: Hashable, Sendable {
    case date(CivilDate)
    case local(LocalDateTime)
    case utc(LocalDateTime)

    public static func parse(_ text: some StringProtocol) -> BasicDateTime? {
        // Contiguous UTF-8 (almost every String and Substring) is read in place: a store decodes
        // thousands of these per query, and a copy into an Array was most of the cost.
        if let parsed = text.utf8.withContiguousStorageIfAvailable({ parse(bytes: $0) }) { return parsed }
        return Array(text.utf8).withUnsafeBufferPointer { parse(bytes: $0) }
    }

    /// The same, from UTF-8 bytes.
    public static func parse(bytes b: UnsafeBufferPointer<UInt8>) -> BasicDateTime? {
        func num(_ from: Int, _ count: Int) -> Int? {
            var v = 0
            for i in from..<(from + count) {
                let c = b[i]
                guard c >= 48 && c <= 57 else { return nil }
                v = v * 10 + Int(c - 48)
            }
            return v
        }
        guard b.count == 8 || b.count == 15 || b.count == 16,
            let y = num(0, 4), let mo = num(4, 2), let d = num(6, 2)
        else { return nil }
        let date = CivilDate(year: y, month: mo, day: d)
        guard date.isValid else { return nil }
        if b.count == 8 { return .date(date) }
        guard b[8] == UInt8(ascii: "T") || b[8] == UInt8(ascii: "t"),
            let h = num(9, 2), let mi = num(11, 2), let s = num(13, 2), h < 24, mi < 60, s < 61
        else { return nil }
        // A leap second (60) is read as the last second of the minute, as RFC 5545 permits.
        let local = LocalDateTime(date: date, hour: h, minute: mi, second: min(s, 59))
        if b.count == 15 { return .local(local) }
        guard b[15] == UInt8(ascii: "Z") || b[15] == UInt8(ascii: "z") else { return nil }
        return .utc(local)
    }
}
