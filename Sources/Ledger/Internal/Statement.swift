internal import CSQLite

/// A prepared SQLite statement: the sole owner of one `sqlite3_stmt`, finalized in `deinit`.
///
/// Not thread-safe: a statement is used only by the connection that prepared it, and a connection is used only while
/// the database's mutex is held.
final class Statement {
    /// The compiled statement (`sqlite3_stmt *`). Never leaves this type.
    private let handle: OpaquePointer
    /// The SQL text, kept for error messages.
    let sql: String
    /// The first failure of a `sqlite3_bind_*` call since the last reset, reported by the next step instead of
    /// running the statement with a missing parameter.
    private var bindFailure: Int32 = SQLITE_OK
    /// The file errors name when the connection reads a copy of it, `nil` otherwise (SQLite's own file name).
    private let reportedPath: String?

    /// Compiles `sql` on `connection`.
    init(connection: Connection, sql: String) throws(LedgerError) {
        var raw: OpaquePointer?
        let rc = sqlite3_prepare_v3(connection.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &raw, nil)
        guard rc == SQLITE_OK, let raw else {
            sqlite3_finalize(raw)
            throw connection.error(rc, "preparing \(sql)")
        }
        self.handle = raw
        self.sql = sql
        self.reportedPath = connection.readsCopy ? connection.path : nil
    }

    deinit { sqlite3_finalize(handle) }

    /// The connection the statement belongs to (`sqlite3 *`), used for error messages and change counts.
    var database: OpaquePointer { sqlite3_db_handle(handle) }

    // MARK: Binding

    /// Binds a 64-bit integer to the 1-based parameter `index`.
    func bind(_ value: Int64, at index: Int32) {
        record(sqlite3_bind_int64(handle, index, value))
    }

    /// Binds a double to the 1-based parameter `index`.
    func bind(_ value: Double, at index: Int32) {
        record(sqlite3_bind_double(handle, index, value))
    }

    /// Binds UTF-8 text without copying. The bytes must stay valid until ``reset()``.
    func bindText(_ utf8: UnsafeBufferPointer<UInt8>, at index: Int32) {
        guard let base = utf8.baseAddress, !utf8.isEmpty else {
            // A nil pointer would bind NULL; an empty string is a zero-length text value.
            record(sqlite3_bind_text(handle, index, "", 0, CSQLite_transient()))
            return
        }
        guard let count = Int32(exactly: utf8.count) else { return record(SQLITE_TOOBIG) }
        let text = UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self)
        record(sqlite3_bind_text(handle, index, text, count, CSQLite_static()))
    }

    /// Binds a blob without copying. The bytes must stay valid until ``reset()``.
    func bindBlob(_ bytes: UnsafeRawBufferPointer, at index: Int32) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else {
            // A nil pointer would bind NULL; an empty value is a zero-length blob.
            record(sqlite3_bind_zeroblob(handle, index, 0))
            return
        }
        guard let count = Int32(exactly: bytes.count) else { return record(SQLITE_TOOBIG) }
        record(sqlite3_bind_blob(handle, index, base, count, CSQLite_static()))
    }

    /// Remembers the first failed bind (for example `SQLITE_TOOBIG`) until the next reset.
    private func record(_ rc: Int32) {
        if rc != SQLITE_OK && bindFailure == SQLITE_OK { bindFailure = rc }
    }

    // MARK: Stepping

    /// Steps once, unless a bind failed: then returns that failure without running the statement.
    private func stepOnce() -> Int32 {
        bindFailure == SQLITE_OK ? sqlite3_step(handle) : bindFailure
    }

    /// The error for result code `rc` of this statement.
    private func failure(_ rc: Int32) -> LedgerError {
        // A failed bind may not have set the connection's message; only a failed step certainly did.
        LedgerError.sqlite(
            rc, database: database, context: sql, usesConnectionMessage: bindFailure == SQLITE_OK,
            reportedPath: reportedPath)
    }

    /// Runs the statement one step. Returns `true` when a row is available, `false` when the statement is done.
    func step() throws(LedgerError) -> Bool {
        let rc = stepOnce()
        if rc == SQLITE_ROW { return true }
        if rc == SQLITE_DONE { return false }
        throw failure(rc)
    }

    /// Makes the statement ready to run again and drops its parameter bindings (which may point at freed memory).
    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        bindFailure = SQLITE_OK
    }

    /// Whether the statement is part-way through its rows (stepped, not yet reset).
    var isBusy: Bool { sqlite3_stmt_busy(handle) != 0 }

    /// Steps a statement that returns no rows to completion, then resets it.
    func runToCompletion() -> Result<Void, LedgerError> {
        defer { reset() }
        let rc = stepOnce()
        if rc == SQLITE_DONE || rc == SQLITE_ROW { return .success(()) }
        return .failure(failure(rc))
    }

    /// Steps once and reads the first row with `read` (`nil` when there is none), then resets the statement.
    func firstRow<T>(_ read: (Statement) -> T) -> Result<T?, LedgerError> {
        defer { reset() }
        let rc = stepOnce()
        if rc == SQLITE_ROW { return .success(read(self)) }
        if rc == SQLITE_DONE { return .success(nil) }
        return .failure(failure(rc))
    }

    /// Reads every row with `read`, then resets the statement.
    func allRows<T>(_ read: (Statement) -> T) -> Result<[T], LedgerError> {
        defer { reset() }
        var rows: [T] = []
        while true {
            let rc = stepOnce()
            if rc == SQLITE_ROW {
                rows.append(read(self))
            } else if rc == SQLITE_DONE {
                return .success(rows)
            } else {
                return .failure(failure(rc))
            }
        }
    }

    // MARK: Columns

    /// The SQLite storage class of column `index` in the current row (`SQLITE_INTEGER`, `SQLITE_TEXT`, ...).
    func columnType(_ index: Int32) -> Int32 {
        sqlite3_column_type(handle, index)
    }

    /// Column `index` of the current row as an integer.
    func int64(_ index: Int32) -> Int64 {
        sqlite3_column_int64(handle, index)
    }

    /// Column `index` of the current row as a double.
    func double(_ index: Int32) -> Double {
        sqlite3_column_double(handle, index)
    }

    /// Column `index` of the current row as text.
    func text(_ index: Int32) -> String {
        guard let bytes = sqlite3_column_text(handle, index) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    /// Column `index` of the current row as bytes (one copy, into the returned array).
    /// Calls `body` with the bytes of a blob column in place, valid only during the call (until the next step).
    func withBlob<R>(_ index: Int32, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        let pointer = sqlite3_column_blob(handle, index)
        let count = Int(sqlite3_column_bytes(handle, index))
        guard let pointer, count > 0 else { return try body(UnsafeRawBufferPointer(start: nil, count: 0)) }
        return try body(UnsafeRawBufferPointer(start: pointer, count: count))
    }

    func blob(_ index: Int32) -> [UInt8] {
        let pointer = sqlite3_column_blob(handle, index)
        let count = Int(sqlite3_column_bytes(handle, index))
        guard let pointer, count > 0 else { return [] }
        return [UInt8](UnsafeRawBufferPointer(start: pointer, count: count))
    }
}
