import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A new random item or calendar identifier: a version 4 UUID string, e.g.
/// `"3F2504E0-4F89-41D3-9A0C-0305E82C3301"`.
///
/// ```swift
/// let id = newIdentifier()   // 36 characters, upper-case hex
/// ```
///
/// The bytes come from the system generator (`getentropy`, i.e. `getrandom`), fetched for 16
/// identifiers at a time: one system call per 8 bytes (the standard library's generator) was
/// 4 % of a first sync's CPU, and Foundation's `UUID()` on Linux opens `/dev/urandom` on every
/// call. The text is written here, not by Foundation's formatter, which was a tenth of the
/// identifier's cost in a first sync.
public func newIdentifier() -> String {
    var bytes = randomBlocks.withLock { $0.next() }
    withUnsafeMutableBytes(of: &bytes) { raw in
        raw[6] = (raw[6] & 0x0F) | 0x40  // version 4 (random)
        raw[8] = (raw[8] & 0x3F) | 0x80  // RFC 4122 variant
    }
    return withUnsafeBytes(of: bytes) { raw in
        String(unsafeUninitializedCapacity: 36) { out in
            let digits: StaticString = "0123456789ABCDEF"
            var o = 0
            for i in 0..<16 {
                if i == 4 || i == 6 || i == 8 || i == 10 {
                    out[o] = UInt8(ascii: "-")
                    o += 1
                }
                out[o] = digits.utf8Start[Int(raw[i] >> 4)]
                out[o + 1] = digits.utf8Start[Int(raw[i] & 0x0F)]
                o += 2
            }
            return o
        }
    }
}

/// System random bytes fetched in blocks. Chime never forks without exec, so no two processes
/// hand out the same bytes.
private let randomBlocks = Mutex(RandomBlocks())

private struct RandomBlocks: ~Copyable {
    private var pairs: [(UInt64, UInt64)] = []

    /// Sixteen random bytes.
    mutating func next() -> (UInt64, UInt64) {
        if pairs.isEmpty {
            // getentropy gives at most 256 bytes a call (glibc 2.25; arc4random_buf would need 2.36).
            pairs = [(UInt64, UInt64)](repeating: (0, 0), count: 16)
            if pairs.withUnsafeMutableBytes({ getentropy($0.baseAddress!, $0.count) }) != 0 {
                var generator = SystemRandomNumberGenerator()
                for i in pairs.indices { pairs[i] = (generator.next(), generator.next()) }
            }
        }
        return pairs.removeLast()
    }
}
