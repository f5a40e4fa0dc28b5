/// Group commit: many writes share one SQLite commit (and one `fsync`), while anything acknowledged stays durable.
///
/// Each ``write(_:whenDurable:)`` applies its body at once, atomically (a body that throws undoes only its own
/// changes), inside a transaction that stays open between calls. The transaction is committed when
/// ``commitEvery`` writes are pending, when ``flush()`` is called, when the database's own
/// ``LedgerDatabase/write(_:)`` runs (it joins the group), or when the database is deinitialized.
///
/// **What is acknowledged when.** A group write is *acknowledged* when the commit that contains it has succeeded:
/// its `whenDurable` completion is then called with `.success`, and ``write(_:whenDurable:)`` or ``flush()``
/// returns normally from the call that performed the commit. Everything acknowledged survives `kill -9` (and, with
/// ``LedgerOptions/Synchronous/full``, power loss). A write that is applied but not yet acknowledged may be lost by
/// a crash, entirely and never in part, and never after a later write was acknowledged (commits are in order). So:
/// report a write's effects to anyone outside the process (an observer callback, a network reply) only from its
/// completion or after a `flush()` that returned.
///
/// If a commit fails, every write pending in it is rolled back, each completion is called once with
/// `.failure(error)`, and the call that tried to commit throws the error. If a body throws, its write is undone and
/// its completion is never called. Completions run after the database's lock is released, on the thread that
/// performed the commit, in write order; they may use the database.
///
/// Reads through ``LedgerDatabase/read(_:)`` see pending writes. Between commits the group holds SQLite's write
/// lock, so other processes writing the same file wait (up to the busy timeout); group commit is meant for a
/// single writing process.
///
/// ```swift
/// let committer = LedgerGroupCommitter(database: db, commitEvery: 100)
/// for transaction in incoming {
///     try committer.write({ txn in try txn.put(try encoder.encode(transaction), forKey: transaction.id, in: "queue") },
///                         whenDurable: { result in if case .success = result { notify(transaction) } })
/// }
/// try committer.flush()
/// ```
public final class LedgerGroupCommitter: Sendable {
    /// The database written to.
    public let database: LedgerDatabase
    /// The number of pending writes that triggers a commit.
    public let commitEvery: Int

    /// Creates a group committer.
    /// - Parameters:
    ///   - database: The database to write to.
    ///   - commitEvery: Commit as soon as this many writes are pending (at least 1; 1 commits every write).
    public init(database: LedgerDatabase, commitEvery: Int) {
        precondition(commitEvery >= 1, "LedgerGroupCommitter needs commitEvery >= 1, got \(commitEvery)")
        self.database = database
        self.commitEvery = commitEvery
    }

    /// Applies `body` atomically in the pending group and commits the group if ``commitEvery`` writes are now
    /// pending.
    /// - Parameters:
    ///   - body: Reads and writes through the borrowed transaction; its result is returned.
    ///   - completion: Called once when the write is durable (`.success`) or was lost because its group's commit
    ///     failed (`.failure`); never called if `body` throws.
    /// - Returns: What `body` returned. Returning does not mean the write is durable, unless this call committed
    ///   the group (``pendingWrites`` is then 0).
    /// - Throws: Whatever `body` threw (its write is undone, the group stays pending), or a ``LedgerError`` (if it
    ///   came from a commit, the whole group was rolled back).
    @discardableResult
    public func write<R>(
        _ body: (borrowing LedgerWriteTransaction) throws -> R,
        whenDurable completion: (@Sendable (Result<Void, LedgerError>) -> Void)? = nil
    ) throws -> R {
        try database.groupWrite(commitEvery: commitEvery, completion: completion, body)
    }

    /// Appends one entry to the log `name` in the pending group and commits the group if ``commitEvery`` writes are
    /// now pending.
    ///
    /// The same as `write({ txn in try txn.appendLog(payload, to: name) }, whenDurable: completion)`, without the
    /// savepoint that makes a write of several statements atomic on its own: a single insert is atomic by itself.
    /// That saves about a third of the cost of a small group write.
    /// - Parameters:
    ///   - payload: The bytes to append; contiguous sequences are bound without a copy.
    ///   - name: The log.
    ///   - completion: Called once when the entry is durable or was lost with its group, as for
    ///     ``write(_:whenDurable:)``.
    /// - Returns: The entry's sequence number.
    /// - Throws: ``LedgerError``: the insert failed (nothing of it was applied; the group stays pending unless SQLite
    ///   rolled it back, in which case its completions are told), or the commit it triggered failed.
    @discardableResult
    @inlinable
    public func appendLog(
        _ payload: some Sequence<UInt8>, to name: String,
        whenDurable completion: (@Sendable (Result<Void, LedgerError>) -> Void)? = nil
    ) throws(LedgerError) -> Int64 {
        let inPlace = payload.withContiguousStorageIfAvailable { buffer in
            Result { () throws(LedgerError) in
                try appendLogBytes(UnsafeRawBufferPointer(buffer), to: name, whenDurable: completion)
            }
        }
        if let inPlace { return try inPlace.get() }
        let copy = Array(payload)
        return try copy.withUnsafeBytes { bytes in
            Result { () throws(LedgerError) in try appendLogBytes(bytes, to: name, whenDurable: completion) }
        }.get()
    }

    /// The non-generic part of ``appendLog(_:to:whenDurable:)``.
    @usableFromInline
    func appendLogBytes(
        _ bytes: UnsafeRawBufferPointer, to name: String,
        whenDurable completion: (@Sendable (Result<Void, LedgerError>) -> Void)?
    ) throws(LedgerError) -> Int64 {
        try database.groupAppend(bytes, to: name, commitEvery: commitEvery, completion: completion)
    }

    /// Commits every pending write now. When it returns, everything written before is acknowledged.
    /// - Throws: ``LedgerError`` if the commit fails (the pending writes were rolled back and their completions
    ///   told so).
    public func flush() throws(LedgerError) {
        try database.flushGroup()
    }

    /// The number of writes applied but not yet committed (for this database, from any committer).
    public var pendingWrites: Int { database.pendingGroupWrites }
}
