internal import CSQLite

/// An open SQLite connection: the sole owner of one `sqlite3` handle, closed in `deinit`, with a cache of the
/// prepared statements it has compiled (each compiled once, then reset and reused).
///
/// `@unchecked Sendable`: the connection itself is not thread-safe (it is opened with `SQLITE_OPEN_NOMUTEX`).
/// ``LedgerDatabase`` keeps it inside a `Mutex` and touches it, its statements and the transactions that wrap it only
/// while holding that mutex; transaction values are non-copyable and only borrowed by the body, so they cannot carry
/// the connection out of the locked region.
final class Connection: @unchecked Sendable {
    /// The connection (`sqlite3 *`). Never leaves the module.
    let handle: OpaquePointer
    /// The file name as reported in errors (`nil` for an in-memory database).
    let path: String?
    /// Whether the connection reads a copy of ``path`` (opened with a `reportedPath`).
    let readsCopy: Bool
    /// Cached statements, indexed by ``LedgerSQL/rawValue``.
    private var cache: [Statement?]

    /// Opens (and with `create`, creates) the database at `path`, or a private in-memory database when `path` is nil.
    /// - Parameters:
    ///   - path: The file to open, or `nil` for an in-memory database.
    ///   - readOnly: Open with `SQLITE_OPEN_READONLY`; such a connection can never write the file.
    ///   - immutable: Open read-only with `immutable=1`: SQLite takes no locks and creates no `-wal` or `-shm` file.
    ///     Only correct when no other connection has the file open (no `-wal` file exists).
    ///   - create: Create the file if it does not exist (ignored when read-only).
    ///   - readOnlySharedMemory: With `readOnly`, open the `-shm` file (SQLite's shared-memory index of the `-wal`)
    ///     read-only too (`readonly_shm=1`): the connection then neither creates a `-shm` file nor writes its read
    ///     marks into an existing one; when the index cannot be used it reads the `-wal` itself.
    ///   - reportedPath: The file named in errors, when `path` is a copy of it (default: `path`).
    init(
        path: String?, readOnly: Bool = false, immutable: Bool = false, create: Bool = true,
        readOnlySharedMemory: Bool = false, reportedPath: String? = nil
    ) throws(LedgerError) {
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        if readOnly || immutable {
            flags |= SQLITE_OPEN_READONLY
        } else {
            flags |= SQLITE_OPEN_READWRITE
            if create { flags |= SQLITE_OPEN_CREATE }
        }
        if path == nil { flags |= SQLITE_OPEN_MEMORY }
        var name = path ?? ":memory:"
        if let path, immutable {
            flags |= SQLITE_OPEN_URI
            name = "file:" + Self.uriEscaped(path) + "?immutable=1"
        } else if let path, readOnly, readOnlySharedMemory {
            flags |= SQLITE_OPEN_URI
            name = "file:" + Self.uriEscaped(path) + "?readonly_shm=1"
        }
        var raw: OpaquePointer?
        let rc = sqlite3_open_v2(name, &raw, flags, nil)
        guard rc == SQLITE_OK, let raw else {
            let error = LedgerError.sqlite(
                rc, database: raw, path: reportedPath ?? path, context: "Opening the database")
            sqlite3_close_v2(raw)  // sqlite3_open_v2 may allocate a handle even when it fails
            throw error
        }
        sqlite3_extended_result_codes(raw, 1)
        self.handle = raw
        self.path = reportedPath ?? path
        self.readsCopy = reportedPath != nil
        self.cache = Array(repeating: nil, count: LedgerSQL.allCases.count)
    }

    /// `path` with the characters that are special in an SQLite URI (`%`, `?`, `#`) percent-encoded.
    private static func uriEscaped(_ path: String) -> String {
        var escaped = ""
        for character in path.unicodeScalars {
            switch character {
            case "%": escaped += "%25"
            case "?": escaped += "%3F"
            case "#": escaped += "%23"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }

    deinit {
        cache.removeAll()  // finalize every statement before closing
        sqlite3_close_v2(handle)
    }

    /// An error for result code `rc`, naming this connection's file.
    func error(_ rc: Int32, _ context: String, file: String = #fileID, line: UInt = #line) -> LedgerError {
        LedgerError.sqlite(
            rc, database: handle, path: path, context: context, reportedPath: readsCopy ? path : nil, file: file,
            line: line)
    }

    /// The cached prepared statement for `sql`, compiled on first use. If the cached one is part-way through its
    /// rows (a nested iteration), a fresh statement is compiled for this use only.
    func statement(_ sql: LedgerSQL) throws(LedgerError) -> Statement {
        if let cached = cache[sql.rawValue] {
            return cached.isBusy ? try Statement(connection: self, sql: sql.text) : cached
        }
        let statement = try Statement(connection: self, sql: sql.text)
        cache[sql.rawValue] = statement
        return statement
    }

    /// Runs a cached statement that returns no rows.
    func run(_ sql: LedgerSQL) throws(LedgerError) {
        let statement = try statement(sql)
        defer { statement.reset() }
        _ = try statement.step()
    }

    /// Runs one or more SQL statements that return no rows (schema scripts, pragmas), without caching them.
    /// - Parameters:
    ///   - sql: The statements.
    ///   - context: What is being done, for the error message (default: the SQL text).
    func execute(_ sql: String, context: String? = nil) throws(LedgerError) {
        let rc = sqlite3_exec(handle, sql, nil, nil, nil)
        guard rc == SQLITE_OK else { throw error(rc, context ?? sql) }
    }

    /// Runs a one-off query and returns every row's first column as text (used for pragmas and checks).
    func textColumn(_ sql: String) throws(LedgerError) -> [String] {
        let statement = try Statement(connection: self, sql: sql)
        var rows: [String] = []
        while try statement.step() { rows.append(statement.text(0)) }
        return rows
    }

    /// Runs a one-off query and returns the first column of its first row as an integer (0 when there is no row).
    func integer(_ sql: String) throws(LedgerError) -> Int64 {
        let statement = try Statement(connection: self, sql: sql)
        return try statement.step() ? statement.int64(0) : 0
    }

    /// Whether a transaction is open on this connection.
    var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// Rows changed by the most recent INSERT, UPDATE or DELETE.
    var changes: Int { Int(sqlite3_changes(handle)) }

    /// The rowid of the most recent successful INSERT.
    var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Lowers the largest string or blob this connection accepts (SQLite's default is 1,000,000,000 bytes).
    func limitLength(to bytes: Int32) {
        sqlite3_limit(handle, SQLITE_LIMIT_LENGTH, bytes)
    }

    /// Sets the time SQLite retries a locked database before failing with `SQLITE_BUSY`.
    func setBusyTimeout(milliseconds: Int32) {
        sqlite3_busy_timeout(handle, milliseconds)
    }
}
