import Foundation
import Glibc

/// One line a child process wrote, stamped with the wall clock (CLOCK_REALTIME, ns since 1970)
/// at the moment it reached this process.
struct TimedLine: Sendable {
    let nanos: Int64
    let text: String
}

/// Reads one pipe on a thread of its own: splits it into lines and stamps each on arrival, so
/// the main thread can block in `waitpid` or sleep without delaying a timestamp.
final class LineCollector: @unchecked Sendable {
    // @unchecked: `lines` and `closed` are only touched with `condition` locked.
    private let condition = NSCondition()
    private var lines: [TimedLine] = []
    private var closed = false

    /// Takes ownership of `fd` (closed at end of file).
    init(fd: Int32, name: String) {
        let thread = Thread { [self] in readLoop(fd) }
        thread.name = name
        thread.stackSize = 256 * 1024
        thread.start()
    }

    private func readLoop(_ fd: Int32) {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var partial: [UInt8] = []
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            let arrived = realtimeNanos()
            var fresh: [TimedLine] = []
            for byte in buffer[0..<n] {
                if byte == 10 {
                    fresh.append(TimedLine(nanos: arrived, text: String(decoding: partial, as: UTF8.self)))
                    partial.removeAll(keepingCapacity: true)
                } else {
                    partial.append(byte)
                }
            }
            if !fresh.isEmpty {
                condition.lock()
                lines += fresh
                condition.broadcast()
                condition.unlock()
            }
        }
        close(fd)
        condition.lock()
        if !partial.isEmpty { lines.append(TimedLine(nanos: realtimeNanos(), text: String(decoding: partial, as: UTF8.self))) }
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    /// How many lines have arrived so far.
    var count: Int {
        condition.lock()
        defer { condition.unlock() }
        return lines.count
    }

    /// The lines from index `from` on.
    func lines(from: Int = 0) -> [TimedLine] {
        condition.lock()
        defer { condition.unlock() }
        return from < lines.count ? Array(lines[from...]) : []
    }

    /// The first line at index `from` or later that `match` accepts, waiting up to `timeout`
    /// seconds for it; nil on timeout or when the pipe closed without one.
    func waitFor(from: Int, timeout: Double, _ match: (String) -> Bool) -> (index: Int, line: TimedLine)? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        var next = from
        while true {
            while next < lines.count {
                if match(lines[next].text) { return (next, lines[next]) }
                next += 1
            }
            if closed { return nil }
            if !condition.wait(until: deadline) && next >= lines.count { return nil }
        }
    }

    /// Waits up to `timeout` seconds for end of file; true when it came.
    @discardableResult
    func waitClosed(timeout: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while !closed {
            if !condition.wait(until: deadline) { return closed }
        }
        return true
    }
}
