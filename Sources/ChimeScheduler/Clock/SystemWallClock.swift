import ChimeCore
import CLinuxShim
import Foundation
import Glibc
import Synchronization

/// The real wall clock. A sleep is one `timerfd` on CLOCK_REALTIME armed at the absolute
/// deadline with `TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET`, waited on by a thread blocked in
/// `poll`: it fires at the wall-clock second even across suspend, and the kernel cancels it
/// (ECANCELED) when the clock is set or the machine resumes, which ends the sleep with
/// `.clockChanged`. An inotify watch on `/etc` reports a changed `/etc/localtime` (time-zone
/// change) the same way. Nothing wakes in between: an idle daemon costs no CPU.
///
/// ```swift
/// let clock = SystemWallClock()
/// switch try await clock.sleep(until: clock.now().adding(3600)) {
/// case .deadline: print("an hour passed on the wall clock")
/// case .clockChanged: print("recompute deadlines")
/// }
/// ```
public struct SystemWallClock: WallClock {
    /// Watch `/etc/localtime` for time-zone changes (off in tests that sleep many times).
    public var watchesTimeZone: Bool

    public init(watchesTimeZone: Bool = true) {
        self.watchesTimeZone = watchesTimeZone
    }

    public func nowMilliseconds() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000
    }

    public func sleep(until deadline: Instant?) async throws -> WakeReason {
        let sleep = try TimerSleep(deadline: deadline, watchTimeZone: watchesTimeZone)
        return try await withTaskCancellationHandler {
            let reason = await withCheckedContinuation { continuation in
                // Wake the scheduler first: closing an inotify descriptor can take 10+ ms
                // (the kernel waits for an RCU grace period), which would otherwise count as lateness.
                let thread = Thread {
                    let reason = sleep.wait()
                    continuation.resume(returning: reason)
                    sleep.close()
                }
                thread.name = "chime-timer"
                thread.stackSize = 64 * 1024
                thread.start()
            }
            if reason == nil { throw CancellationError() }
            return reason!
        } onCancel: {
            sleep.interrupt()
        }
    }
}

/// One armed timer plus its interrupt eventfd; the file descriptors live until `wait` returns.
private final class TimerSleep: Sendable {
    private let timer: Int32
    private let interrupter: Int32
    private let zoneWatch: Int32
    /// True once `wait` has closed the descriptors: a late `interrupt` must not write to a
    /// number the process may have reused.
    private let closed = Mutex(false)

    init(deadline: Instant?, watchTimeZone: Bool) throws {
        timer = timerfd_create(CLOCK_REALTIME, Int32(TFD_CLOEXEC))
        interrupter = eventfd(0, Int32(EFD_CLOEXEC))
        guard timer >= 0, interrupter >= 0 else { throw CancellationError() }
        if watchTimeZone {
            let fd = inotify_init1(Int32(IN_CLOEXEC))
            if fd >= 0 { _ = inotify_add_watch(fd, "/etc", UInt32(IN_CREATE | IN_MOVED_TO | IN_CLOSE_WRITE | IN_DELETE)) }
            zoneWatch = fd
        } else {
            zoneWatch = -1
        }
        // Without a deadline, arm far in the future: CANCEL_ON_SET still reports clock changes.
        let seconds = deadline?.secondsSince1970 ?? Int64(Int32.max)
        var spec = itimerspec(it_interval: timespec(), it_value: timespec(tv_sec: Int(seconds), tv_nsec: 0))
        _ = timerfd_settime(timer, Int32(TFD_TIMER_ABSTIME) | Int32(TFD_TIMER_CANCEL_ON_SET), &spec, nil)
    }

    /// Blocks until the timer fires (.deadline), the clock or zone changes (.clockChanged), or
    /// `interrupt()` (nil). Call `close()` afterwards.
    func wait() -> WakeReason? {
        var fds = [
            pollfd(fd: timer, events: Int16(POLLIN), revents: 0),
            pollfd(fd: interrupter, events: Int16(POLLIN), revents: 0),
            pollfd(fd: zoneWatch, events: Int16(POLLIN), revents: 0)
        ]
        while true {
            let ready = poll(&fds, nfds_t(zoneWatch >= 0 ? 3 : 2), -1)
            if ready < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if fds[1].revents != 0 { return nil }
            if fds[0].revents != 0 {
                var expirations: UInt64 = 0
                let n = read(timer, &expirations, 8)
                return n < 0 && errno == ECANCELED ? .clockChanged : .deadline
            }
            if zoneWatch >= 0, fds[2].revents != 0, Self.localtimeChanged(zoneWatch) { return .clockChanged }
            fds[2].revents = 0
        }
    }

    /// Releases the descriptors; called once, after `wait` returned.
    func close() {
        closed.withLock { isClosed in
            Glibc.close(timer)
            Glibc.close(interrupter)
            if zoneWatch >= 0 { Glibc.close(zoneWatch) }
            isClosed = true
        }
    }

    func interrupt() {
        closed.withLock { isClosed in
            guard !isClosed else { return }
            var one: UInt64 = 1
            _ = write(interrupter, &one, 8)
        }
    }

    /// Reads pending inotify events; true when one names `localtime`.
    private static func localtimeChanged(_ fd: Int32) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = read(fd, &buffer, buffer.count)
        guard n > 0 else { return false }
        var offset = 0
        var found = false
        let headerSize = MemoryLayout<inotify_event>.size
        while offset + headerSize <= n {
            let length = buffer.withUnsafeBytes { Int($0.load(fromByteOffset: offset + 12, as: UInt32.self)) }
            if length > 0 {
                let nameBytes = buffer[(offset + headerSize)..<min(n, offset + headerSize + length)].prefix { $0 != 0 }
                if String(decoding: nameBytes, as: UTF8.self) == "localtime" { found = true }
            }
            offset += headerSize + length
        }
        return found
    }
}
