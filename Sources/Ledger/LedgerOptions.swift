/// How a ``LedgerDatabase`` is opened: durability level, lock waiting and checks.
///
/// On a PostgreSQL server (`LedgerDatabase.init(url:options:)`) they map to the session's settings: ``synchronous``
/// to `synchronous_commit`, ``busyTimeout`` to `lock_timeout`; ``checksIntegrityOnOpen`` adds nothing there.
public struct LedgerOptions: Hashable, Sendable {
    /// SQLite's `synchronous` setting (PostgreSQL's `synchronous_commit` on a server), i.e. when commits are flushed
    /// to stable storage.
    public struct Synchronous: Hashable, Sendable, CustomStringConvertible {
        let pragmaValue: String

        /// `synchronous=FULL` (the default): every commit is flushed to stable storage (`fsync` of the write-ahead
        /// log) before it returns, so an acknowledged commit survives a process kill, an operating-system crash and
        /// a power loss. On a PostgreSQL server: `synchronous_commit = on`, the commit returns once the server has
        /// flushed it.
        public static let full = Synchronous(pragmaValue: "FULL")

        /// `synchronous=NORMAL`: commits are written to the operating system before they return, and flushed only at
        /// checkpoints. An acknowledged commit survives a process kill (including `kill -9`); the last commits may be
        /// lost on an operating-system crash or power loss (the database stays consistent). Much faster. On a
        /// PostgreSQL server: `synchronous_commit = off`, the server acknowledges a commit before flushing it, so an
        /// acknowledged commit survives this process being killed, but the last ones may be lost if the server
        /// crashes (never part of one).
        public static let normal = Synchronous(pragmaValue: "NORMAL")

        /// `FULL` or `NORMAL`.
        public var description: String { pragmaValue }
    }

    /// When commits reach stable storage. Default: ``Synchronous/full``.
    public var synchronous: Synchronous
    /// How long to wait for a lock held by another connection before failing with ``LedgerError/Code/busy``.
    /// Default: 5 seconds. On a PostgreSQL server it is `lock_timeout` (at least 1 ms: 0 would mean no limit there).
    public var busyTimeout: Duration
    /// Whether opening an existing file runs `PRAGMA quick_check` (reads the whole file; O(size)). Default: `true`.
    /// The header and schema checks run regardless. On a PostgreSQL server it changes nothing: PostgreSQL has no
    /// `quick_check`, and the identity, schema version and table checks always run.
    public var checksIntegrityOnOpen: Bool

    /// Creates options.
    /// - Parameters:
    ///   - synchronous: When commits reach stable storage.
    ///   - busyTimeout: How long to wait for another connection's lock.
    ///   - checksIntegrityOnOpen: Whether to run `PRAGMA quick_check` when opening an existing file.
    public init(
        synchronous: Synchronous = .full, busyTimeout: Duration = .seconds(5), checksIntegrityOnOpen: Bool = true
    ) {
        self.synchronous = synchronous
        self.busyTimeout = busyTimeout
        self.checksIntegrityOnOpen = checksIntegrityOnOpen
    }

    /// The busy timeout in whole milliseconds, clamped to what SQLite accepts.
    var busyTimeoutMilliseconds: Int32 {
        let (seconds, attoseconds) = busyTimeout.components
        let milliseconds = seconds.multipliedReportingOverflow(by: 1000)
        guard !milliseconds.overflow else { return seconds < 0 ? 0 : .max }
        return Int32(clamping: max(0, milliseconds.partialValue + attoseconds / 1_000_000_000_000_000))
    }
}
