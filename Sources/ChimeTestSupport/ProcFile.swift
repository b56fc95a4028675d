import Glibc

/// Files under /proc read whole, with read(2) to their end: they report a size of zero, and
/// Foundation's `String(contentsOfFile:)` now and then failed on them under load.
///
/// ```swift
/// let maps = try ProcFile.text("/proc/self/maps")
/// ```
public enum ProcFile {
    public struct ReadError: Error, CustomStringConvertible {
        public let path: String
        public let code: Int32
        public var description: String { "cannot read \(path): \(String(cString: strerror(code)))" }
    }

    /// The file's text (invalid UTF-8 repaired, never an error).
    public static func text(_ path: String) throws(ReadError) -> String {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ReadError(path: path, code: errno) }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = read(fd, &chunk, chunk.count)
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw ReadError(path: path, code: errno) }
            if count == 0 { break }
            bytes += chunk[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
