import CLibnotify
import Dispatch
import Synchronization

/// A thread of its own running a GLib main loop on a private `GMainContext`, pushed as that
/// thread's default context so that GDBus objects created there (libnotify's proxy) deliver their
/// signals on it. Work is handed over with ``perform(_:)``.
///
/// ```swift
/// let loopThread = GLibMainLoopThread(name: "chime-libnotify")
/// let shown = loopThread.perform { notify_notification_show(handle, nil) != 0 }   // runs on the loop thread
/// loopThread.stop()
/// ```
final class GLibMainLoopThread: @unchecked Sendable {
    // @unchecked: `context` and `loop` are set once and GLib allows their use from any thread;
    // `gate` guards whether work is still accepted and the thread handle.
    private let context: OpaquePointer
    private let loop: OpaquePointer
    private let gate = Mutex<Gate>(Gate())

    private struct Gate {
        var accepting = true
        var thread: ThreadHandle?
    }

    /// The GThread to join. @unchecked: a GThread handle may be joined from any thread (once; `gate` sees to that).
    private struct ThreadHandle: @unchecked Sendable {
        let pointer: UnsafeMutablePointer<GThread>
    }

    init(name: String) {
        context = g_main_context_new()
        loop = g_main_loop_new(context, 0)
        let thread = g_thread_new(
            name,
            { userData in
                let owner = Unmanaged<GLibMainLoopThread>.fromOpaque(userData!).takeRetainedValue()
                owner.run()
                return nil
            }, Unmanaged.passRetained(self).toOpaque())
        let handle = thread.map(ThreadHandle.init)
        gate.withLock { $0.thread = handle }
    }

    deinit {
        g_main_loop_unref(loop)
        g_main_context_unref(context)
    }

    /// The context the loop runs, for sources the loop thread attaches itself.
    var mainContext: OpaquePointer { context }

    /// Whether the caller is the loop thread.
    var isCurrent: Bool { g_main_context_is_owner(context) != 0 }

    private func run() {
        g_main_context_push_thread_default(context)
        g_main_loop_run(loop)
        // Work queued before `stop()` closed the gate still runs, so that no `perform` waits forever.
        while g_main_context_iteration(context, 0) != 0 {}
        g_main_context_pop_thread_default(context)
    }

    /// Runs `work` on the loop thread and returns its result; nil once ``stop()`` was called.
    /// Called on the loop thread itself, it runs `work` at once.
    func perform<T>(_ work: @escaping () -> T) -> T? {
        if isCurrent { return work() }
        var result: T?
        let job = Job { result = work() }
        // The gate stays locked while the job is queued, so `stop()` cannot quit the loop between
        // the check and the queueing: everything queued before the quit request runs.
        let queued = gate.withLock { gate -> Bool in
            guard gate.accepting else { return false }
            g_main_context_invoke_full(
                context, G_PRIORITY_DEFAULT,
                { userData in
                    let job = Unmanaged<Job>.fromOpaque(userData!).takeUnretainedValue()
                    job.work()
                    job.done.signal()
                    return 0  // G_SOURCE_REMOVE
                }, Unmanaged.passRetained(job).toOpaque(),
                { userData in
                    Unmanaged<Job>.fromOpaque(userData!).release()
                })
            return true
        }
        guard queued else { return nil }
        job.done.wait()
        return result
    }

    /// Stops accepting work, lets queued work finish, quits the loop and joins the thread.
    /// Idempotent. Called on the loop thread itself (an owner whose last reference went away in
    /// work or a signal handler running there), it cannot join: the loop quits once that work
    /// returns and the thread ends on its own.
    func stop() {
        let onLoopThread = isCurrent
        let thread = gate.withLock { gate -> ThreadHandle? in
            guard gate.accepting else { return nil }
            gate.accepting = false
            g_main_context_invoke_full(
                context, G_PRIORITY_DEFAULT,
                { loop in
                    g_main_loop_quit(OpaquePointer(loop))
                    return 0
                }, UnsafeMutableRawPointer(g_main_loop_ref(loop)),
                { loop in
                    g_main_loop_unref(OpaquePointer(loop))
                })
            defer { gate.thread = nil }
            return gate.thread
        }
        guard let thread else { return }
        if onLoopThread {
            g_thread_unref(thread.pointer)  // the quit above ran at once; nobody joins this thread
        } else {
            g_thread_join(thread.pointer)
        }
    }
}

/// One unit of work handed to the loop thread, with the signal its caller waits on.
private final class Job {
    let work: () -> Void
    let done = DispatchSemaphore(value: 0)
    init(_ work: @escaping () -> Void) { self.work = work }
}

/// A value only the loop thread touches; the wrapper lets it travel inside its owner and in the
/// closures handed to ``GLibMainLoopThread/perform(_:)`` or ``GLibMainLoopThread/post(_:)``.
struct LoopConfined<Value>: @unchecked Sendable {
    // @unchecked: `value` is used only inside work run on the loop thread.
    let value: Value
    init(_ value: Value) { self.value = value }
}
