internal import CSQLite

extension LedgerError {
    /// Maps an SQLite result code to a ``LedgerError``. The code decides the ``Code``; SQLite's message text is only
    /// copied into ``detail`` for people to read.
    /// - Parameters:
    ///   - rc: The (extended) result code SQLite returned.
    ///   - database: The connection (`sqlite3 *`), for the message and the file name; may be `nil` if opening failed.
    ///   - path: The file name to report when `database` cannot say.
    ///   - context: What was being done, e.g. the SQL statement.
    ///   - usesConnectionMessage: Whether the connection's current message describes this failure.
    ///   - reportedPath: The file to name instead of the connection's, when the connection reads a copy of it.
    @inline(never)
    static func sqlite(
        _ rc: Int32, database: OpaquePointer?, path: String? = nil, context: String, usesConnectionMessage: Bool = true,
        reportedPath: String? = nil, file: String = #fileID, line: UInt = #line
    ) -> LedgerError {
        let code = Self.code(forSQLite: rc)
        var location = reportedPath ?? path
        if reportedPath == nil, let database, let name = sqlite3_db_filename(database, "main") {
            let text = String(cString: name)
            location = text.isEmpty ? nil : text
        }
        var message = String(cString: sqlite3_errstr(rc))
        if usesConnectionMessage, let database, let current = sqlite3_errmsg(database) {
            let text = String(cString: current)
            if text != message && text != "not an error" { message += ": " + text }
        }
        let place = location.map { "'\($0)'" } ?? "the in-memory database"
        let detail =
            "\(context) failed on \(place): \(message) (SQLite extended result code \(rc)). "
            + advice(for: code)
        return LedgerError(
            code: code, detail: detail, path: location, sqliteExtendedCode: Int(rc), file: file, line: line)
    }

    /// The stable code for an SQLite result code, decided by its primary code (the low 8 bits).
    static func code(forSQLite rc: Int32) -> Code {
        switch rc & 0xFF {
        case SQLITE_CORRUPT: return .corrupt
        case SQLITE_NOTADB: return .notADatabase
        case SQLITE_BUSY, SQLITE_LOCKED: return .busy
        case SQLITE_READONLY: return .readOnly
        case SQLITE_FULL: return .diskFull
        case SQLITE_IOERR: return .ioError
        case SQLITE_CANTOPEN, SQLITE_PERM, SQLITE_AUTH: return .cannotOpen
        default: return .sqliteFailure
        }
    }

    /// What the user should do about an error with this code.
    static func advice(for code: Code) -> String {
        switch code {
        case .corrupt:
            return "The database file is damaged; Ledger never resets or deletes it. Stop using it, move it aside "
                + "together with its '-wal' and '-shm' files (keep them for inspection), and restore the most recent "
                + "backup or start from a new path."
        case .notADatabase:
            return "The file is not an SQLite database; check the path. The file has not been modified."
        case .busy:
            return "Another connection or process holds the database lock; retry, or stop the other process."
        case .readOnly:
            return "Make the file and its directory writable (SQLite also writes '-wal' and '-shm' files beside it)."
        case .diskFull:
            return "Free disk space and retry; the failed transaction was not applied."
        case .ioError:
            return "Check the disk and file system; the failed transaction was not applied."
        case .cannotOpen:
            return "Check that the directory exists and that the file can be read and written."
        default:
            return "The failed transaction was not applied."
        }
    }
}
