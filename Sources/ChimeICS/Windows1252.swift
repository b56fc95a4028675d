/// Windows-1252, what Outlook and old Windows tools write when a file is not UTF-8.
enum Windows1252 {
    /// 0x80…0x9F; the rest of the range is Latin-1 (the byte is the code point). Unassigned
    /// bytes become U+FFFD.
    private static let high: [UInt32] = [
        0x20AC, 0xFFFD, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0xFFFD, 0x017D, 0xFFFD,
        0xFFFD, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0xFFFD, 0x017E, 0x0178
    ]

    static func decode(_ bytes: [UInt8]) -> String {
        var scalars = String.UnicodeScalarView()
        for b in bytes {
            let value = (0x80...0x9F).contains(b) ? high[Int(b) - 0x80] : UInt32(b)
            scalars.append(Unicode.Scalar(value) ?? "\u{FFFD}")
        }
        return String(scalars)
    }
}
