internal import CSQLite

/// The record-store operations on one SQLite connection, behind ``LedgerStore``. Every operation uses a cached statement and binds strings and values in place (no
/// copies): the bytes are bound, the statement is stepped and reset, all inside the closure that lends the bytes.
struct FileStore {
    let connection: Connection

    // MARK: Records

    func put(_ value: UnsafeRawBufferPointer, key: String, collection: String) throws(LedgerError) {
        try ensureTransaction()
        let statement = try connection.statement(.put)
        try withUTF8(collection, key) { collection, key in
            statement.bindText(collection, at: 1)
            statement.bindText(key, at: 2)
            statement.bindBlob(value, at: 3)
            return statement.runToCompletion()
        }.get()
    }

    func value(key: String, collection: String) throws(LedgerError) -> [UInt8]? {
        let statement = try connection.statement(.get)
        return try withUTF8(collection, key) { collection, key in
            statement.bindText(collection, at: 1)
            statement.bindText(key, at: 2)
            return statement.firstRow { $0.blob(0) }
        }.get()
    }

    func contains(key: String, collection: String) throws(LedgerError) -> Bool {
        let statement = try connection.statement(.contains)
        return try withUTF8(collection, key) { collection, key in
            statement.bindText(collection, at: 1)
            statement.bindText(key, at: 2)
            return statement.firstRow { _ in true }
        }.get() ?? false
    }

    func remove(key: String, collection: String) throws(LedgerError) -> Bool {
        try ensureTransaction()
        let statement = try connection.statement(.remove)
        try withUTF8(collection, key) { collection, key in
            statement.bindText(collection, at: 1)
            statement.bindText(key, at: 2)
            return statement.runToCompletion()
        }.get()
        return connection.changes > 0
    }

    func removeAll(collection: String) throws(LedgerError) -> Int {
        try ensureTransaction()
        let statement = try connection.statement(.removeAll)
        try withUTF8(collection) { collection in
            statement.bindText(collection, at: 1)
            return statement.runToCompletion()
        }.get()
        return connection.changes
    }

    func count(collection: String) throws(LedgerError) -> Int {
        let statement = try connection.statement(.count)
        return try withUTF8(collection) { collection in
            statement.bindText(collection, at: 1)
            return statement.firstRow { Int($0.int64(0)) }
        }.get() ?? 0
    }

    func all(collection: String, order: LedgerOrder) throws(LedgerError) -> [LedgerRecord] {
        let statement = try connection.statement(order == .key ? .allByKey : .allByInsertion)
        return try withUTF8(collection) { collection in
            statement.bindText(collection, at: 1)
            return statement.allRows { LedgerRecord(key: $0.text(0), value: $0.blob(1)) }
        }.get()
    }

    func forEach(
        collection: String, order: LedgerOrder, _ body: (String, [UInt8]) throws -> Void
    ) throws {
        let statement = try connection.statement(order == .key ? .allByKey : .allByInsertion)
        var copy = collection
        try copy.withUTF8 { collection in
            statement.bindText(collection, at: 1)
            defer { statement.reset() }
            while try statement.step() {
                try body(statement.text(0), statement.blob(1))
            }
        }
    }

    func forEachValueByScan(collection: String, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        let statement = try connection.statement(.valuesByScan)
        var copy = collection
        try copy.withUTF8 { collection in
            statement.bindText(collection, at: 1)
            defer { statement.reset() }
            while try statement.step() {
                try statement.withBlob(0, body)
            }
        }
    }

    func collections() throws(LedgerError) -> [String] {
        let statement = try connection.statement(.collections)
        defer { statement.reset() }
        var names: [String] = []
        while try statement.step() { names.append(statement.text(0)) }
        return names
    }

    // MARK: Meta

    func setMeta(key: String, bind: (Statement) -> Void) throws(LedgerError) {
        try ensureTransaction()
        let statement = try connection.statement(.metaSet)
        try withUTF8(key) { key in
            statement.bindText(key, at: 1)
            bind(statement)
            return statement.runToCompletion()
        }.get()
    }

    func meta<T>(key: String, type: Int32, read: (Statement) -> T) throws(LedgerError) -> T? {
        let statement = try connection.statement(.metaGet)
        let found = try withUTF8(key) { (key) -> Result<(storedType: Int32, value: T?)?, LedgerError> in
            statement.bindText(key, at: 1)
            return statement.firstRow { (row) -> (storedType: Int32, value: T?) in
                let stored = row.columnType(0)
                return (stored, stored == type ? read(row) : nil)
            }
        }.get()
        guard let found else { return nil }
        guard let value = found.value else {
            throw typeMismatch(key: key, stored: found.storedType, requested: type)
        }
        return value
    }

    func metaType(key: String) throws(LedgerError) -> Int32? {
        let statement = try connection.statement(.metaGet)
        return try withUTF8(key) { key in
            statement.bindText(key, at: 1)
            return statement.firstRow { $0.columnType(0) }
        }.get()
    }

    func removeMeta(key: String) throws(LedgerError) -> Bool {
        try ensureTransaction()
        let statement = try connection.statement(.metaRemove)
        try withUTF8(key) { key in
            statement.bindText(key, at: 1)
            return statement.runToCompletion()
        }.get()
        return connection.changes > 0
    }

    func incrementMeta(key: String, by delta: Int64) throws(LedgerError) -> Int64 {
        try ensureTransaction()
        let statement = try connection.statement(.metaIncrement)
        let result = try withUTF8(key) { (key) -> Result<(type: Int32, value: Int64)?, LedgerError> in
            statement.bindText(key, at: 1)
            statement.bind(delta, at: 2)
            return statement.firstRow { (row) -> (type: Int32, value: Int64) in (row.columnType(0), row.int64(0)) }
        }.get()
        guard let result else {
            // The upsert's WHERE clause refused to add to a value that is not an integer.
            let stored = try metaType(key: key) ?? SQLITE_NULL
            throw typeMismatch(key: key, stored: stored, requested: SQLITE_INTEGER)
        }
        guard result.type == SQLITE_INTEGER else {
            throw LedgerError(
                code: .typeMismatch, detail: "Meta counter '\(key)' overflowed a 64-bit integer in \(location).",
                path: connection.path)
        }
        return result.value
    }

    // MARK: Log

    func appendLog(_ payload: UnsafeRawBufferPointer, name: String) throws(LedgerError) -> Int64 {
        try ensureTransaction()
        let statement = try connection.statement(.logAppend)
        try withUTF8(name) { name in
            statement.bindText(name, at: 1)
            statement.bindBlob(payload, at: 2)
            return statement.runToCompletion()
        }.get()
        return connection.lastInsertRowID
    }

    func logEntries(name: String, after sequence: Int64, limit: Int) throws(LedgerError) -> [LedgerLogEntry] {
        let statement = try connection.statement(.logEntries)
        return try withUTF8(name) { name in
            statement.bindText(name, at: 1)
            statement.bind(sequence, at: 2)
            statement.bind(Int64(clamping: limit), at: 3)
            return statement.allRows { LedgerLogEntry(sequence: $0.int64(0), payload: $0.blob(1)) }
        }.get()
    }

    func lastLogSequence(name: String) throws(LedgerError) -> Int64? {
        let statement = try connection.statement(.logLast)
        return try withUTF8(name) { name in
            statement.bindText(name, at: 1)
            return statement.firstRow { $0.columnType(0) == SQLITE_NULL ? nil : $0.int64(0) }
        }.get() ?? nil
    }

    func logCount(name: String) throws(LedgerError) -> Int {
        let statement = try connection.statement(.logCount)
        return try withUTF8(name) { name in
            statement.bindText(name, at: 1)
            return statement.firstRow { Int($0.int64(0)) }
        }.get() ?? 0
    }

    func removeLogEntries(name: String, through sequence: Int64) throws(LedgerError) -> Int {
        try ensureTransaction()
        let statement = try connection.statement(.logRemoveThrough)
        try withUTF8(name) { name in
            statement.bindText(name, at: 1)
            statement.bind(sequence, at: 2)
            return statement.runToCompletion()
        }.get()
        return connection.changes
    }

    // MARK: Stamps

    func stamp(key: String, at seconds: Double) throws(LedgerError) -> Bool {
        try ensureTransaction()
        let statement = try connection.statement(.stampInsert)
        try withUTF8(key) { key in
            statement.bindText(key, at: 1)
            statement.bind(seconds, at: 2)
            return statement.runToCompletion()
        }.get()
        return connection.changes > 0
    }

    func stampTime(key: String) throws(LedgerError) -> Double? {
        let statement = try connection.statement(.stampGet)
        return try withUTF8(key) { key in
            statement.bindText(key, at: 1)
            return statement.firstRow { $0.double(0) }
        }.get()
    }

    // MARK: Internals

    /// Refuses to write outside a transaction. SQLite rolls a transaction back by itself after some errors (a full
    /// disk, an I/O error); if the body caught that error and went on, its next statements would otherwise run in
    /// autocommit mode and be applied one by one.
    private func ensureTransaction() throws(LedgerError) {
        guard connection.isInTransaction else {
            throw LedgerError(
                code: .transactionAborted,
                detail: "SQLite rolled back the transaction on \(location) after an earlier error; "
                    + "nothing of it was applied. Retry the whole write.",
                path: connection.path)
        }
    }

    private var location: String {
        connection.path.map { "'\($0)'" } ?? "the in-memory database"
    }

    private func typeMismatch(key: String, stored: Int32, requested: Int32) -> LedgerError {
        LedgerError(
            code: .typeMismatch,
            detail: "Meta value '\(key)' in \(location) is stored as \(Self.typeName(stored)), "
                + "not \(Self.typeName(requested)).",
            path: connection.path)
    }

    /// How errors name a meta value's type, by its SQLite type code (which a server database stores too).
    static func typeName(_ type: Int32) -> String {
        switch type {
        case SQLITE_INTEGER: "an integer"
        case SQLITE_FLOAT: "a double"
        case SQLITE_TEXT: "a string"
        case SQLITE_BLOB: "bytes"
        default: "null"
        }
    }
}

/// Calls `body` with the UTF-8 bytes of `a`, valid only during the call.
func withUTF8<R>(_ a: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    var a = a
    return a.withUTF8 { body($0) }
}

/// Calls `body` with the UTF-8 bytes of `a` and `b`, valid only during the call.
func withUTF8<R>(_ a: String, _ b: String, _ body: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>) -> R) -> R {
    var a = a
    var b = b
    return a.withUTF8 { a in b.withUTF8 { b in body(a, b) } }
}

/// Calls `body` with the bytes of `value`, in place when the sequence is contiguous (arrays, `Data`, slices), or
/// after one copy otherwise.
func withBytes<Bytes: Sequence<UInt8>, R>(
    _ value: Bytes, _ body: (UnsafeRawBufferPointer) throws(LedgerError) -> R
) throws(LedgerError) -> R {
    let inPlace = value.withContiguousStorageIfAvailable { buffer in
        Result { () throws(LedgerError) -> R in try body(UnsafeRawBufferPointer(buffer)) }
    }
    if let inPlace { return try inPlace.get() }
    let copy = Array(value)
    return try copy.withUnsafeBufferPointer { buffer in
        Result { () throws(LedgerError) -> R in try body(UnsafeRawBufferPointer(buffer)) }
    }.get()
}
