import Synchronization

/// A queue with one waiting consumer: the scheduler's inbox for store changes, user actions
/// and timer wake-ups, so that one task handles them all in order.
final class Mailbox<Element: Sendable>: Sendable {
    private struct State: ~Copyable {
        var items: [Element] = []
        var waiter: CheckedContinuation<Element?, Never>?
    }

    private let state = Mutex(State())

    func post(_ element: Element) {
        let waiter = state.withLock { s -> CheckedContinuation<Element?, Never>? in
            if let w = s.waiter {
                s.waiter = nil
                return w
            }
            s.items.append(element)
            return nil
        }
        waiter?.resume(returning: element)
    }

    /// The next element; nil when the task is cancelled.
    func next() async -> Element? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { s -> Element?? in
                    if !s.items.isEmpty { return .some(s.items.removeFirst()) }
                    if Task.isCancelled { return .some(nil) }
                    s.waiter = continuation
                    return .none
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            let waiter = state.withLock { s -> CheckedContinuation<Element?, Never>? in
                defer { s.waiter = nil }
                return s.waiter
            }
            waiter?.resume(returning: nil)
        }
    }

    /// Everything queued, without waiting.
    func drain() -> [Element] {
        state.withLock { s in
            defer { s.items.removeAll() }
            return s.items
        }
    }
}
