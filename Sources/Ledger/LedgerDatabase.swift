internal import Foundation
internal import Synchronization

#if canImport(Glibc)
    internal import Glibc

    /// An identifier of the calling thread.
    private func currentThreadID() -> UInt { UInt(pthread_self()) }
#elseif canImport(Darwin)
    internal import Darwin

    /// An identifier of the calling thread.
    private func currentThreadID() -> UInt { UInt(bitPattern: pthread_self()) }
#endif

/// Durable state in one SQLite file, or in a schema of a PostgreSQL server: named collections of keyed byte values, a
/// meta key/value table, append-only logs and stamps, read and written in transactions.
///
/// ```swift
/// let db = try LedgerDatabase(path: "/var/lib/store/state.sqlite")
/// try db.write { txn in
///     try txn.put(try encoder.encode(transaction), forKey: transaction.id, in: "transactions")
///     try txn.setMeta(clock.now, forKey: "clock")
/// }
/// let pending = try db.read { txn in try txn.all(in: "transactions", order: .insertion) }
/// ```
///
/// **Durability.** ``write(_:)`` returns only after its transaction has committed; with
/// ``LedgerOptions/Synchronous/full`` (the default) the commit has been flushed to stable storage. A write that
/// returned survives `kill -9` (and, with `full`, power loss). A write that threw applied nothing. Many writes can
/// share one commit through a ``LedgerGroupCommitter``.
///
/// **Thread safety.** The class is `Sendable`. It owns one SQLite connection inside a `Mutex`: every read, write,
/// group write and flush holds the mutex for its whole duration, so transactions run one at a time, in the order the
/// callers obtained the mutex. That is the invariant that makes sharing the connection safe: the connection, its
/// cached statements and the transaction values handed to bodies are used only while the mutex is held, and the
/// transaction values are non-copyable and borrowed, so they cannot escape. Calls block the calling thread (including
/// the time of an `fsync`). A body that calls back into the same database gets ``LedgerError/Code/reentrantCall``
/// (use the transaction it was given instead).
///
/// **On a PostgreSQL server.** `init(url:options:)` opens a database kept in tables of a server's schema
/// (`postgresql://` URLs, built with the package trait `Postgres`), with the same API and semantics, and used by one
/// `LedgerDatabase` at a time across processes. docs/durable-state.md describes the differences (durability, sequence
/// gaps, the checks on open).
///
/// **Files.** Besides the database file SQLite keeps `<path>-wal` and `<path>-shm` beside it; copy or move all three
/// together. A damaged, truncated or foreign file, or one from a newer release, is refused with a ``LedgerError``
/// and never modified, reset or deleted.
public final class LedgerDatabase: Sendable {
    /// The schema version this release creates and migrates to.
    public static let currentSchemaVersion = Schema.currentVersion

    /// The absolute path of the database file, or `nil` for an in-memory database or one on a PostgreSQL server.
    public let path: String?
    /// Where the database is, safe to print: the absolute path of a file, the URL of a database on a PostgreSQL server
    /// with any password removed, or `in-memory` for an in-memory database.
    public let location: String
    /// The options the database was opened with.
    public let options: LedgerOptions

    private let state: Mutex<State>
    /// The thread holding `state`'s lock (0 when none), to turn a body's call back into the database into an error
    /// instead of a deadlock. Only compared with the caller's own thread id, which that thread always sees up to
    /// date, so relaxed ordering suffices.
    private let lockOwner = Atomic<UInt>(0)
    /// A copy of `State.pendingWrites`, written under the lock, readable without it.
    private let pendingCount = Atomic<Int>(0)

    /// A completion registered by a group write.
    typealias Completion = @Sendable (Result<Void, LedgerError>) -> Void

    /// Everything behind the mutex.
    struct State: Sendable {
        let connection: LedgerBackend
        /// Writes applied in the open group transaction and not yet committed.
        var pendingWrites = 0
        /// Their completions, in write order.
        var completions: [Completion] = []
    }

    /// Opens the database at `path`, creating it (with its directory's permissions) if it does not exist, and
    /// migrates an older schema to ``currentSchemaVersion``.
    ///
    /// An existing file is checked before anything is written: its header, its identity (`application_id`), its
    /// schema version and, unless turned off in `options`, `PRAGMA quick_check`. An existing empty file (0 bytes, as
    /// left by a process killed while creating the database) is initialized as a new database.
    /// - Parameters:
    ///   - path: The database file. Relative paths are resolved against the current directory, `.` and `..`
    ///     components are removed, and a symbolic link is the file it leads to (``path`` holds the result:
    ///     ``resolvedPath(of:)``). A link that leads to nothing is refused, and nothing is created.
    ///   - options: Durability and checks; the defaults are `synchronous=FULL`, a 5 s busy timeout and an integrity
    ///     check.
    /// - Throws: ``LedgerError`` with code ``LedgerError/Code/notADatabase``, ``LedgerError/Code/corrupt``,
    ///   ``LedgerError/Code/notALedger`` or ``LedgerError/Code/newerSchema`` for a file that is refused (it is left
    ///   untouched), ``LedgerError/Code/migrationFailed`` if a migration fails (it is rolled back), or
    ///   ``LedgerError/Code/cannotOpen``, ``LedgerError/Code/readOnly``, ``LedgerError/Code/busy`` and the like.
    public init(path: String, options: LedgerOptions = LedgerOptions()) throws(LedgerError) {
        let absolute = try Self.resolvedPath(of: path)
        let connection = try DatabaseOpener.open(path: absolute, options: options)
        self.path = absolute
        self.location = absolute
        self.options = options
        self.state = Mutex(State(connection: .file(connection)))
    }

    /// Opens the database at `path` as ``init(path:options:)`` does, letting the caller refuse an existing file
    /// before anything is written to it.
    ///
    /// When the file already holds a database, `check` runs after Ledger's own checks (header, identity, schema
    /// version, integrity) and before the first write (switching a rollback-journal file to WAL, a migration): in
    /// one read transaction on a read-only connection, which cannot change the file, its `-wal` or (without a
    /// `-wal`) create any file beside it. If `check` throws, the file is left exactly as it was and the error is
    /// rethrown unchanged. `check` is not called for a missing or empty file (a new database), so a caller learns
    /// from it not being called that there was nothing to read. It sees the file's own schema version, which may be
    /// older than ``currentSchemaVersion`` (records, meta and logs are in every version).
    /// - Parameters:
    ///   - path: The database file, as for ``init(path:options:)``.
    ///   - options: Durability and checks.
    ///   - check: Reads the existing database and throws to refuse it.
    /// - Throws: What `check` threw, unchanged, or a ``LedgerError`` as ``init(path:options:)`` does.
    public init(
        path: String, options: LedgerOptions = LedgerOptions(),
        checkingExisting check: (borrowing LedgerReadTransaction) throws -> Void
    ) throws {
        let absolute = try Self.resolvedPath(of: path)
        let connection = try DatabaseOpener.open(path: absolute, options: options, check: check)
        self.path = absolute
        self.location = absolute
        self.options = options
        self.state = Mutex(State(connection: .file(connection)))
    }

    /// The path a database given as `path` is opened at (``path`` holds it): resolved against the current directory,
    /// without `.` and `..` components, and with symbolic links resolved, so that a database reached through a link
    /// is the file the link points to, its `-wal` and `-shm` beside that file. A missing file keeps its name (in its
    /// directory's real path).
    /// - Throws: ``LedgerError/Code/cannotOpen`` when `path` is a symbolic link that leads to no file: opening it
    ///   would create a file wherever it points.
    public static func resolvedPath(of path: String) throws(LedgerError) -> String {
        let directory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        return try FileInspection.resolve(URL(fileURLWithPath: path, relativeTo: directory).standardizedFileURL.path)
    }

    /// A database on an open connection (a server's): `path` is `nil`, `location` what errors and users see.
    init(backend: LedgerBackend, location: String, options: LedgerOptions) {
        self.path = nil
        self.location = location
        self.options = options
        self.state = Mutex(State(connection: backend))
    }

    private init(inMemoryWith options: LedgerOptions) throws(LedgerError) {
        let connection = try DatabaseOpener.openInMemory(options: options)
        self.path = nil
        self.location = "in-memory"
        self.options = options
        self.state = Mutex(State(connection: .file(connection)))
    }

    /// Creates a private, empty in-memory database with the current schema (for tests; nothing is durable).
    /// - Parameter options: Options; only the busy timeout applies.
    /// - Throws: ``LedgerError`` if SQLite cannot create it.
    public static func inMemory(options: LedgerOptions = LedgerOptions()) throws(LedgerError) -> LedgerDatabase {
        try LedgerDatabase(inMemoryWith: options)
    }

    deinit {
        // Commit writes still pending in a group (they were never acknowledged, so this is a courtesy) and tell
        // their completions the outcome.
        let outcome = state.withLock { state in Self.commitGroup(&state) }
        try? outcome.finish()  // completions learn the result; deinit cannot throw
    }

    // MARK: Transactions

    /// Runs `body` in one write transaction and commits it.
    ///
    /// When `write` returns, the transaction is committed (durable per ``LedgerOptions/synchronous``). If `body`
    /// throws, or the commit fails, nothing of it is applied and the error is rethrown. If a group commit is
    /// pending (``LedgerGroupCommitter``), this write joins it and the whole group is committed now.
    /// - Parameter body: Reads and writes through the borrowed transaction; its result is returned.
    /// - Returns: What `body` returned.
    /// - Throws: Whatever `body` threw (unchanged), or a ``LedgerError``.
    public func write<R>(_ body: (borrowing LedgerWriteTransaction) throws -> R) throws -> R {
        var result: R?
        let outcome = try locked { state in
            Self.performWrite(&state) { transaction in result = try body(transaction) }
        }
        try outcome.finish()
        return result!  // set: finish() throws unless the body ran to completion
    }

    /// Runs `body` with a consistent read-only view of the database.
    ///
    /// If a group commit is pending, the view includes its writes (which are not yet durable).
    /// - Parameter body: Reads through the borrowed transaction; its result is returned.
    /// - Returns: What `body` returned.
    /// - Throws: Whatever `body` threw (unchanged), or a ``LedgerError``.
    public func read<R>(_ body: (borrowing LedgerReadTransaction) throws -> R) throws -> R {
        try checkNotReentrant()
        return try state.withLock { state in
            lockOwner.store(currentThreadID(), ordering: .relaxed)
            defer { lockOwner.store(0, ordering: .relaxed) }
            let connection = state.connection
            let transaction = LedgerReadTransaction(store: connection.store)
            if connection.isInTransaction { return try body(transaction) }
            try connection.run(.beginDeferred)
            defer { Self.endRead(connection) }
            return try body(transaction)
        }
    }

    // MARK: Group commit (used by LedgerGroupCommitter)

    /// Applies `body` in the open group transaction (opening one if needed); commits when `commitEvery` writes are
    /// pending.
    func groupWrite<R>(
        commitEvery: Int, completion: Completion?, _ body: (borrowing LedgerWriteTransaction) throws -> R
    ) throws -> R {
        var result: R?
        let outcome = try locked { state in
            Self.performGroupWrite(&state, commitEvery: commitEvery, completion: completion) { transaction in
                result = try body(transaction)
            }
        }
        try outcome.finish()
        return result!  // set: finish() throws unless the body ran to completion
    }

    /// Appends one log entry in the open group transaction (opening one if needed) without a savepoint: a single
    /// statement is atomic by itself. Commits when `commitEvery` writes are pending.
    func groupAppend(
        _ payload: UnsafeRawBufferPointer, to name: String, commitEvery: Int, completion: Completion?
    ) throws(LedgerError) -> Int64 {
        var sequence: Int64 = 0
        let outcome = try locked { state in
            Self.performGroupWrite(&state, commitEvery: commitEvery, completion: completion, savepoint: false) {
                transaction in
                sequence = try transaction.appendLogBytes(payload, to: name)
            }
        }
        for completion in outcome.completions { completion(outcome.groupResult) }
        if let error = outcome.error {
            // The body throws only LedgerError, and so do commits.
            throw error as? LedgerError ?? LedgerError(code: .sqliteFailure, detail: "\(error)", path: path ?? location)
        }
        return sequence
    }

    /// Commits the pending group, if any.
    func flushGroup() throws(LedgerError) {
        let outcome = try locked { state in Self.commitGroup(&state) }
        for completion in outcome.completions { completion(outcome.groupResult) }
        try outcome.groupResult.get()
    }

    /// The number of group writes applied but not yet committed.
    var pendingGroupWrites: Int { pendingCount.load(ordering: .relaxed) }

    /// Runs `body` with the SQLite connection, holding the mutex (for tests that need raw SQL). A database on a
    /// server has none: `body` is then not called and this throws.
    func withConnection<R: Sendable>(_ body: (Connection) throws(LedgerError) -> R) throws(LedgerError) -> R {
        try checkNotReentrant()
        return try state.withLock { (state) throws(LedgerError) -> R in
            guard case .file(let connection) = state.connection else {
                throw LedgerError(code: .cannotOpen, detail: "\(location) is not an SQLite database.", path: location)
            }
            return try body(connection)
        }
    }

    /// The connection, read holding the mutex (for tests that inspect it).
    var backend: LedgerBackend { state.withLock { $0.connection } }

    /// Runs `work` holding the lock, after checking that this thread does not hold it already.
    private func locked(_ work: (inout State) -> Outcome) throws(LedgerError) -> Outcome {
        try checkNotReentrant()
        return state.withLock { state in
            lockOwner.store(currentThreadID(), ordering: .relaxed)
            defer {
                pendingCount.store(state.pendingWrites, ordering: .relaxed)
                lockOwner.store(0, ordering: .relaxed)
            }
            return work(&state)
        }
    }

    /// Throws instead of deadlocking when a body calls back into the database it runs in.
    private func checkNotReentrant() throws(LedgerError) {
        guard lockOwner.load(ordering: .relaxed) == currentThreadID() else { return }
        throw LedgerError(
            code: .reentrantCall,
            detail:
                "A transaction body on \(path == nil ? "the in-memory database" : "'\(location)'") called back into the same database (read, write, "
                + "group write or flush). Use the transaction passed to the body instead.",
            path: path ?? (location == "in-memory" ? nil : location))
    }

    // MARK: Internals (called with the mutex held)

    /// What a write did under the mutex; ``finish()`` completes it once the mutex is released. Not generic, so that
    /// the locked section needs no per-call type metadata.
    struct Outcome: Sendable {
        /// The error to throw (from the body or from SQLite), if any.
        var error: (any Error)?
        /// Completions of group writes whose fate was decided, in write order.
        var completions: [Completion] = []
        /// What to tell them.
        var groupResult: Result<Void, LedgerError> = .success(())

        init(
            error: (any Error)? = nil, completions: [Completion] = [],
            groupResult: Result<Void, LedgerError> = .success(())
        ) {
            self.error = error
            self.completions = completions
            self.groupResult = groupResult
        }

        /// Calls the completions, then throws the error if there is one.
        func finish() throws {
            for completion in completions { completion(groupResult) }
            if let error { throw error }
        }
    }

    /// A plain write: its own transaction, or (with a group pending) a savepoint in the group's transaction followed
    /// by a commit of the whole group.
    private static func performWrite(
        _ state: inout State, _ body: (borrowing LedgerWriteTransaction) throws -> Void
    ) -> Outcome {
        let connection = state.connection
        let transaction = LedgerWriteTransaction(store: connection.store)
        if state.pendingWrites > 0 {
            do {
                try connection.run(.savepoint)
            } catch {
                return Outcome(error: error)
            }
            do {
                try body(transaction)
            } catch {
                var outcome = rollbackSavepoint(&state)
                outcome.error = error
                return outcome
            }
            var outcome = commitGroup(&state)
            if case .failure(let error) = outcome.groupResult { outcome.error = error }
            return outcome
        }
        do {
            try connection.run(.beginImmediate)
        } catch {
            return Outcome(error: error)
        }
        do {
            try body(transaction)
        } catch {
            connection.rollback()
            return Outcome(error: error)
        }
        do {
            try commit(connection)
        } catch {
            return Outcome(error: error)
        }
        return Outcome()
    }

    /// A group write: applied in the open group transaction, committed with the group. Without `savepoint`, the body
    /// must be a single statement (atomic by itself): a later write of a group then runs without a savepoint around it.
    private static func performGroupWrite(
        _ state: inout State, commitEvery: Int, completion: Completion?, savepoint: Bool = true,
        _ body: (borrowing LedgerWriteTransaction) throws -> Void
    ) -> Outcome {
        let connection = state.connection
        let transaction = LedgerWriteTransaction(store: connection.store)
        let opensGroup = state.pendingWrites == 0
        do {
            // The first write of a group runs in the group's transaction itself (if it throws, the whole
            // transaction is rolled back, which holds nothing else); later ones in a savepoint, so that a
            // throwing body undoes only its own changes.
            if opensGroup || savepoint { try connection.run(opensGroup ? .beginImmediate : .savepoint) }
        } catch {
            return Outcome(error: error)
        }
        do {
            try body(transaction)
        } catch {
            guard !opensGroup else {
                connection.rollback()
                return Outcome(error: error)
            }
            guard savepoint else {
                // A single statement that failed was undone by SQLite itself; the group stays pending, unless SQLite
                // rolled the whole transaction back.
                guard !connection.isInTransaction else { return Outcome(error: error) }
                let pending = state.pendingWrites
                return Outcome(
                    error: error, completions: abandonGroup(&state),
                    groupResult: .failure(
                        LedgerError(
                            code: .transactionAborted,
                            detail: "\(connection.engine) rolled back the group transaction on \(connection.place) "
                                + "after an error; none of its \(pending) pending writes was applied.",
                            path: connection.errorPath)))
            }
            var outcome = rollbackSavepoint(&state)
            outcome.error = error
            return outcome
        }
        guard connection.isInTransaction else {
            if !opensGroup && savepoint && connection.canRollBackToSavepoint {
                // PostgreSQL aborted the transaction after an error the body caught: its savepoint undoes this write
                // alone, and the group stays pending.
                var outcome = rollbackSavepoint(&state)
                outcome.error = LedgerError(
                    code: .transactionAborted,
                    detail: "\(connection.engine) aborted the write on \(connection.place) after an error that the "
                        + "write body caught; nothing of this write was applied. Retry the whole write.",
                    path: connection.errorPath)
                return outcome
            }
            // SQLite rolled the whole transaction back after an error the body caught (or PostgreSQL aborted it): the
            // group is lost.
            let pending = state.pendingWrites + 1
            let error = LedgerError(
                code: .transactionAborted,
                detail: "\(connection.engine) rolled back the group transaction on \(connection.place) after an "
                    + "error that the write body caught; none of its \(pending) pending writes was applied.",
                path: connection.errorPath)
            return Outcome(error: error, completions: abandonGroup(&state), groupResult: .failure(error))
        }
        if !opensGroup && savepoint {
            do {
                try connection.run(.releaseSavepoint)
            } catch {
                var outcome = rollbackSavepoint(&state)
                outcome.error = error
                return outcome
            }
        }
        state.pendingWrites += 1
        if let completion { state.completions.append(completion) }
        guard state.pendingWrites >= commitEvery else { return Outcome() }
        var outcome = commitGroup(&state)
        if case .failure(let error) = outcome.groupResult { outcome.error = error }
        return outcome
    }

    /// Undoes the changes made since the last `SAVEPOINT` and leaves the savepoint; the group stays pending. If
    /// SQLite already rolled the whole transaction back, the group is lost and its completions are failed.
    private static func rollbackSavepoint(_ state: inout State) -> Outcome {
        let connection = state.connection
        if connection.canRollBackToSavepoint,
            (try? connection.run(.rollbackToSavepoint)) != nil,
            (try? connection.run(.releaseSavepoint)) != nil
        {
            return Outcome()
        }
        // Could not undo just the savepoint: undo the whole group rather than commit half a write.
        let error = LedgerError(
            code: .transactionAborted,
            detail: "The group transaction on \(connection.place) had to be rolled back after a write body failed; "
                + "none of its pending writes was applied.",
            path: connection.errorPath)
        return Outcome(completions: abandonGroup(&state), groupResult: .failure(error))
    }

    /// Rolls back the open group transaction and hands back the completions of the lost writes.
    private static func abandonGroup(_ state: inout State) -> [Completion] {
        state.connection.rollback()
        let completions = state.completions
        state.completions = []
        state.pendingWrites = 0
        return completions
    }

    /// Commits the open group transaction and hands back its completions and the outcome. Does nothing when no
    /// group is pending.
    private static func commitGroup(_ state: inout State) -> Outcome {
        guard state.pendingWrites > 0 else { return Outcome() }
        let completions = state.completions
        state.completions = []
        state.pendingWrites = 0
        do {
            try commit(state.connection)
            return Outcome(completions: completions)
        } catch {
            return Outcome(completions: completions, groupResult: .failure(error))
        }
    }

    /// Commits; on failure rolls back whatever is left so that no half-finished transaction stays open.
    private static func commit(_ connection: LedgerBackend) throws(LedgerError) {
        guard connection.isInTransaction else {
            connection.rollback()  // an aborted PostgreSQL transaction stays open until rolled back
            throw LedgerError(
                code: .transactionAborted,
                detail: "\(connection.engine) rolled back the transaction on \(connection.place) after an error that "
                    + "the write body caught; nothing of it was applied.",
                path: connection.errorPath)
        }
        do {
            try connection.run(.commit)
        } catch {
            connection.rollback()
            throw error
        }
    }

    private static func endRead(_ connection: LedgerBackend) {
        if !connection.isInTransaction || (try? connection.run(.commit)) == nil { connection.rollback() }
    }
}
