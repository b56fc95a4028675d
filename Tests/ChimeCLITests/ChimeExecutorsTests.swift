@_spi(ExperimentalScheduling) import _Concurrency
import Foundation
import Glibc
import Synchronization
import Testing
@testable import chime

/// Chime's own executors (Sources/chime/Executors), in this test process on pools of their own: jobs
/// run on the pool's named threads, delayed jobs wait on the timer thread until their deadline and
/// then run longest-due first, whatever the clock. That the `chime` process itself runs on them, and
/// then has no libdispatch worker and no wake-up while idle, is checked on a daemon in DaemonTests.
@Suite struct ChimeExecutorsTests {
    /// The name of the calling thread.
    static func threadName() -> String {
        ((try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? "").trimmingCharacters(in: .newlines)
    }

    @Test func tasksRunOnThePoolsOwnThreads() async {
        let pool = WorkerPoolExecutor(threads: 2, name: "exec-test")
        let names = await withTaskExecutorPreference(pool) {
            await withTaskGroup(of: String.self) { group in
                for _ in 0..<200 { group.addTask { Self.threadName() } }
                var names: Set<String> = []
                for await name in group { names.insert(name) }
                return names
            }
        }
        #expect(!names.isEmpty)
        #expect(names.isSubset(of: ["exec-test-0", "exec-test-1"]), "\(names)")
    }

    /// Forwards each job to `pool` with a delay, which is how the runtime hands over a sleeping task.
    final class Delaying: TaskExecutor, @unchecked Sendable {
        let pool: WorkerPoolExecutor
        let delay: Duration
        let suspending: Bool
        init(_ pool: WorkerPoolExecutor, delay: Duration, suspending: Bool = false) {
            self.pool = pool
            self.delay = delay
            self.suspending = suspending
        }
        func enqueue(_ job: consuming ExecutorJob) {
            if suspending {
                pool.enqueue(job, after: delay, tolerance: nil, clock: SuspendingClock())
            } else {
                pool.enqueue(job, after: delay, tolerance: nil, clock: ContinuousClock())
            }
        }
    }

    @Test func delayedJobsRunNoEarlierThanTheirDeadlineAndInDeadlineOrder() async {
        let pool = WorkerPoolExecutor(threads: 2, name: "exec-delay")
        final class Order: Sendable { let ran = Mutex<[Int]>([]) }
        let order = Order()
        let started = ContinuousClock.now
        // Enqueued out of order, on both clocks: 60 ms (continuous), 20 ms (suspending), 40 ms (continuous).
        let plan: [(Int, Bool)] = [(60, false), (20, true), (40, false)]
        let tasks = plan.map { milliseconds, suspending in
            Task(executorPreference: Delaying(pool, delay: .milliseconds(milliseconds), suspending: suspending)) {
                let waited = ContinuousClock.now - started
                order.ran.withLock { $0.append(milliseconds) }
                return (waited, Self.threadName())
            }
        }
        for (task, (milliseconds, _)) in zip(tasks, plan) {
            let (waited, thread) = await task.value
            #expect(waited >= .milliseconds(milliseconds), "a job \(milliseconds) ms away ran after \(waited)")
            #expect(thread.hasPrefix("exec-delay-"), "\(thread)")
        }
        #expect(order.ran.withLock { $0 } == [20, 40, 60])
    }

    @Test func aDelayedJobDueAlreadyRunsAtOnce() async {
        let pool = WorkerPoolExecutor(threads: 1, name: "exec-now")
        let ran = await Task(executorPreference: Delaying(pool, delay: .milliseconds(-5))) { Self.threadName() }.value
        #expect(ran == "exec-now-0")
    }
}
