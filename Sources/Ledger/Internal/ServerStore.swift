#if Postgres
    internal import CSQLite

    /// The record-store operations on one PostgreSQL connection, behind ``LedgerStore``: the same semantics as
    /// ``FileStore``, on the `ledger_*` tables (``ServerSchema``).
    struct ServerStore {
        let connection: ServerConnection

        /// Rows fetched at a time by ``forEach(collection:order:_:)`` and ``forEachValueByScan(collection:_:)``.
        static let batchSize = 1000

        // MARK: Records

        func put(_ value: UnsafeRawBufferPointer, key: String, collection: String) throws(LedgerError) {
            try ensureTransaction()
            try withUTF8(collection, key) { collection, key in
                result { () throws(LedgerError) in
                    _ = try connection.execute(.put, [.text(collection), .text(key), .bytes(value)])
                }
            }.get()
        }

        func value(key: String, collection: String) throws(LedgerError) -> [UInt8]? {
            let rows = try query(.get, collection, key)
            return rows.rowCount == 0 ? nil : rows.bytes(0)
        }

        func contains(key: String, collection: String) throws(LedgerError) -> Bool {
            try query(.contains, collection, key).rowCount > 0
        }

        func remove(key: String, collection: String) throws(LedgerError) -> Bool {
            try ensureTransaction()
            return try query(.remove, collection, key).changes > 0
        }

        func removeAll(collection: String) throws(LedgerError) -> Int {
            try ensureTransaction()
            return try query(.removeAll, collection).changes
        }

        func count(collection: String) throws(LedgerError) -> Int {
            Int(try query(.count, collection).int64(0))
        }

        func all(collection: String, order: LedgerOrder) throws(LedgerError) -> [LedgerRecord] {
            let rows = try query(order == .key ? .allByKey : .allByInsertion, collection)
            return (0..<rows.rowCount).map { LedgerRecord(key: rows.text(0, row: $0), value: rows.bytes(1, row: $0)) }
        }

        func forEach(collection: String, order: LedgerOrder, _ body: (String, [UInt8]) throws -> Void) throws {
            let statement: ServerSQL = order == .key ? .allByKey : .allByInsertion
            try withCursor(statement, collection) { rows in
                for row in 0..<rows.rowCount { try body(rows.text(0, row: row), rows.bytes(1, row: row)) }
            }
        }

        func forEachValueByScan(collection: String, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
            try withCursor(
                "SELECT value FROM ledger_records WHERE collection = $1::bytea", collection
            ) { rows in
                for row in 0..<rows.rowCount { try rows.withBytes(0, row: row, body) }
            }
        }

        func collections() throws(LedgerError) -> [String] {
            let rows = try connection.execute(.collections, [])
            return (0..<rows.rowCount).map { rows.text(0, row: $0) }
        }

        // MARK: Meta

        func setMeta(key: String, _ value: LedgerStore.MetaValue) throws(LedgerError) {
            try ensureTransaction()
            try withUTF8(key) { key in
                result { () throws(LedgerError) in
                    switch value {
                    case .integer(let integer):
                        _ = try connection.execute(.metaSetInteger, [.text(key), .integer(integer)])
                    case .double(let double): _ = try connection.execute(.metaSetDouble, [.text(key), .double(double)])
                    case .text(let text): _ = try connection.execute(.metaSetText, [.text(key), .text(text)])
                    case .bytes(let bytes): _ = try connection.execute(.metaSetBytes, [.text(key), .bytes(bytes)])
                    }
                }
            }.get()
        }

        /// The meta value under `key` read by `read` from its row and column, if it is stored as `type` (an SQLite
        /// type code, as the `kind` column holds).
        func meta<T>(key: String, type: Int32, read: (ServerResult, Int32) -> T) throws(LedgerError) -> T? {
            let rows = try query(.metaGet, key)
            guard rows.rowCount > 0 else { return nil }
            let stored = Int32(rows.int64(0))
            let column: Int32? =
                switch stored {
                case SQLITE_INTEGER: 1
                case SQLITE_FLOAT: 2
                case SQLITE_TEXT, SQLITE_BLOB: 3
                default: nil
                }
            // A row altered by hand: a kind Ledger never writes, or no value in the column of its kind.
            guard let column, !rows.isNull(column) else {
                throw LedgerError(
                    code: .corrupt,
                    detail: "Row '\(key)' of ledger_meta in '\(connection.location)' has kind \(stored) "
                        + (column == nil ? "(no meta value type)" : "and no value in the column of that kind")
                        + ": the database was damaged or altered by hand. It has not been modified by this read.",
                    path: connection.location)
            }
            guard stored == type else { throw typeMismatch(key: key, stored: stored, requested: type) }
            return read(rows, column)
        }

        func removeMeta(key: String) throws(LedgerError) -> Bool {
            try ensureTransaction()
            return try query(.metaRemove, key).changes > 0
        }

        func incrementMeta(key: String, by delta: Int64) throws(LedgerError) -> Int64 {
            try ensureTransaction()
            let rows = try withUTF8(key) { key in
                result { () throws(LedgerError) in
                    try connection.execute(.metaIncrement, [.text(key), .integer(delta)])
                }
            }.get()
            if rows.rowCount > 0 { return rows.int64(0) }
            // The upsert refused to add to a value that is not an integer, or to overflow one.
            // Reading it reports a value of another type, or a damaged row, as such.
            _ = try meta(key: key, type: SQLITE_INTEGER) { $0.int64($1) }
            throw LedgerError(
                code: .typeMismatch,
                detail: "Meta counter '\(key)' in '\(connection.location)' would overflow a 64-bit integer; it keeps "
                    + "its value.",
                path: connection.location)
        }

        // MARK: Log

        func appendLog(_ payload: UnsafeRawBufferPointer, name: String) throws(LedgerError) -> Int64 {
            try ensureTransaction()
            return try withUTF8(name) { name in
                result { () throws(LedgerError) in
                    try connection.execute(.logAppend, [.text(name), .bytes(payload)]).int64(0)
                }
            }.get()
        }

        func logEntries(name: String, after sequence: Int64, limit: Int) throws(LedgerError) -> [LedgerLogEntry] {
            let rows = try withUTF8(name) { name in
                result { () throws(LedgerError) in
                    try connection.execute(
                        .logEntries, [.text(name), .integer(sequence), .integer(Int64(clamping: limit))])
                }
            }.get()
            return (0..<rows.rowCount).map {
                LedgerLogEntry(sequence: rows.int64(0, row: $0), payload: rows.bytes(1, row: $0))
            }
        }

        func lastLogSequence(name: String) throws(LedgerError) -> Int64? {
            let rows = try query(.logLast, name)
            return rows.isNull(0) ? nil : rows.int64(0)
        }

        func logCount(name: String) throws(LedgerError) -> Int {
            Int(try query(.logCount, name).int64(0))
        }

        func removeLogEntries(name: String, through sequence: Int64) throws(LedgerError) -> Int {
            try ensureTransaction()
            return try withUTF8(name) { name in
                result { () throws(LedgerError) in
                    try connection.execute(.logRemoveThrough, [.text(name), .integer(sequence)]).changes
                }
            }.get()
        }

        // MARK: Stamps

        func stamp(key: String, at seconds: Double) throws(LedgerError) -> Bool {
            try ensureTransaction()
            return try withUTF8(key) { key in
                result { () throws(LedgerError) in
                    try connection.execute(.stampInsert, [.text(key), .double(seconds)]).changes > 0
                }
            }.get()
        }

        func stampTime(key: String) throws(LedgerError) -> Double? {
            let rows = try query(.stampGet, key)
            return rows.rowCount == 0 ? nil : rows.double(0)
        }

        // MARK: Internals

        /// Runs `statement` with one or two text parameters.
        private func query(_ statement: ServerSQL, _ a: String) throws(LedgerError) -> ServerResult {
            try withUTF8(a) { a in
                result { () throws(LedgerError) in try connection.execute(statement, [.text(a)]) }
            }.get()
        }

        private func query(_ statement: ServerSQL, _ a: String, _ b: String) throws(LedgerError) -> ServerResult {
            try withUTF8(a, b) { a, b in
                result { () throws(LedgerError) in try connection.execute(statement, [.text(a), .text(b)]) }
            }.get()
        }

        /// Runs the query of `statement` through a cursor, calling `body` with each batch of rows, so that a large
        /// collection is never in memory at once. The cursor is closed when the iteration ends or throws.
        private func withCursor(
            _ statement: ServerSQL, _ collection: String, _ body: (ServerResult) throws -> Void
        ) throws {
            try withCursor(statement.text, collection, body)
        }

        private func withCursor(_ query: String, _ collection: String, _ body: (ServerResult) throws -> Void) throws {
            let cursor = connection.nextCursorName()
            try withUTF8(collection) { collection in
                result { () throws(LedgerError) in
                    _ = try connection.execute(
                        "DECLARE \(cursor) BINARY NO SCROLL CURSOR FOR \(query)", [.text(collection)])
                }
            }.get()
            defer { if connection.isInTransaction { _ = try? connection.execute("CLOSE \(cursor)") } }
            while true {
                let rows = try connection.execute("FETCH \(Self.batchSize) FROM \(cursor)", [])
                guard rows.rowCount > 0 else { return }
                try body(rows)
            }
        }

        /// Refuses to write outside a usable transaction: after an error PostgreSQL aborts the transaction, and a
        /// body that caught the error must not go on as if its earlier writes stood.
        private func ensureTransaction() throws(LedgerError) {
            guard connection.isInTransaction else {
                throw LedgerError(
                    code: .transactionAborted,
                    detail: "PostgreSQL aborted the transaction on '\(connection.location)' after an earlier error; "
                        + "nothing of it will be applied. Retry the whole write.",
                    path: connection.location)
            }
        }

        private func typeMismatch(key: String, stored: Int32, requested: Int32) -> LedgerError {
            LedgerError(
                code: .typeMismatch,
                detail: "Meta value '\(key)' in '\(connection.location)' is stored as \(FileStore.typeName(stored)), "
                    + "not \(FileStore.typeName(requested)).",
                path: connection.location)
        }
    }

    /// `body`'s value or error as a `Result`, to carry a typed error out of a non-throwing closure.
    private func result<T>(_ body: () throws(LedgerError) -> T) -> Result<T, LedgerError> {
        Result(catching: body)
    }
#endif
