public import Ledger

/// How a store opened from a state file (``SimulatedStore/init(statePath:durability:configuration:clock:lane:retention:app:signer:jwsSigner:)``)
/// makes its changes durable.
///
/// Every change (a payment added or decided, a transaction finished, a refund, time moving...) is appended to the
/// state file's journal before it is applied. A change is *acknowledged* once the commit holding it has succeeded:
/// acknowledged changes survive `kill -9` (and, with `LedgerOptions.Synchronous.full`, power loss).
public struct StoreDurability: Sendable, Hashable {
    /// When the journal commits.
    public enum Commit: Sendable, Hashable {
        /// Each change is committed before the method that made it returns (the default).
        case everyChange
        /// Changes share commits: a commit happens when `every` changes are pending, on
        /// ``SimulatedStore/flush()``, at the end of each run of the store's lane, before the store tells devices what
        /// the run did (so that no app hears of a change that a crash could still take back: the events of a run are
        /// held until then, and delivered in order), and when the same database's `write` runs (for example a
        /// delivery recorded by the app). A change is acknowledged when its commit succeeds.
        case group(every: Int)
        /// Changes are committed only by ``SimulatedStore/flush()``, ``SimulatedStore/compact()``,
        /// ``SimulatedStore/close()`` (and the same database's `write`): a caller that flushes at the end of each of
        /// its steps commits once per step, however many changes the step made. Devices hear of changes before they
        /// are committed, so a crash can take back a change an app has heard of, up to the last flush; for runs that
        /// are restarted from their last flush (a feed), not for crash tests of app code.
        case onFlush
    }

    /// When the journal commits. Default: ``Commit/everyChange``.
    public var commit: Commit
    /// How the database file is opened: `synchronous` (`FULL` by default), the busy timeout, the integrity check on
    /// opening.
    ///
    /// With `checksIntegrityOnOpen` (off in the default options: it reads the whole file at every opening), opening
    /// checks the whole file: SQLite's `quick_check`, then every record read and checked, as a store without it checks
    /// each account's records when it first reads them (docs/durable-state.md). ``SimulatedStore/checkStateFile()``
    /// checks the whole file of an open store on demand.
    public var ledger: LedgerOptions
    /// After how many changes the store compacts its journal: writes the rows of its tables that changed and drops
    /// the journal entries they include, so that reopening reads the tables and replays at most this many changes.
    /// A compaction costs time in proportion to the rows that changed since the last one (the store notes them as it
    /// changes them), not to the rows the tables hold nor to the history, so its cost per change stays the same
    /// however many users the store has. Default: ``defaultCompactEvery``; `nil`: only on ``SimulatedStore/compact()``.
    public var compactEvery: Int?
    /// The default of ``compactEvery``: 10,000 changes.
    public static let defaultCompactEvery = 10_000
    /// Whether a new file is written in store format 1 (a snapshot and a journal, replayed whole on opening) and a
    /// file of format 1 is kept in it instead of migrated: for tests that need files as earlier releases wrote them.
    package var writesFirstFormat = false

    /// Commits when the caller flushes (``Commit/onFlush``), with `synchronous=NORMAL` (a commit reaches the operating
    /// system without waiting for the disk: it survives the process being killed, not a power loss): for a run that
    /// flushes after each of its steps, such as a feed, and is restarted from its last complete step.
    public static let perStep = StoreDurability(
        commit: .onFlush, ledger: LedgerOptions(synchronous: .normal, checksIntegrityOnOpen: false))

    /// Creates durability options.
    /// - Parameters:
    ///   - commit: When the journal commits.
    ///   - ledger: How the database file is opened; by default without the integrity check on opening (each record
    ///     is checked when first read instead).
    ///   - compactEvery: After how many changes to compact automatically (at least 1), or `nil` for only on
    ///     ``SimulatedStore/compact()``.
    public init(
        commit: Commit = .everyChange, ledger: LedgerOptions = LedgerOptions(checksIntegrityOnOpen: false),
        compactEvery: Int? = StoreDurability.defaultCompactEvery
    ) {
        self.commit = commit
        self.ledger = ledger
        self.compactEvery = compactEvery.map { max(1, $0) }
    }
}
