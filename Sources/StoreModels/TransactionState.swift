/// The state of a transaction, with the raw values of StoreKit's `SKPaymentTransactionState`.
public enum TransactionState: Int, Sendable, Hashable, Codable, CaseIterable {
    /// Being processed by the store.
    case purchasing = 0
    /// Charged; the app should deliver the content and finish the transaction.
    case purchased = 1
    /// Cancelled or failed; the app should finish the transaction.
    case failed = 2
    /// Restored from the purchase history; the app should deliver and finish.
    case restored = 3
    /// Waiting for an outside action, such as a parent's approval (Ask to Buy).
    case deferred = 4

    /// The lowercase name, such as `purchased`.
    public var name: String { String(describing: self) }
}
