internal import Foundation

#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Darwin)
    internal import Darwin
#endif

/// Opens a Ledger database file: checks it without modifying it, then configures it and brings its schema up to
/// date in one transaction.
///
/// Order matters for "refused files are not modified": the header is checked by reading bytes, then a read-only
/// connection (which cannot write the file) reads the identity, the schema version and runs `PRAGMA quick_check`, and
/// then runs the caller's check, if any (a store reading its own format version and data). Only then is a read-write
/// connection opened and switched to WAL (the first write to the file).
enum DatabaseOpener {
    /// What the identity pragmas say about a database.
    private enum Identity {
        /// No tables, no application id, version 0: a new (or empty) file to initialize.
        case new
        /// A Ledger database at this schema version (1 ... ``Schema/currentVersion``).
        case ledger(version: Int)
    }

    /// A caller's check of an existing file, run through the read-only connection before anything is written.
    typealias Check = (borrowing LedgerReadTransaction) throws -> Void

    /// Opens the file at `path` (absolute) and returns a ready connection.
    static func open(path: String, options: LedgerOptions) throws(LedgerError) -> Connection {
        do {
            return try open(path: path, options: options) { _ in }
        } catch let error as LedgerError {
            throw error
        } catch {
            // Without a caller's check, only LedgerError is thrown.
            throw LedgerError(code: .sqliteFailure, detail: "Opening '\(path)': \(error)", path: path)
        }
    }

    /// Opens the file at `path` (absolute) and returns a ready connection; `check`, if any, reads an existing
    /// database after Ledger's own checks and before the first write. What it throws is rethrown unchanged.
    static func open(path: String, options: LedgerOptions, check: Check) throws -> Connection {
        try FileInspection.checkCompanions(of: path)
        let kind = try FileInspection.inspect(path: path)
        if kind == .database {
            try validate(path: path, options: options, check: check)
        }
        if kind != .missing, access(path, W_OK) != 0 {
            // SQLite would open it read-only, create a -wal and -shm beside it to read it, and fail at the first
            // write: refuse it before, so that nothing appears beside it.
            throw LedgerError(
                code: .readOnly,
                detail: "'\(path)' cannot be written (\(String(cString: strerror(errno)))); it has not been modified. "
                    + "Make it writable (and its directory), or copy it to a writable place and open the copy.",
                path: path)
        }
        let connection = try Connection(path: path)
        connection.setBusyTimeout(milliseconds: options.busyTimeoutMilliseconds)
        _ = try identity(of: connection, path: path)  // refuse before the first write if the file changed meanwhile
        let mode = try connection.textColumn("PRAGMA journal_mode = WAL").first ?? ""
        guard mode.lowercased() == "wal" else {
            throw LedgerError(
                code: .cannotOpen,
                detail: "'\(path)' could not be switched to write-ahead logging (journal mode is '\(mode)'); "
                    + "use a local file system that supports shared memory.",
                path: path)
        }
        try connection.execute("PRAGMA synchronous = \(options.synchronous.pragmaValue)")
        try migrate(connection, path: path)
        return connection
    }

    /// Opens a private in-memory database with the current schema.
    static func openInMemory(options: LedgerOptions) throws(LedgerError) -> Connection {
        let connection = try Connection(path: nil)
        connection.setBusyTimeout(milliseconds: options.busyTimeoutMilliseconds)
        try migrate(connection, path: nil)
        return connection
    }

    /// Checks an existing file through a read-only connection: identity, schema version and integrity.
    ///
    /// Without a `-wal` file no other connection has the file open (SQLite creates it when opening a WAL database),
    /// and the file alone holds the whole database: it is read with `immutable=1`, so a refused file is left exactly
    /// as it was, with no `-wal` or `-shm` file created beside it. With a `-wal` and a `-shm` file, a read-only
    /// connection reads the file and its log with the `-shm` opened read-only too (`readonly_shm=1`): it can write
    /// none of the three. A `-wal` without a `-shm` (copied without it) cannot be read in place without SQLite
    /// creating a `-shm`, so the file and its `-wal` are copied to a private temporary directory and read there.
    ///
    /// Then `check` reads the database in one read transaction on that same connection.
    private static func validate(path: String, options: LedgerOptions, check: Check) throws {
        let logExists = FileManager.default.fileExists(atPath: path + "-wal")
        let indexExists = FileManager.default.fileExists(atPath: path + "-shm")
        var scratch: String?
        defer { if let scratch { try? FileManager.default.removeItem(atPath: scratch) } }
        var readPath = path
        if logExists && !indexExists {
            let directory = FileManager.default.temporaryDirectory.path + "/ledger-check-" + UUID().uuidString
            scratch = directory
            readPath = directory + "/" + URL(fileURLWithPath: path).lastPathComponent
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
                try FileManager.default.copyItem(atPath: path, toPath: readPath)
                try FileManager.default.copyItem(atPath: path + "-wal", toPath: readPath + "-wal")
            } catch {
                throw LedgerError(
                    code: .cannotOpen,
                    detail: "Cannot check '\(path)': it has a write-ahead log '\(path)-wal' but no '\(path)-shm', and "
                        + "copying them to '\(directory)' to read them without creating a -shm failed: \(error). "
                        + "The file has not been modified.",
                    path: path)
            }
        }
        let connection = try Connection(
            path: readPath, readOnly: true, immutable: !logExists, readOnlySharedMemory: indexExists,
            reportedPath: path)
        connection.setBusyTimeout(milliseconds: options.busyTimeoutMilliseconds)
        _ = try identity(of: connection, path: path)
        if options.checksIntegrityOnOpen {
            let report = try connection.textColumn("PRAGMA quick_check(20)")
            guard report == ["ok"] else {
                throw FileInspection.corrupt(path, "PRAGMA quick_check reports: " + report.joined(separator: "; "))
            }
        }
        try connection.run(.beginDeferred)
        defer { try? connection.run(.commit) }
        try check(LedgerReadTransaction(store: .file(FileStore(connection: connection))))
    }

    /// Reads the application id, schema version and table count, and refuses files that are not Ledger databases
    /// or were written by a newer release.
    private static func identity(of connection: Connection, path: String?) throws(LedgerError) -> Identity {
        let applicationID = try connection.integer("PRAGMA application_id")
        let version = try connection.integer("PRAGMA user_version")
        let objects = try connection.integer("SELECT count(*) FROM sqlite_schema")
        let name = path.map { "'\($0)'" } ?? "The in-memory database"
        if applicationID == 0 && version == 0 && objects == 0 { return .new }
        guard applicationID == Schema.applicationID else {
            throw LedgerError(
                code: .notALedger,
                detail: "\(name) is an SQLite database but not a Ledger database (application_id \(applicationID), "
                    + "user_version \(version), \(objects) schema objects). Check the path; the file has not been "
                    + "modified.",
                path: path)
        }
        guard version <= Schema.currentVersion else {
            throw LedgerError(
                code: .newerSchema,
                detail: "\(name) has schema version \(version), written by a newer release; this release reads "
                    + "schema versions 1 to \(Schema.currentVersion). The file has not been modified: open it with "
                    + "the newer release, or use another path.",
                path: path)
        }
        guard version >= 1 else {
            throw FileInspection.corrupt(
                path ?? ":memory:", "it is marked as a Ledger database but has no schema version")
        }
        return .ledger(version: Int(version))
    }

    /// Creates the schema of a new database, or migrates an older one to ``Schema/currentVersion``, in one
    /// transaction. On failure everything is rolled back and the file keeps its earlier version.
    private static func migrate(_ connection: Connection, path: String?) throws(LedgerError) {
        try connection.run(.beginImmediate)
        do throws(LedgerError) {
            var version: Int
            switch try identity(of: connection, path: path) {
            case .new:
                try connection.execute(Schema.version1, context: "Creating the schema")
                version = 1
            case .ledger(let existing):
                version = existing
            }
            let start = version
            while version < Schema.currentVersion {
                do {
                    try connection.execute(
                        Schema.migrations[version - 1], context: "Migration step \(version) -> \(version + 1)")
                } catch {
                    throw LedgerError(
                        code: .migrationFailed,
                        detail: "Migrating \(path.map { "'\($0)'" } ?? "the in-memory database") from schema version "
                            + "\(start) to \(Schema.currentVersion) failed. \(error.detail) The migration was rolled "
                            + "back; the file still has schema version \(start).",
                        path: path, sqliteExtendedCode: error.sqliteExtendedCode)
                }
                version += 1
            }
            try checkTables(connection, version: version, path: path)
            try connection.run(.commit)
        } catch {
            if connection.isInTransaction { try? connection.run(.rollback) }
            throw error
        }
    }

    /// Refuses a Ledger database that lacks a table its version must have.
    private static func checkTables(_ connection: Connection, version: Int, path: String?) throws(LedgerError) {
        let present = Set(try connection.textColumn("SELECT name FROM sqlite_schema WHERE type = 'table'"))
        let missing = Schema.tables(forVersion: version).subtracting(present).sorted()
        guard missing.isEmpty else {
            throw FileInspection.corrupt(
                path ?? ":memory:",
                "schema version \(version) requires the tables \(missing.joined(separator: ", ")), which are missing")
        }
    }
}
