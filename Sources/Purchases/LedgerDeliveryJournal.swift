public import Foundation
public import Ledger
public import StoreModels

/// A ``DeliveryJournal`` kept in a Ledger database, so that a delivery is durable before the transaction is finished:
/// after a crash between delivering and finishing, the transaction comes back and is recognised as delivered instead
/// of being granted twice.
///
/// Each delivery is a Ledger stamp (`LedgerWriteTransaction.stamp(forKey:at:)`) whose key is the transaction's
/// identifier and whose date is the delivery's; the journal owns the database's stamps. Stamps are kept where earlier
/// releases kept deliveries, so a state file they wrote keeps its deliveries.
///
/// ``markDelivered(_:)`` returns only after the record is committed (flushed to stable storage with the database's
/// default `synchronous = FULL`). For exactly-once delivery even when the process dies between granting the content
/// and recording it, grant inside the same transaction with ``deliver(_:grant:)``:
///
/// ```swift
/// let store = try SimulatedStore(statePath: path)
/// let journal = LedgerDeliveryJournal(database: store.ledger!)
/// let controller = PurchaseController(queue: queue, journal: journal) { delivery in
///     try journal.deliver(delivery.transactionID) { txn in
///         try txn.incrementMeta(forKey: "coins", by: 100)      // the content, in the same commit
///     }
/// }
/// ```
///
/// The database may be a durable store's own (`SimulatedStore.ledger`): in group-commit mode a delivery's commit then
/// also commits the store's pending changes first, so a delivery never survives a crash that the purchase it
/// delivers does not.
public final class LedgerDeliveryJournal: DeliveryJournal {
    /// The database holding the deliveries.
    public let database: LedgerDatabase
    /// The clock that dates deliveries.
    public let clock: any StoreClock

    /// Creates a journal on a database.
    /// - Parameters:
    ///   - database: Where deliveries are recorded, as its stamps.
    ///   - clock: Dates the deliveries; the system clock by default.
    public init(database: LedgerDatabase, clock: any StoreClock = SystemClock()) {
        self.database = database
        self.clock = clock
    }

    /// Whether the content of a transaction was recorded as delivered. A read that fails counts as not delivered:
    /// the transaction is then delivered again, and ``deliver(_:grant:)`` checks once more inside its write.
    public func isDelivered(_ transactionID: String) -> Bool {
        (try? database.read { txn in try txn.containsStamp(forKey: transactionID) }) ?? false
    }

    /// When the content of a transaction was recorded as delivered, or `nil`.
    public func deliveryDate(_ transactionID: String) -> Date? {
        (try? database.read { txn in try txn.stampDate(forKey: transactionID) }) ?? nil
    }

    /// Records that a transaction's content was delivered, durably: when this returns the record is committed. A
    /// delivery already recorded is kept (with its first date) and costs no write.
    /// - Throws: `LedgerError` if the database cannot be written; the transaction must then stay unfinished.
    public func markDelivered(_ transactionID: String) throws {
        if isDelivered(transactionID) { return }
        let date = clock.now
        try database.write { txn in _ = try txn.stamp(forKey: transactionID, at: date) }
    }

    /// Grants a transaction's content and records the delivery in one commit, unless it was recorded already.
    ///
    /// `grant` writes the content through the transaction it is given; if it throws, nothing is written and the error
    /// is rethrown. When this returns, the content and the record are both durable, or neither was written: a crash
    /// at any point never grants twice and never records a delivery that did not happen.
    /// - Returns: `true` if this call granted the content, `false` if it had been delivered before.
    /// - Throws: What `grant` threw, or `LedgerError`.
    @discardableResult
    public func deliver(_ transactionID: String, grant: (borrowing LedgerWriteTransaction) throws -> Void) throws
        -> Bool
    {
        let date = clock.now
        return try database.write { txn in
            guard try !txn.containsStamp(forKey: transactionID) else { return false }
            try grant(txn)
            try txn.stamp(forKey: transactionID, at: date)
            return true
        }
    }
}
