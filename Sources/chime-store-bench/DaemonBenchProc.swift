import Foundation
import Glibc

/// What /proc says about a running process: memory, CPU time, per-thread context switches.
enum ProcStats {
    struct Memory {
        /// VmRSS and VmHWM (peak RSS), KiB.
        var rssKiB: Int
        var hwmKiB: Int
        /// VmRSS split: anonymous (heap, stacks) and file-backed (the binary and shared libraries).
        var anonKiB: Int
        var fileKiB: Int
        var threads: Int
    }

    /// One thread's context switches (each one is the thread blocking or being preempted: a
    /// wake-up follows every voluntary one).
    struct ThreadSwitches {
        var name: String
        var voluntary: Int
        var nonvoluntary: Int
        var total: Int { voluntary + nonvoluntary }
    }

    /// Clock ticks per second of /proc/PID/stat's utime and stime (USER_HZ).
    static let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))

    static func memory(_ pid: pid_t) -> Memory? {
        guard let status = read("/proc/\(pid)/status") else { return nil }
        let fields = statusFields(status)
        guard let rss = fields["VmRSS"], let hwm = fields["VmHWM"] else { return nil }
        return Memory(
            rssKiB: rss, hwmKiB: hwm, anonKiB: fields["RssAnon"] ?? 0, fileKiB: fields["RssFile"] ?? 0,
            threads: fields["Threads"] ?? 0)
    }

    /// utime + stime of the whole process (exited threads included), in clock ticks.
    static func cpuTicks(_ pid: pid_t) -> Int? {
        // Fields after the parenthesised command name: state is field 3, utime 14, stime 15.
        guard let stat = read("/proc/\(pid)/stat"), let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else { return nil }
        return user + system
    }

    /// Every live thread's context switches, by thread id.
    static func threadSwitches(_ pid: pid_t) -> [Int: ThreadSwitches] {
        var result: [Int: ThreadSwitches] = [:]
        guard let dir = opendir("/proc/\(pid)/task") else { return result }
        defer { closedir(dir) }
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard let tid = Int(name), let status = read("/proc/\(pid)/task/\(tid)/status") else { continue }
            let fields = statusFields(status)
            let comm = read("/proc/\(pid)/task/\(tid)/comm")?.trimmingCharacters(in: [" ", "\n"]) ?? "?"
            result[tid] = ThreadSwitches(
                name: comm, voluntary: fields["voluntary_ctxt_switches"] ?? 0,
                nonvoluntary: fields["nonvoluntary_ctxt_switches"] ?? 0)
        }
        return result
    }

    /// The numeric `Key: value [kB]` lines of a status file.
    private static func statusFields(_ text: String) -> [String: Int] {
        var fields: [String: Int] = [:]
        for line in text.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let value = line[line.index(after: colon)...].split(whereSeparator: { $0 == " " || $0 == "\t" }).first
            if let value, let n = Int(value) { fields[String(line[..<colon])] = n }
        }
        return fields
    }

    /// A whole (small) /proc file.
    static func read(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { Glibc.close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            bytes += buffer[0..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
