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
/// ```swift
/// let alarms = ReadAside(pool: pool) { db in try AlarmRows.fetch(db, itemFilter: filter, arguments: arguments) }
/// let rows = try readRows(db)
/// let byItem = try alarms.value(readAt: Journal.lastSequence(db)) ?? AlarmRows.fetch(db, items: ids)
/// ```
final class ReadAside<Value: Sendable>: Sendable {
    private let result = Mutex<(journal: Int64, value: Value)?>(nil)
    private let done = DispatchGroup()

    init(pool: DatabasePool, read: @escaping @Sendable (Database) throws -> Value) {
        done.enter()
        DispatchQueue.global().async { [self] in
            let got = try? pool.read { db in (journal: try Journal.lastSequence(db), value: try read(db)) }
            result.withLock { $0 = got }
            done.leave()
        }
    }

    /// The value, once read, if it was read in the state of the store whose change journal ends
    /// at `journal`; nil when it was not (or could not be read).
    func value(readAt journal: Int64) -> Value? {
        done.wait()
        return result.withLock { read in read.flatMap { $0.journal == journal ? $0.value : nil } }
    }
}
