import GRDB
@testable import ChimeStore
import Synchronization
import Testing

/// The two halves of a fast import: values bound straight to SQLite, and a file read on one
/// thread while its items are stored on another.
struct BoundWriteTests {
    private func database() throws -> DatabaseQueue {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE t (s TEXT, i INTEGER, b INTEGER, d REAL, n TEXT, u TEXT UNIQUE)")
        }
        return queue
    }

    @Test func eachKindOfValueIsStoredAsGRDBWouldStoreIt() throws {
        let queue = try database()
        try queue.write { db in
            let insert = try db.cachedStatement(sql: "INSERT INTO t (s, i, b, d, n, u) VALUES (?, ?, ?, ?, ?, ?)")
            for (text, unique) in [("", "a"), ("Zürich 会議 🗓", "b")] {
                try insert.run { row in
                    row.bind(text)
                    row.bind(Int64.min)
                    row.bind(true)
                    row.bind(-33.865 as Double?)
                    row.bind(nil as String?)
                    row.bind(unique)
                }
            }
            try db.execute(
                sql: "INSERT INTO t (s, i, b, d, n, u) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: ["Zürich 会議 🗓", Int64.min, true, -33.865, nil, "c"])
        }
        let rows = try queue.read { db in
            try Row.fetchAll(db, sql: "SELECT s, typeof(s), i, b, typeof(b), d, typeof(n) FROM t ORDER BY u")
        }
        // An empty string is text, not NULL; the bound row equals the row GRDB wrote.
        #expect(rows[0]["s"] as String? == "")
        #expect(rows[0][1] as String == "text")
        #expect(rows[1] == rows[2])
        #expect(rows[1]["s"] as String == "Zürich 会議 🗓")
        #expect(rows[1]["i"] as Int64 == Int64.min)
        #expect(rows[1]["b"] as Int64 == 1)
        #expect(rows[1][4] as String == "integer")
        #expect(rows[1]["d"] as Double == -33.865)
        #expect(rows[1][6] as String == "null")
    }

    @Test func aFailedWriteThrowsSQLitesErrorAndTheStatementRunsAgain() throws {
        let queue = try database()
        try queue.write { db in
            let insert = try db.cachedStatement(sql: "INSERT INTO t (u) VALUES (?)")
            try insert.run { $0.bind("same") }
            do {
                try insert.run { $0.bind("same") }
                Issue.record("a second row with the same unique value was stored")
            } catch let error as DatabaseError {
                #expect(error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE)
                #expect(error.message?.contains("UNIQUE constraint failed: t.u") == true)
                #expect(StoreError.from(error, path: "p") != .readOnly(path: "p"))
            }
            try insert.run { $0.bind("other") }
        }
        #expect(try queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM t") } == 2)
    }

    @Test func batchesAreStoredInTheOrderTheyWereRead() throws {
        var stored: [Int] = []
        let result = try ReadWhileStoring.run(capacity: 2) { hand in
            for batch in 0..<200 { try hand(batch) }
            return "read"
        } store: { batch in
            stored.append(batch)
        }
        #expect(result == "read")
        #expect(stored == Array(0..<200))
    }

    @Test func aStoreThatFailsStopsTheReaderAndItsErrorIsThrown() throws {
        struct DiskFull: Error {}
        let handed = Mutex(0)
        var stored: [Int] = []
        #expect(throws: DiskFull.self) {
            try ReadWhileStoring.run(capacity: 2) { hand in
                for batch in 0..<1_000 {
                    try hand(batch)
                    handed.withLock { $0 += 1 }
                }
                Issue.record("the reader read on after the store failed")
            } store: { batch in
                if batch == 3 { throw DiskFull() }
                stored.append(batch)
            }
        }
        #expect(stored == [0, 1, 2])
        // The reader was stopped, not left to read the whole file: at most the batches that
        // were waiting (two) and the one it was handing when the store failed.
        #expect(handed.withLock { $0 } <= 3 + 2 + 1)
    }

    @Test func aReadThatFailsStoresWhatCameBeforeAndThrowsTheReadersError() throws {
        struct BadLine: Error, Equatable { let line: Int }
        var stored: [Int] = []
        #expect(throws: BadLine(line: 42)) {
            try ReadWhileStoring.run(capacity: 2) { hand in
                for batch in 0..<5 { try hand(batch) }
                throw BadLine(line: 42)
            } store: { batch in
                stored.append(batch)
            }
        }
        #expect(stored == [0, 1, 2, 3, 4])
    }

    @Test func aReaderThatHandsNothingReturnsItsResult() throws {
        let result = try ReadWhileStoring.run { (_: ReadWhileStoring.Hand<Int>) in
            7
        } store: { _ in
            Issue.record("nothing was handed, yet something was stored")
        }
        #expect(result == 7)
    }
}
