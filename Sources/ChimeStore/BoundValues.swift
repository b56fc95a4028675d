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
    /// Texts, bound once all values are given, by pointers into their strings' own storage: a
    /// copy made by SQLite (SQLITE_TRANSIENT) cost a malloc, a copy and a free per text, about
    /// 600 instructions, of the 15 an item row binds. Kept on the stack, one slot per parameter
    /// (an array per row was a malloc, a free and a generic destroy: 4 % of an import's storing
    /// thread).
    fileprivate let texts: UnsafeMutableBufferPointer<(position: Int32, text: String)>
    fileprivate var textCount = 0

    mutating func bind(_ value: String?) {
        position += 1
        guard let value else {
            sqlite3_bind_null(statement, position)
            return
        }
        precondition(textCount < texts.count, "more values than the statement's parameters")
        (texts.baseAddress! + textCount).initialize(to: (position, value))
        textCount += 1
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
        let parameters = sqlite3_bind_parameter_count(handle)
        let failure = withUnsafeTemporaryAllocation(of: (position: Int32, text: String).self, capacity: Int(parameters)) { slots in
            var values = BoundValues(statement: handle, texts: slots)
            bind(&values)
            let texts = UnsafeMutableBufferPointer(rebasing: slots[..<values.textCount])
            defer { texts.deinitialize() }
            precondition(values.position == parameters, "\(values.position) values for \(sql)")
            return Self.stepBinding(UnsafeBufferPointer(texts)[...], to: handle)
        }
        if let failure {
            throw DatabaseError(resultCode: ResultCode(rawValue: failure.code), message: failure.message, sql: sql)
        }
    }

    /// Binds each text without a copy (SQLITE_STATIC, nil), then runs the statement to its end,
    /// resets it and unbinds every value while each text's bytes are still lent to it: a string's
    /// bytes are only guaranteed inside `withUTF8`. Nil when it ran to its end; else the extended
    /// result code and message, read before the reset.
    private static func stepBinding(
        _ texts: Slice<UnsafeBufferPointer<(position: Int32, text: String)>>, to handle: OpaquePointer
    ) -> (code: Int32, message: String?)? {
        guard let first = texts.first else {
            var code = sqlite3_step(handle)
            while code == SQLITE_ROW { code = sqlite3_step(handle) }
            var failure: (code: Int32, message: String?)?
            if code != SQLITE_DONE {
                let connection = sqlite3_db_handle(handle)
                failure = (sqlite3_extended_errcode(connection), sqlite3_errmsg(connection).map { String(cString: $0) })
            }
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
            return failure
        }
        var text = first.text
        return text.withUTF8 { bytes in
            // An empty buffer may have no address, which SQLite would read as NULL: a static "" then.
            sqlite3_bind_text(handle, first.position, bytes.baseAddress ?? ("" as StaticString).utf8Start, Int32(bytes.count), nil)
            return stepBinding(texts.dropFirst(), to: handle)
        }
    }
}
