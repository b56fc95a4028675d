@_spi(ExperimentalCustomExecutors) import _Concurrency

// The executors below use Swift 6.3's ExecutorFactory: say so plainly on an older compiler.
#if !compiler(>=6.3)
    #error("Chime needs Swift 6.3 or later (the command line's executors use the ExecutorFactory interface 6.3 added)")
#endif
import Glibc

/// Chime's own main and default executors, so that a `chime daemon` with nothing to do has no
/// wake-ups (libdispatch's, the runtime's default on Linux, start a one-second timer that never
/// stops; see ``WorkerPoolExecutor``).
///
/// Swift 6.3 lets a program choose its executors through an `ExecutorFactory`. The compiler is
/// meant to pick up a `DefaultExecutorFactory` type alias in the main module; the 6.3.1 compiler
/// on Linux does not (its `async main` never calls `_createExecutors`). Installing them from an
/// `async main` is too late: its first part has already run on libdispatch's main executor, and a
/// task that resumes there after the switch is lost. So the entry point is synchronous: it calls
/// ``install()``, starts the command as a main-actor task, and gives the main thread to
/// ``runMainThread()``, as the compiler's `async main` would.
enum ChimeExecutors: ExecutorFactory {
    /// Four threads whatever the core count: the daemon's tasks mostly wait, and a few extra parked
    /// threads cost nothing, while too few could stall behind a job that blocks.
    static let pool = WorkerPoolExecutor(threads: 4)
    static let main = MainThreadExecutor()

    static var mainExecutor: any MainExecutor { main }
    static var defaultExecutor: any TaskExecutor { pool }

    /// Makes these the process's main and default executors. Call once, on the main thread, before
    /// any task is started (the first statement of `main`).
    static func install() {
        _createExecutors(factory: ChimeExecutors.self)
    }

    /// Runs main-actor jobs on the calling (main) thread; does not return.
    static func runMainThread() -> Never {
        do { try main.run() } catch { fatalError("the main executor stopped: \(error)") }
        fatalError("the main executor stopped")
    }
}
