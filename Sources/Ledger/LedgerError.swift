/// The one error type of the Ledger module.
///
/// Compare errors by ``code`` (``Code`` values have stable numbers that are never reused); ``detail`` is a
/// human-readable explanation that names the file (or the server URL, without its password), the SQLite extended result
/// code or PostgreSQL SQLSTATE when there is one, and what to do.
/// Its wording may change between releases. Two errors are equal when their codes are equal, so tests can write
/// `#expect(throws: LedgerError(code: .corrupt)) { ... }`.
public struct LedgerError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A stable error code. New codes may be added; existing numbers never change meaning and are never reused.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        fileprivate enum Backing: Int {
            case cannotOpen = 1
            case notADatabase = 2
            case corrupt = 3
            case newerSchema = 4
            case notALedger = 5
            case migrationFailed = 6
            case busy = 7
            case readOnly = 8
            case diskFull = 9
            case ioError = 10
            case typeMismatch = 11
            case transactionAborted = 12
            case sqliteFailure = 13
            case reentrantCall = 14
            case inUse = 15
            case serverFailure = 16
        }

        private let backing: Backing

        fileprivate init(_ backing: Backing) { self.backing = backing }

        /// The stable number of this code.
        public var rawValue: Int { backing.rawValue }

        /// The code's name, e.g. `corrupt`.
        public var description: String { String(describing: backing) }

        /// 1: the file could not be opened or created (missing directory, permissions, a directory at the path).
        public static let cannotOpen = Code(.cannotOpen)
        /// 2: the file exists but is not an SQLite database at all (for example a text file). It was not modified.
        public static let notADatabase = Code(.notADatabase)
        /// 3: the database file is damaged or truncated: found by the header check, by `PRAGMA quick_check` on open,
        /// or by SQLite while reading or writing (`SQLITE_CORRUPT`). The file is never reset or deleted.
        public static let corrupt = Code(.corrupt)
        /// 4: the database was written by a newer release (its schema version is higher than this release knows).
        /// It was not modified.
        public static let newerSchema = Code(.newerSchema)
        /// 5: the file is an SQLite database but not a Ledger database (another application's file). It was not
        /// modified.
        public static let notALedger = Code(.notALedger)
        /// 6: migrating the schema to the current version failed; the migration was rolled back and the file keeps
        /// its earlier version.
        public static let migrationFailed = Code(.migrationFailed)
        /// 7: another connection held a lock for longer than the busy timeout (`SQLITE_BUSY`, `SQLITE_LOCKED`).
        public static let busy = Code(.busy)
        /// 8: the file or its directory is read-only (`SQLITE_READONLY`).
        public static let readOnly = Code(.readOnly)
        /// 9: the disk is full (`SQLITE_FULL`); the transaction was not applied.
        public static let diskFull = Code(.diskFull)
        /// 10: the operating system reported an I/O error (`SQLITE_IOERR`); the transaction was not applied.
        public static let ioError = Code(.ioError)
        /// 11: a meta value was read as a different type than it was stored with.
        public static let typeMismatch = Code(.typeMismatch)
        /// 12: SQLite rolled the transaction back after an earlier error (for example a full disk) that the body
        /// caught; nothing of the transaction was applied.
        public static let transactionAborted = Code(.transactionAborted)
        /// 13: any other SQLite failure; ``LedgerError/sqliteExtendedCode`` holds SQLite's extended result code.
        public static let sqliteFailure = Code(.sqliteFailure)
        /// 14: a transaction body called back into the database it runs in (``LedgerDatabase/read(_:)``,
        /// ``LedgerDatabase/write(_:)``, a group write or a flush); use the transaction passed to the body instead.
        public static let reentrantCall = Code(.reentrantCall)
        /// 15: the database on a PostgreSQL server is in use by another `LedgerDatabase` (in this process or
        /// another); a database on a server has one user at a time. The detail names the server process that holds
        /// it when the server says. It was not modified.
        public static let inUse = Code(.inUse)
        /// 16: any other failure reported by a PostgreSQL server; the detail holds its SQLSTATE and message.
        public static let serverFailure = Code(.serverFailure)
    }

    /// What went wrong, as a stable code.
    public let code: Code
    /// A human-readable explanation naming the file, the SQLite extended result code if any, and what to do.
    /// Not stable: do not match on it.
    public let detail: String
    /// The database file concerned, the URL of a database on a PostgreSQL server (without its password), or `nil` for
    /// an in-memory database.
    public let path: String?
    /// SQLite's extended result code (for example 11 `SQLITE_CORRUPT`, 2067 `SQLITE_CONSTRAINT_UNIQUE`), if SQLite
    /// reported the failure.
    public let sqliteExtendedCode: Int?
    /// The source file (`#fileID`) that raised the error.
    public let file: String
    /// The source line that raised the error.
    public let line: UInt

    /// Creates an error. Tests use `LedgerError(code:)` to compare against thrown errors.
    /// - Parameters:
    ///   - code: The stable code.
    ///   - detail: A human-readable explanation.
    ///   - path: The database file concerned, if any.
    ///   - sqliteExtendedCode: SQLite's extended result code, if SQLite reported the failure.
    ///   - file: The source file that raised the error.
    ///   - line: The source line that raised the error.
    public init(
        code: Code, detail: String = "", path: String? = nil, sqliteExtendedCode: Int? = nil,
        file: String = #fileID, line: UInt = #line
    ) {
        self.code = code
        self.detail = detail
        self.path = path
        self.sqliteExtendedCode = sqliteExtendedCode
        self.file = file
        self.line = line
    }

    /// `LedgerError.<code> (<number>): <detail>`.
    public var description: String {
        "LedgerError.\(code) (\(code.rawValue)): \(detail)"
    }

    /// Errors are equal when their codes are equal.
    public static func == (lhs: LedgerError, rhs: LedgerError) -> Bool {
        lhs.code == rhs.code
    }

    /// Hashes the code only, consistent with `==`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
    }
}
