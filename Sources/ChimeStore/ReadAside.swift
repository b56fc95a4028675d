import Dispatch
import GRDB
import Synchronization

/// A read on a second connection of the store's pool, on a thread of its own, while the
/// caller's connection reads something else: a long window's alarms while its rows are read
/// (on two cores, the alarms of a year of a busy store then cost almost nothing).
///
/// The two reads are two transactions. What was read here is taken only when both saw the same
/// change journal (``Journal/lastSequence(_:)``): every write of items and their alarms appends
/// to it in its own transaction, so an equal sequence means no such write committed between the
/// two reads. Otherwise, or when this read failed, the caller reads it itself.
///
/// The caller holds a connection of the same pool while it waits, so it waits only for a read
/// that has its connection: one still waiting for a connection when the caller asks (every
/// reader of the pool taken, by callers that may all be waiting so) is given up, and the caller
/// reads the value itself.
///
/// ```swift
/// let alarms = ReadAside(pool: pool) { db in try AlarmRows.fetch(db, itemFilter: filter, arguments: arguments) }
/// let rows = try readRows(db)
/// let byItem = try alarms.value(readAt: Journal.lastSequence(db)) ?? AlarmRows.fetch(db, items: ids)
/// ```
final class ReadAside<Value: Sendable>: Sendable {
    private enum State: Sendable {
        case waitingForConnection
        case reading
        case read(journal: Int64, value: Value)
        case failed
        case givenUp
    }
    private let state = Mutex<State>(.waitingForConnection)
    private let done = DispatchGroup()

    init(pool: DatabasePool, read: @escaping @Sendable (Database) throws -> Value) {
        done.enter()
        DispatchQueue.global().async { [self] in
            defer { done.leave() }
            // Given up before this thread ran: no connection is taken at all. Taken for nothing,
            // it was the pool's first reader while the caller's next query began, which then read
            // on another connection, where the events it kept could not be found.
            let givenUp = state.withLock { s in if case .givenUp = s { true } else { false } }
            if givenUp { return }
            do {
                try pool.read { db in
                    let goOn = state.withLock { s -> Bool in
                        guard case .waitingForConnection = s else { return false }
                        s = .reading
                        return true
                    }
                    guard goOn else { return }
                    let journal = try Journal.lastSequence(db)
                    let value = try read(db)
                    state.withLock { $0 = .read(journal: journal, value: value) }
                }
            } catch {
                state.withLock { s in if case .reading = s { s = .failed } }
            }
        }
    }

    /// Waits until the read has ended, whether it ran or not (tests: a caller never waits for a
    /// read without a connection).
    func waitUntilEnded() { done.wait() }

    /// The value, if it was read in the state of the store whose change journal ends at
    /// `journal`; nil when it was not, could not be read, or had no connection yet.
    func value(readAt journal: Int64) -> Value? {
        let started = state.withLock { s -> Bool in
            if case .waitingForConnection = s {
                s = .givenUp
                return false
            }
            return true
        }
        guard started else { return nil }
        done.wait()
        return state.withLock { s in
            if case .read(let j, let value) = s, j == journal { return value }
            return nil
        }
    }
}
