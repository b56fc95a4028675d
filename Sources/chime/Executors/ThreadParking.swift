import CLinuxShim
import Glibc

/// A pthread mutex and condition variable at fixed addresses (pthread objects must never move,
/// so they live in their own allocations rather than in Swift stored properties).
final class ThreadParking: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    func lock() { pthread_mutex_lock(mutex) }
    func unlock() { pthread_mutex_unlock(mutex) }
    /// Blocks until signalled, with no timeout: a parked thread costs no wake-ups. Call with the lock held.
    func wait() { pthread_cond_wait(condition, mutex) }
    func signal() { pthread_cond_signal(condition) }
    func broadcast() { pthread_cond_broadcast(condition) }

    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}

/// Starts a named, detached pthread running `body`. The name (at most 15 bytes) is what `top -H`
/// and `/proc/PID/task/*/comm` show, so a wake-up can be traced to the thread that had it.
func startDetachedThread(name: String, _ body: @escaping () -> Void) {
    final class Start {
        let name: String
        let body: () -> Void
        init(name: String, body: @escaping () -> Void) { self.name = name; self.body = body }
    }
    let start = Unmanaged.passRetained(Start(name: name, body: body)).toOpaque()
    var thread = pthread_t()
    let created = pthread_create(
        &thread, nil,
        { argument in
            let start = Unmanaged<Start>.fromOpaque(argument!).takeRetainedValue()
            _ = chime_set_current_thread_name(start.name)
            start.body()
            return nil
        }, start)
    precondition(created == 0, "cannot start thread \(name): error \(created)")
    pthread_detach(thread)
}
