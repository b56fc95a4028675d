import Foundation

/// Reading a file on a thread of its own while the calling thread stores what it read: an
/// import parses its next batch of items while the last one is written, so its time is the
/// larger of the two instead of their sum.
///
/// At most `capacity` batches wait between the two, so memory stays bounded whatever the file's
/// size. Batches are stored in the order they were read. If storing fails, the reader is told
/// to stop at its next batch and waited for, and the store's error is thrown; if reading fails,
/// the batches read before it are stored and then the reader's error is thrown, as when both ran
/// on one thread. Nothing of the reader outlives the call. `store` is handed each batch to own:
/// it may take the batch's values out without copying them.
///
/// ```swift
/// let rest = try ReadWhileStoring.run(capacity: 2) { hand in
///     try ICalendar.stream(file: name, chunks: next) { item, _ in try hand([item]) }
/// } store: { items in
///     try session.add(items)
/// }
/// ```
enum ReadWhileStoring {
    /// Thrown into the reader when the store has stopped taking batches.
    struct Stopped: Error {}

    /// What the reader hands its batches to. It also says whether the storing thread is behind,
    /// so that work either thread could do goes to the one that would otherwise wait.
    ///
    /// ```swift
    /// let entry = ImportEntry(item, withValues: hand.storeIsBehind)   // else stored without them
    /// try hand(batch)
    /// ```
    struct Hand<Batch> {
        fileprivate let put: (Batch) throws -> Void
        fileprivate let waiting: () -> Int

        /// Hands `batch` to the storing thread, waiting while `capacity` batches wait already.
        func callAsFunction(_ batch: Batch) throws { try put(batch) }

        /// True while a batch handed before waits untaken: the storing thread is busy and the
        /// reader is ahead, so what the reader works out for the store now costs the pair no time.
        var storeIsBehind: Bool { waiting() > 0 }
    }

    static func run<Batch, Result>(
        capacity: Int = 2,
        read: (_ hand: Hand<Batch>) throws -> Result,
        store: (inout Batch) throws -> Void
    ) throws -> Result {
        let line = Line<Batch, Result>(capacity: capacity)
        // The closures live on this thread's stack until the reader has finished (waited for
        // below on every path), so the reader may use them although they do not escape.
        return try withoutActuallyEscaping(read) { read in
            let job = ReaderJob(read)
            let thread = Thread {
                // The job lets go of the closure before the caller is told: the check that it
                // did not escape runs as soon as the caller returns.
                line.finish(job.run(Hand(put: { batch in if !line.put(batch) { throw Stopped() } }, waiting: line.waitingCount)))
            }
            thread.name = "chime.import-reader"
            thread.start()
            while var batch = line.take() {
                do {
                    try store(&batch)
                } catch {
                    line.stop()
                    _ = line.waitForOutcome()
                    throw error
                }
            }
            return try line.waitForOutcome().get()
        }
    }

    /// What the storing thread is done with, freed by the reading thread between its batches:
    /// freeing an import's thousands of items was part of the storing thread's work.
    ///
    /// ```swift
    /// leftovers.keep(session.takeStored())   // storing thread, after each batch
    /// leftovers.free()                       // reading thread, after handing a batch
    /// ```
    final class Leftovers: @unchecked Sendable {
        private let lock = NSLock()
        private var values: [any Sendable] = []

        func keep(_ more: [any Sendable]) {
            lock.lock()
            values.append(contentsOf: more)
            lock.unlock()
        }

        /// Frees what was kept, on the calling thread (outside the lock).
        func free() {
            var taken: [any Sendable] = []
            lock.lock()
            swap(&taken, &values)
            lock.unlock()
            taken.removeAll()
        }
    }

    /// The batches between the two threads, and the reader's outcome.
    private final class Line<Batch, Result>: @unchecked Sendable {
        private let condition = NSCondition()
        private let capacity: Int
        private var waiting: [Batch] = []
        private var stopped = false
        private var outcome: Swift.Result<Result, any Error>?

        init(capacity: Int) { self.capacity = max(1, capacity) }

        /// Waits for room; false once the store has stopped taking batches.
        func put(_ batch: Batch) -> Bool {
            condition.lock()
            defer { condition.unlock() }
            while waiting.count >= capacity && !stopped { condition.wait() }
            if stopped { return false }
            waiting.append(batch)
            condition.broadcast()
            return true
        }

        /// The next batch in order, waiting for one; nil once the reader has finished and every
        /// batch it handed has been taken.
        func take() -> Batch? {
            condition.lock()
            defer { condition.unlock() }
            while waiting.isEmpty && outcome == nil { condition.wait() }
            if waiting.isEmpty { return nil }
            let batch = waiting.removeFirst()
            condition.broadcast()
            return batch
        }

        /// How many batches wait to be taken.
        func waitingCount() -> Int {
            condition.lock()
            defer { condition.unlock() }
            return waiting.count
        }

        func finish(_ result: Swift.Result<Result, any Error>) {
            condition.lock()
            outcome = result
            condition.broadcast()
            condition.unlock()
        }

        /// Tells the reader to stop and drops what waits.
        func stop() {
            condition.lock()
            stopped = true
            waiting.removeAll()
            condition.broadcast()
            condition.unlock()
        }

        func waitForOutcome() -> Swift.Result<Result, any Error> {
            condition.lock()
            defer { condition.unlock() }
            while outcome == nil { condition.wait() }
            return outcome!
        }
    }

    /// The reader's closure, handed to its thread and dropped once run.
    private final class ReaderJob<Batch, Result>: @unchecked Sendable {
        private var read: ((_ hand: Hand<Batch>) throws -> Result)?
        init(_ read: @escaping (_ hand: Hand<Batch>) throws -> Result) { self.read = read }

        func run(_ hand: Hand<Batch>) -> Swift.Result<Result, any Error> {
            guard let read else { return .failure(Stopped()) }
            self.read = nil
            return Swift.Result { try read(hand) }
        }
    }
}
