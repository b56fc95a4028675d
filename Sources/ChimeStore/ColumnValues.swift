import GRDB

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

#if canImport(GRDBSQLite)
    import GRDBSQLite
#else
    import SQLite3
#endif

/// The columns of one row, read by position: a GRDB `Row`, or the current row of a statement
/// read straight from SQLite (``StatementColumns``), where a query decodes thousands of rows.
protocol ColumnValues {
    /// The column as text; nil for NULL.
    func text(_ index: Int) -> String?
    /// The column as an integer; nil for NULL.
    func int64(_ index: Int) -> Int64?
    /// The text's UTF-8 bytes, without a `String` made of them (nil for NULL), for values that
    /// are parsed, not kept: a stored date.
    func withText<T>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>?) throws(StoreError) -> T) throws(StoreError) -> T
}

extension Row: ColumnValues {
    func text(_ index: Int) -> String? { self[index] }
    func int64(_ index: Int) -> Int64? { self[index] }
    func withText<T>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>?) throws(StoreError) -> T) throws(StoreError) -> T {
        guard var text = text(index) else { return try body(nil) }
        // `withUTF8` rethrows untyped errors: the body's result is carried out as it is.
        let result = text.withUTF8 { bytes in Result { () throws(StoreError) in try body(bytes) } }
        return try result.get()
    }
}

/// The current row of a prepared statement that a GRDB cursor steps, read with SQLite's
/// column calls. GRDB's `Row` asks SQLite each column's type, then copies a text through
/// `strlen` and `String(cString:)`: for a year's 5,600 rows of 27 columns that was a fifth of
/// their decoding. Valid only while the cursor stands on the row. A column of another type is
/// read as SQLite converts it (where `Row` would stop the process): the store writes each
/// column with its one type.
///
/// ```swift
/// let statement = try db.cachedStatement(sql: "SELECT id, start FROM item")
/// let rows = try Row.fetchCursor(statement)
/// let columns = StatementColumns(statement)
/// while try rows.next() != nil { print(columns.text(0) ?? "") }
/// ```
struct StatementColumns: ColumnValues {
    private let statement: OpaquePointer

    init(_ statement: Statement) {
        self.statement = statement.sqliteStatement
    }

    func text(_ index: Int) -> String? {
        withBytes(index) { $0.map { String(decoding: $0, as: UTF8.self) } }
    }

    func int64(_ index: Int) -> Int64? {
        sqlite3_column_type(statement, Int32(index)) == SQLITE_NULL ? nil : sqlite3_column_int64(statement, Int32(index))
    }

    func withText<T>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>?) throws(StoreError) -> T) throws(StoreError) -> T {
        try withBytes(index, body)
    }

    /// Whether the column is a text of exactly these bytes (false for NULL), compared in place.
    func text(_ index: Int, is bytes: [UInt8]) -> Bool {
        withBytes(index) { column in
            guard let column, column.count == bytes.count else { return false }
            return column.isEmpty || bytes.withUnsafeBufferPointer { memcmp($0.baseAddress!, column.baseAddress!, column.count) == 0 }
        }
    }

    /// The column as a floating-point number; nil for NULL.
    func double(_ index: Int) -> Double? {
        sqlite3_column_type(statement, Int32(index)) == SQLITE_NULL ? nil : sqlite3_column_double(statement, Int32(index))
    }

    /// The text's UTF-8 bytes in place, nil for NULL.
    func withBytes<T, E>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>?) throws(E) -> T) throws(E) -> T {
        let column = Int32(index)
        // SQLite gives NULL for an SQL NULL (or when out of memory); an empty text has a pointer.
        guard let pointer = sqlite3_column_text(statement, column) else {
            return try body(sqlite3_column_type(statement, column) == SQLITE_NULL ? nil : UnsafeBufferPointer(start: nil, count: 0))
        }
        return try body(UnsafeBufferPointer(start: pointer, count: Int(sqlite3_column_bytes(statement, column))))
    }
}
