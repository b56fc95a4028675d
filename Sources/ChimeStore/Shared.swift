import Synchronization

/// A value that an escaping closure (a queued write) can set and the caller read afterwards.
final class Shared<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>
    init(_ value: Value) { mutex = Mutex(value) }
    func update(_ body: (inout Value) -> Void) { mutex.withLock { body(&$0) } }
    var value: Value { mutex.withLock { $0 } }
}
