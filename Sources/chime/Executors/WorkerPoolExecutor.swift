@_spi(ExperimentalCustomExecutors) @_spi(ExperimentalScheduling) import _Concurrency
import CLinuxShim
import Glibc

/// The `chime` process's default executor: where every task runs that is not bound to an actor
/// with an executor of its own.
///
/// Why not the runtime's default: on Linux that is libdispatch's global queues, and the first
/// worker thread they start also starts libdispatch's pool monitor, a one-second timer that is
/// never cancelled; an idle daemon would wake up every second for as long as it runs. This pool
/// has a fixed number of threads parked on a condition variable without a timeout, so with
/// nothing to do it has no wake-ups at all.
///
/// Delayed jobs (`Task.sleep`, `clock.sleep`) wait in a list; one timer thread, started with the
/// first of them, blocks on a timerfd armed for the earliest deadline only while one is pending.
/// The timerfd is on CLOCK_BOOTTIME, which keeps counting while the machine sleeps, so a sleep on
/// the continuous clock ends on time after a resume; a sleep on the suspending clock
/// (CLOCK_MONOTONIC) is checked again when the timer fires and re-armed if it is not yet due.
final class WorkerPoolExecutor: TaskExecutor, SchedulingExecutor, @unchecked Sendable {
    /// The kernel clock a delayed job's deadline is counted on.
    private enum KernelClock {
        case boottime  // ContinuousClock
        case monotonic  // SuspendingClock

        var now: Int64 {
            var ts = timespec()
            clock_gettime(self == .boottime ? CLOCK_BOOTTIME : CLOCK_MONOTONIC, &ts)
            return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
        }
    }

    private struct DelayedJob {
        let clock: KernelClock
        let deadline: Int64
        let job: UnownedJob
    }

    private let parking = ThreadParking()
    // Guarded by `parking`.
    private var ready: [UnownedJob] = []
    private var readyHead = 0
    private var delayed: [DelayedJob] = []
    private var timer: Int32 = -1

    let threadCount: Int

    /// Starts `threads` worker threads named `name-0`, `name-1` …
    init(threads: Int, name: String = "chime-pool") {
        precondition(threads > 0)
        threadCount = threads
        for index in 0..<threads {
            startDetachedThread(name: "\(name)-\(index)") { self.work() }
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        parking.withLock { ready.append(job) }
        parking.signal()
    }

    func enqueue<C: Clock>(_ job: consuming ExecutorJob, after delay: C.Duration, tolerance: C.Duration?, clock: C) {
        let kernelClock: KernelClock
        if clock is ContinuousClock {
            kernelClock = .boottime
        } else if clock is SuspendingClock {
            kernelClock = .monotonic
        } else {
            // The runtime asks only for these two; other clocks sleep by their own means.
            fatalError("Chime's executor schedules jobs on the continuous and suspending clocks, not \(C.self)")
        }
        let (seconds, attoseconds) = (delay as! Duration).components
        let nanoseconds = seconds > Int64.max / 1_000_000_000 - 1 ? Int64.max / 2 : max(0, seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        let entry = DelayedJob(clock: kernelClock, deadline: kernelClock.now + nanoseconds, job: UnownedJob(job))
        parking.withLock {
            delayed.append(entry)
            armTimer()
        }
    }

    /// A worker: runs ready jobs in order, parks when there are none.
    private func work() {
        parking.lock()
        while true {
            guard readyHead < ready.count else {
                parking.wait()
                continue
            }
            let job = ready[readyHead]
            readyHead += 1
            if readyHead == ready.count {
                ready.removeAll(keepingCapacity: true)
                readyHead = 0
            } else if readyHead >= 1024 {
                ready.removeFirst(readyHead)
                readyHead = 0
            }
            parking.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
            parking.lock()
        }
    }

    /// Arms the timerfd for the earliest pending deadline, or disarms it when none is pending.
    /// Starts the timer thread the first time. Call with the lock held.
    private func armTimer() {
        if timer < 0 {
            timer = timerfd_create(CLOCK_BOOTTIME, Int32(TFD_CLOEXEC))
            precondition(timer >= 0, "timerfd_create failed: errno \(errno)")
            startDetachedThread(name: "chime-timer") { self.waitForTimer() }
        }
        var spec = itimerspec()
        if !delayed.isEmpty {
            let bootNow = KernelClock.boottime.now
            let monotonicNow = KernelClock.monotonic.now
            // A monotonic deadline is at least as far away on the boottime clock, never nearer.
            let earliest = delayed.lazy.map { $0.clock == .boottime ? $0.deadline : bootNow + ($0.deadline - monotonicNow) }.min()!
            let at = max(earliest, 1)  // an all-zero value would disarm the timer
            spec.it_value = timespec(tv_sec: Int(at / 1_000_000_000), tv_nsec: Int(at % 1_000_000_000))
        }
        _ = timerfd_settime(timer, Int32(TFD_TIMER_ABSTIME), &spec, nil)
    }

    /// The timer thread: blocks until the timerfd fires, moves due jobs to the ready queue.
    private func waitForTimer() {
        var expirations: UInt64 = 0
        while true {
            let got = read(timer, &expirations, MemoryLayout<UInt64>.size)
            if got < 0 && errno != EINTR && errno != EAGAIN {
                fatalError("reading the executor's timerfd failed: errno \(errno)")
            }
            let moved: Int = parking.withLock {
                let bootNow = KernelClock.boottime.now
                let monotonicNow = KernelClock.monotonic.now
                // How long ago each job came due; the longest-due runs first, whatever the clock.
                func overdue(_ entry: DelayedJob) -> Int64 { (entry.clock == .boottime ? bootNow : monotonicNow) - entry.deadline }
                let due = delayed.filter { overdue($0) >= 0 }.sorted { overdue($0) > overdue($1) }
                guard !due.isEmpty else {
                    armTimer()
                    return 0
                }
                delayed.removeAll { overdue($0) >= 0 }
                ready.append(contentsOf: due.map(\.job))
                armTimer()
                return due.count
            }
            if moved == 1 { parking.signal() } else if moved > 1 { parking.broadcast() }
        }
    }
}
