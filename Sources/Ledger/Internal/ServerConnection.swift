#if Postgres
    internal import CLibPQ

    #if canImport(Glibc)
        internal import Glibc
    #elseif canImport(Darwin)
        internal import Darwin
    #endif

    /// An open connection to a PostgreSQL server through libpq: the sole owner of one `PGconn`, closed in `deinit`
    /// (which also releases the session's advisory lock, ``ServerOpener``'s "one user at a time"), with the hot
    /// statements prepared once each.
    ///
    /// `@unchecked Sendable` for the same reason as ``Connection``: ``LedgerDatabase`` uses it only while holding its
    /// mutex. Parameters go in binary format and results come back in binary format, so bytes are never escaped.
    final class ServerConnection: @unchecked Sendable {
        /// The connection (`PGconn *`). Never leaves the module.
        private let handle: OpaquePointer
        /// The URL without its password, as errors name it.
        let location: String
        /// Strings that must never appear in a message (the password, as written in the URL).
        private let secrets: [String]
        /// Which of ``ServerSQL``'s statements are prepared on this connection.
        private var prepared: [Bool]
        /// Cursors declared so far, to name each one differently.
        private var cursors = 0

        /// A value bound to a statement parameter, borrowed for the duration of the call.
        enum Parameter {
            case text(UnsafeBufferPointer<UInt8>)
            case bytes(UnsafeRawBufferPointer)
            case integer(Int64)
            case double(Double)
        }

        /// Connects to the server `url` names. `connect_timeout` (10 s) and `application_name` (`openstorekit`)
        /// apply unless the URL sets them.
        init(url: String) throws(LedgerError) {
            location = LedgerDatabase.location(ofServerURL: url)
            secrets = LedgerDatabase.passwords(in: url)
            prepared = Array(repeating: false, count: ServerSQL.allCases.count)
            // Key words are applied in order and the URL (expanded from `dbname`) comes last, so its own settings win.
            let keywords = ["connect_timeout", "fallback_application_name", "dbname"]
            let values = ["10", "openstorekit", url]
            let raw = withCStrings(keywords) { keywords in
                withCStrings(values) { values in PQconnectdbParams(keywords, values, 1) }
            }
            guard let raw else {
                throw LedgerError(
                    code: .cannotOpen, detail: "Cannot connect to '\(location)': libpq is out of memory.",
                    path: location)
            }
            guard PQstatus(raw) == CONNECTION_OK else {
                let message = Self.clean(String(cString: PQerrorMessage(raw)), hiding: secrets)
                PQfinish(raw)
                throw LedgerError(
                    code: .cannotOpen,
                    detail: "Cannot connect to the PostgreSQL server of '\(location)': \(message). Check that the "
                        + "server is running and reachable and that the URL's user, database and options are right.",
                    path: location)
            }
            handle = raw
            // Notices (for example "relation exists, skipping") are not errors; libpq would print them to stderr.
            PQsetNoticeProcessor(raw, { _, _ in }, nil)
        }

        deinit {
            // The server ends a session (and releases its advisory locks) only once its process has read the
            // disconnection, after PQfinish has returned: a database opened again at once could still find itself in
            // use. Releasing the locks first, and waiting for the answer, makes closing release them when it returns.
            if PQstatus(handle) == CONNECTION_OK {
                if PQtransactionStatus(handle) != PQTRANS_IDLE { PQclear(PQexec(handle, "ROLLBACK")) }
                PQclear(PQexec(handle, "SELECT pg_advisory_unlock_all()"))
            }
            PQfinish(handle)
        }

        /// The server process serving this connection.
        var backendPID: Int32 { PQbackendPID(handle) }

        /// Whether a transaction that can still be used is open (not one aborted by an error).
        var isInTransaction: Bool { PQtransactionStatus(handle) == PQTRANS_INTRANS }

        /// Whether a transaction is open, usable or aborted by an error (then only a rollback can end it).
        var hasTransaction: Bool {
            let status = PQtransactionStatus(handle)
            return status == PQTRANS_INTRANS || status == PQTRANS_INERROR
        }

        /// Runs a transaction verb.
        func run(_ verb: LedgerSQL) throws(LedgerError) {
            let sql =
                switch verb {
                case .beginImmediate: "BEGIN"
                case .beginDeferred: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"
                case .commit: "COMMIT"
                case .rollback: "ROLLBACK"
                case .savepoint: "SAVEPOINT ledger_write"
                case .releaseSavepoint: "RELEASE SAVEPOINT ledger_write"
                case .rollbackToSavepoint: "ROLLBACK TO SAVEPOINT ledger_write"
                default: verb.text
                }
            _ = try execute(sql)
        }

        /// Runs one or more SQL statements without parameters (simple protocol; the result of the last one, in text
        /// format).
        func execute(_ sql: String, context: String? = nil) throws(LedgerError) -> ServerResult {
            try check(PQexec(handle, sql), context ?? sql)
        }

        /// Runs one statement with parameters, results in binary format.
        func execute(_ sql: String, _ parameters: [Parameter]) throws(LedgerError) -> ServerResult {
            let result = withParameters(parameters) { count, values, lengths, formats in
                PQexecParams(handle, sql, count, nil, values, lengths, formats, 1)
            }
            return try check(result, sql)
        }

        /// Runs a prepared statement (preparing it on first use), results in binary format.
        func execute(_ statement: ServerSQL, _ parameters: [Parameter]) throws(LedgerError) -> ServerResult {
            let name = "ledger_\(statement)"
            if !prepared[statement.rawValue] {
                _ = try check(PQprepare(handle, name, statement.text, Int32(parameters.count), nil), statement.text)
                prepared[statement.rawValue] = true
            }
            let result = withParameters(parameters) { count, values, lengths, formats in
                PQexecPrepared(handle, name, count, values, lengths, formats, 1)
            }
            return try check(result, statement.text)
        }

        /// A name for a new cursor, unique on this connection.
        func nextCursorName() -> String {
            cursors += 1
            return "ledger_cursor_\(cursors)"
        }

        /// Wraps `result`, or throws the error it (or the connection) reports.
        private func check(_ result: OpaquePointer?, _ context: String) throws(LedgerError) -> ServerResult {
            guard let result else { throw failure(nil, context) }
            let status = PQresultStatus(result)
            guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
                let error = failure(result, context)
                PQclear(result)
                throw error
            }
            return ServerResult(result)
        }

        /// The error for a failed statement: the code from its SQLSTATE, the server's message in the detail.
        private func failure(_ result: OpaquePointer?, _ context: String) -> LedgerError {
            var state = ""
            var message = ""
            if let result {
                if let field = PQresultErrorField(result, CLibPQ_diagSQLState()) { state = String(cString: field) }
                if let field = PQresultErrorMessage(result) { message = String(cString: field) }
            }
            if message.isEmpty { message = String(cString: PQerrorMessage(handle)) }
            message = Self.clean(message, hiding: secrets)
            let lost = PQstatus(handle) != CONNECTION_OK
            let code: LedgerError.Code = lost ? .cannotOpen : LedgerError.code(forSQLState: state)
            var detail = "\(context) failed on '\(location)': \(message)"
            if !state.isEmpty { detail += " (SQLSTATE \(state))" }
            detail +=
                lost
                ? ". The connection to the server was lost; nothing uncommitted was applied. Open the database again."
                : ". " + LedgerError.serverAdvice(for: code)
            return LedgerError(code: code, detail: detail, path: location)
        }

        /// libpq's message on one line, without the password.
        private static func clean(_ message: String, hiding secrets: [String]) -> String {
            var text = message.split(whereSeparator: \.isNewline).map { $0.trimmingPrefix(" ") }.joined(separator: " ")
            for secret in secrets where !secret.isEmpty {
                while let range = text.firstRange(of: secret) { text.replaceSubrange(range, with: "***") }
            }
            while text.hasSuffix(".") || text.hasSuffix(" ") { text.removeLast() }
            return text
        }

        /// Calls `body` with libpq's parameter arrays for `parameters`: every value in binary format (integers and
        /// doubles big-endian), and a non-null pointer even for empty values (a null one would mean SQL NULL).
        private func withParameters<R>(
            _ parameters: [Parameter],
            _ body: (Int32, UnsafePointer<UnsafePointer<CChar>?>, UnsafePointer<Int32>, UnsafePointer<Int32>) -> R
        ) -> R {
            let numbers = parameters.map { parameter -> UInt64 in
                switch parameter {
                case .integer(let value): UInt64(bitPattern: value).bigEndian
                case .double(let value): value.bitPattern.bigEndian
                default: 0
                }
            }
            let empty: StaticString = ""
            return numbers.withUnsafeBufferPointer { numbers in
                var values: [UnsafePointer<CChar>?] = []
                var lengths: [Int32] = []
                values.reserveCapacity(parameters.count)
                lengths.reserveCapacity(parameters.count)
                for (index, parameter) in parameters.enumerated() {
                    let raw: UnsafeRawPointer?
                    let length: Int
                    switch parameter {
                    case .text(let text): (raw, length) = (text.baseAddress.map(UnsafeRawPointer.init), text.count)
                    case .bytes(let bytes): (raw, length) = (bytes.baseAddress, bytes.count)
                    case .integer, .double: (raw, length) = (UnsafeRawPointer(numbers.baseAddress! + index), 8)
                    }
                    let pointer = raw ?? UnsafeRawPointer(empty.utf8Start)
                    values.append(pointer.assumingMemoryBound(to: CChar.self))
                    lengths.append(Int32(clamping: length))
                }
                let formats = [Int32](repeating: 1, count: parameters.count)
                return body(Int32(parameters.count), values, lengths, formats)
            }
        }
    }

    /// Calls `body` with a C array of C strings for `strings`, ended by a null pointer.
    private func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
        let copies = strings.map { strdup($0) }
        defer { for copy in copies { free(copy) } }
        let pointers = copies.map { UnsafePointer($0) } + [nil]
        return body(pointers)
    }
#endif
