/// Reader for compiled tzdata files (RFC 8536, versions 1–4), as installed in `/usr/share/zoneinfo`.
///
/// Only what conversion needs is kept: transition instants, the UTC offset after each, the
/// offset before the first one, and the POSIX TZ footer that extends the rules past the table.
struct TZifData {
    var transitions: [Int64]
    var offsetsAfter: [Int32]
    var initialOffset: Int32
    var footer: String?

    enum ParseError: Error, CustomStringConvertible {
        case notTZif, truncated
        var description: String {
            switch self {
            case .notTZif: return "not a TZif file (bad magic)"
            case .truncated: return "truncated TZif file"
            }
        }
    }

    init(bytes: [UInt8]) throws {
        var reader = ByteReader(bytes: bytes)
        let header = try TZifData.readHeader(&reader)
        if header.version >= 2 {
            // Skip the 32-bit block; the 64-bit block that follows is authoritative.
            try reader.skip(header.blockSize(timeSize: 4))
            let header2 = try TZifData.readHeader(&reader)
            try self.init(reader: &reader, header: header2, timeSize: 8)
            // Footer: "\n<POSIX TZ>\n".
            if reader.remaining > 1, try reader.u8() == 0x0A {
                var footerBytes: [UInt8] = []
                while reader.remaining > 0 {
                    let b = try reader.u8()
                    if b == 0x0A { break }
                    footerBytes.append(b)
                }
                footer = footerBytes.isEmpty ? nil : String(decoding: footerBytes, as: UTF8.self)
            }
        } else {
            try self.init(reader: &reader, header: header, timeSize: 4)
        }
    }

    private init(reader: inout ByteReader, header: Header, timeSize: Int) throws {
        var times: [Int64] = []
        times.reserveCapacity(header.timeCount)
        for _ in 0..<header.timeCount {
            times.append(timeSize == 8 ? Int64(bitPattern: try reader.u64()) : Int64(Int32(bitPattern: try reader.u32())))
        }
        var typeIndexes: [Int] = []
        for _ in 0..<header.timeCount { typeIndexes.append(Int(try reader.u8())) }
        var offsets: [Int32] = []
        for _ in 0..<header.typeCount {
            offsets.append(Int32(bitPattern: try reader.u32()))
            _ = try reader.u8()  // isdst
            _ = try reader.u8()  // abbreviation index
        }
        try reader.skip(header.charCount + header.leapCount * (timeSize + 4) + header.isStdCount + header.isUTCCount)
        guard !offsets.isEmpty else { throw ParseError.truncated }
        transitions = times
        offsetsAfter = try typeIndexes.map { i in
            guard i < offsets.count else { throw ParseError.truncated }
            return offsets[i]
        }
        initialOffset = offsets[0]
        footer = nil
    }

    private struct Header {
        var version: Int
        var isUTCCount, isStdCount, leapCount, timeCount, typeCount, charCount: Int
        func blockSize(timeSize: Int) -> Int {
            timeCount * timeSize + timeCount + typeCount * 6 + charCount + leapCount * (timeSize + 4) + isStdCount + isUTCCount
        }
    }

    private static func readHeader(_ r: inout ByteReader) throws -> Header {
        guard try r.u8() == 0x54, try r.u8() == 0x5A, try r.u8() == 0x69, try r.u8() == 0x66 else { throw ParseError.notTZif }
        let versionByte = try r.u8()
        try r.skip(15)
        let counts = try (0..<6).map { _ in Int(try r.u32()) }
        return Header(
            version: versionByte == 0 ? 1 : Int(versionByte) - 0x30,
            isUTCCount: counts[0], isStdCount: counts[1], leapCount: counts[2],
            timeCount: counts[3], typeCount: counts[4], charCount: counts[5])
    }
}

private struct ByteReader {
    let bytes: [UInt8]
    var position = 0
    var remaining: Int { bytes.count - position }

    mutating func u8() throws -> UInt8 {
        guard position < bytes.count else { throw TZifData.ParseError.truncated }
        defer { position += 1 }
        return bytes[position]
    }
    mutating func u32() throws -> UInt32 {
        var v: UInt32 = 0
        for _ in 0..<4 { v = v << 8 | UInt32(try u8()) }
        return v
    }
    mutating func u64() throws -> UInt64 {
        var v: UInt64 = 0
        for _ in 0..<8 { v = v << 8 | UInt64(try u8()) }
        return v
    }
    mutating func skip(_ n: Int) throws {
        guard n >= 0, position + n <= bytes.count else { throw TZifData.ParseError.truncated }
        position += n
    }
}
