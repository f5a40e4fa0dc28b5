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
        /// ``SimulatedStore/flush()``, before the store tells a device anything (so that no app hears of a change that
        /// a crash could still take back), and when the same database's `write` runs (for example a delivery
        /// recorded by the app). A change is acknowledged when its commit succeeds.
        case group(every: Int)
    }

    /// When the journal commits. Default: ``Commit/everyChange``.
    public var commit: Commit
    /// How the database file is opened: `synchronous` (`FULL` by default), the busy timeout, the integrity check on
    /// opening.
    public var ledger: LedgerOptions
    /// After how many changes the store writes a snapshot of its state and drops the journal entries before it, so
    /// that reopening replays at most this many changes; `nil` (the default) only on ``SimulatedStore/compact()``.
    /// A snapshot costs time in proportion to the size of the state.
    public var compactEvery: Int?

    /// Creates durability options.
    /// - Parameters:
    ///   - commit: When the journal commits.
    ///   - ledger: How the database file is opened.
    ///   - compactEvery: After how many changes to write a snapshot automatically (at least 1), or `nil`.
    public init(commit: Commit = .everyChange, ledger: LedgerOptions = LedgerOptions(), compactEvery: Int? = nil) {
        self.commit = commit
        self.ledger = ledger
        self.compactEvery = compactEvery.map { max(1, $0) }
    }
}
