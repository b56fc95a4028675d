import GRDB
@testable import ChimeStore
import Testing

/// Database failures reach the caller typed: SQLite's result code is kept beside its message.
struct StoreErrorTests {
    @Test func aDatabaseFailureKeepsSQLitesResultCode() {
        let failure = DatabaseError(resultCode: .SQLITE_CONSTRAINT_UNIQUE, message: "UNIQUE constraint failed: item.id")
        guard case .database(let path, let code, let message) = StoreError.from(failure, path: "/tmp/x.sqlite") else {
            Issue.record("not a database error: \(StoreError.from(failure, path: "/tmp/x.sqlite"))")
            return
        }
        #expect(path == "/tmp/x.sqlite")
        #expect(code == ResultCode.SQLITE_CONSTRAINT_UNIQUE.rawValue)
        #expect(message.contains("UNIQUE constraint failed"))
        // Read-only and the caller's own store errors are their own cases, not this one.
        #expect(StoreError.from(DatabaseError(resultCode: .SQLITE_READONLY), path: "p") == .readOnly(path: "p"))
        #expect(StoreError.from(StoreError.unknownItem("x"), path: "p") == .unknownItem("x"))
    }

    @Test func anErrorThatIsNotSQLitesHasNoCode() {
        struct Other: Error {}
        guard case .database(_, let code, _) = StoreError.from(Other(), path: "p") else { Issue.record("not .database"); return }
        #expect(code == nil)
    }
}
