public import Foundation

/// What an app implements to hear from the payment queue.
///
/// Only ``paymentQueue(_:updatedTransactions:)`` is required; the other methods default to doing nothing (and
/// ``paymentQueue(_:shouldAddStorePayment:for:)`` to `true`), as StoreKit's optional methods do.
public protocol SKPaymentTransactionObserver: NSObjectProtocol {
    /// Transactions were added to the queue or changed state. Deliver purchased and restored content, then finish
    /// them; finish failed ones.
    func paymentQueue(_ queue: SKPaymentQueue, updatedTransactions transactions: [SKPaymentTransaction])
    /// Finished transactions left the queue.
    func paymentQueue(_ queue: SKPaymentQueue, removedTransactions transactions: [SKPaymentTransaction])
    /// A restore failed.
    func paymentQueue(_ queue: SKPaymentQueue, restoreCompletedTransactionsFailedWithError error: any Error)
    /// A restore delivered all its transactions.
    func paymentQueueRestoreCompletedTransactionsFinished(_ queue: SKPaymentQueue)
    /// A purchase started in the App Store (a promoted in-app purchase); return `true` to continue it now.
    func paymentQueue(_ queue: SKPaymentQueue, shouldAddStorePayment payment: SKPayment, for product: SKProduct) -> Bool
    /// The storefront changed; read ``SKPaymentQueue/storefront`` again.
    func paymentQueueDidChangeStorefront(_ queue: SKPaymentQueue)
    /// The user lost access to these products (a refund, or Family Sharing revoked).
    func paymentQueue(_ queue: SKPaymentQueue, didRevokeEntitlementsForProductIdentifiers productIdentifiers: [String])
}

extension SKPaymentTransactionObserver {
    /// Does nothing.
    public func paymentQueue(_ queue: SKPaymentQueue, removedTransactions transactions: [SKPaymentTransaction]) {}
    /// Does nothing.
    public func paymentQueue(_ queue: SKPaymentQueue, restoreCompletedTransactionsFailedWithError error: any Error) {}
    /// Does nothing.
    public func paymentQueueRestoreCompletedTransactionsFinished(_ queue: SKPaymentQueue) {}
    /// Returns `true`.
    public func paymentQueue(_ queue: SKPaymentQueue, shouldAddStorePayment payment: SKPayment, for product: SKProduct)
        -> Bool
    { true }
    /// Does nothing.
    public func paymentQueueDidChangeStorefront(_ queue: SKPaymentQueue) {}
    /// Does nothing.
    public func paymentQueue(
        _ queue: SKPaymentQueue,
        didRevokeEntitlementsForProductIdentifiers productIdentifiers: [String]
    ) {}
}
