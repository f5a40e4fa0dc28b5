/// The state of a payment transaction, with StoreKit's raw values.
public enum SKPaymentTransactionState: Int, Sendable, Hashable, CaseIterable {
    /// Being added to the server queue.
    case purchasing = 0
    /// Charged: deliver the content, then finish the transaction.
    case purchased = 1
    /// Cancelled or failed before being added to the server queue: finish it.
    case failed = 2
    /// Restored from the user's purchase history: deliver, then finish.
    case restored = 3
    /// In the queue, its final status waiting for an outside action such as Ask to Buy.
    case deferred = 4
}
