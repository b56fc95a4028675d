@_spi(ExperimentalCustomExecutors) import _Concurrency
import Glibc

/// The `chime` process's main executor: runs main-actor jobs on the main thread.
///
/// Why not the runtime's: on Linux it is libdispatch's main queue, which `dispatch_main()` drains on
/// a libdispatch thread of its own while the main thread just waits for signals. With the default
/// executor Chime's own (``WorkerPoolExecutor``), this keeps main-actor jobs on the main thread and
/// the process off libdispatch altogether: it runs them as they come and otherwise blocks on a
/// condition variable without a timeout.
final class MainThreadExecutor: MainExecutor, @unchecked Sendable {
    private let parking = ThreadParking()
    // Guarded by `parking`.
    private var jobs: [UnownedJob] = []
    private var stopped = false
    /// The thread that created the executor: the main thread, which `run()` is then called on.
    private let owner = pthread_self()

    var isMainExecutor: Bool { true }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        parking.withLock { jobs.append(job) }
        parking.signal()
    }

    /// Runs jobs as they come until `stop()`; the async `main` entry point calls this on the main thread.
    func run() throws {
        try runUntil { false }
    }

    func runUntil(_ condition: () -> Bool) throws {
        precondition(pthread_equal(pthread_self(), owner) != 0, "the main executor runs on the thread that created it")
        parking.lock()
        defer { parking.unlock() }
        while !stopped && !condition() {
            guard !jobs.isEmpty else {
                parking.wait()
                continue
            }
            let batch = jobs
            jobs.removeAll(keepingCapacity: true)
            parking.unlock()
            for job in batch { job.runSynchronously(on: asUnownedSerialExecutor()) }
            parking.lock()
        }
        stopped = false
    }

    func stop() {
        parking.withLock { stopped = true }
        parking.signal()
    }

    func isIsolatingCurrentContext() -> Bool? {
        pthread_equal(pthread_self(), owner) != 0
    }

    func checkIsolated() {
        precondition(pthread_equal(pthread_self(), owner) != 0, "not on the main thread")
    }
}
