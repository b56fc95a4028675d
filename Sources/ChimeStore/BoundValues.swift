import GRDB

#if canImport(GRDBSQLite)
    import GRDBSQLite
#else
    import SQLite3
#endif

/// The values of one execution of a prepared statement, bound straight to its parameters in
/// order, for the writes an import or a sync runs thousands of times in one transaction.
///
/// GRDB's `execute(arguments:)` boxes each value as an existential, converts it to a
/// `DatabaseValue`, validates the count and binds it: for a 29-column item row that was about a
/// tenth of a 10,000-item import. Here each value goes to `sqlite3_bind_*` as it is.
///
/// ```swift
/// try db.cachedStatement(sql: "INSERT INTO t (a, b) VALUES (?, ?)").run { row in
///     row.bind("text")
///     row.bind(Int64(42))
/// }
/// ```
struct BoundValues {
    fileprivate let statement: OpaquePointer
    fileprivate var position: Int32 = 0

    // SQLite copies the bytes before the call returns (the Swift string's buffer is only
    // borrowed for the call).
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    mutating func bind(_ value: String?) {
        position += 1
        guard var value else {
            sqlite3_bind_null(statement, position)
            return
        }
        _ = value.withUTF8 { bytes in
            // An empty buffer may have no address, which SQLite would read as NULL.
            if let base = bytes.baseAddress {
                sqlite3_bind_text(statement, position, base, Int32(bytes.count), Self.transient)
            } else {
                sqlite3_bind_text(statement, position, "", 0, Self.transient)
            }
        }
    }

    mutating func bind(_ value: Int64?) {
        position += 1
        if let value { sqlite3_bind_int64(statement, position, value) } else { sqlite3_bind_null(statement, position) }
    }

    mutating func bind(_ value: Int?) { bind(value.map(Int64.init)) }

    /// As GRDB stores it: 0 or 1.
    mutating func bind(_ value: Bool) { bind(Int64(value ? 1 : 0)) }

    mutating func bind(_ value: Double?) {
        position += 1
        if let value { sqlite3_bind_double(statement, position, value) } else { sqlite3_bind_null(statement, position) }
    }
}

extension Statement {
    /// Runs this statement (one that returns no rows) once, with the values `bind` gives, in the
    /// order of its parameters. A failure throws the `DatabaseError` GRDB would throw (the same
    /// extended result code, so a full disk or a busy store reads the same to the caller).
    func run(_ bind: (inout BoundValues) -> Void) throws {
        let handle = sqliteStatement
        sqlite3_reset(handle)
        var values = BoundValues(statement: handle)
        bind(&values)
        precondition(values.position == sqlite3_bind_parameter_count(handle), "\(values.position) values for \(sql)")
        var code = sqlite3_step(handle)
        while code == SQLITE_ROW { code = sqlite3_step(handle) }
        if code == SQLITE_DONE {
            sqlite3_reset(handle)
            return
        }
        let connection = sqlite3_db_handle(handle)
        let extended = sqlite3_extended_errcode(connection)
        let message = sqlite3_errmsg(connection).map { String(cString: $0) }
        sqlite3_reset(handle)
        throw DatabaseError(resultCode: ResultCode(rawValue: extended), message: message, sql: sql)
    }
}
