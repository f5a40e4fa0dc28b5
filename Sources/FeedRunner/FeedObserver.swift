import Foundation
import OpenStoreKit

/// The app inside a feed: an observer that reports every callback to the recorder and finishes as its policy says.
final class FeedObserver: NSObject, SKPaymentTransactionObserver, @unchecked Sendable {
    // @unchecked: a feed runs on one thread; the observer is only called on its manual store's lane.
    let name: String
    /// The account.
    let user: String
    /// The user's device the observer's app runs on.
    let device: String
    let policy: FeedStep.FinishPolicy
    /// The answer to `paymentQueue(_:shouldAddStorePayment:for:)`.
    let storePayments: Bool
    unowned let recorder: FeedRecorder

    init(
        name: String, user: String, device: String, policy: FeedStep.FinishPolicy, storePayments: Bool,
        recorder: FeedRecorder
    ) {
        self.name = name
        self.user = user
        self.device = device
        self.policy = policy
        self.storePayments = storePayments
        self.recorder = recorder
    }

    /// The key of the observer's device in the world's devices.
    var seat: String { FeedWorld.seat(user, device) }

    func paymentQueue(_ queue: SKPaymentQueue, updatedTransactions transactions: [SKPaymentTransaction]) {
        recorder.observed(updated: transactions, by: self, queue: queue)
        if policy == .all {
            for transaction in transactions {
                if transaction.transactionState == .purchased || transaction.transactionState == .restored {
                    recorder.delivered(transaction, by: self)
                }
                queue.finishTransaction(transaction)
                recorder.noteExceptions(for: transaction, on: seat, by: self)
            }
            return
        }
        guard policy == .auto else { return }
        for transaction in transactions {
            switch transaction.transactionState {
            case .purchased, .restored:
                recorder.delivered(transaction, by: self)
                queue.finishTransaction(transaction)
            case .failed:
                queue.finishTransaction(transaction)
            case .purchasing, .deferred:
                break
            }
        }
    }

    func paymentQueue(_ queue: SKPaymentQueue, shouldAddStorePayment payment: SKPayment, for product: SKProduct) -> Bool
    {
        recorder.observedStorePayment(product.productIdentifier, answer: storePayments, by: self)
        return storePayments
    }

    func paymentQueue(_ queue: SKPaymentQueue, removedTransactions transactions: [SKPaymentTransaction]) {
        recorder.observed(removed: transactions, by: self, queue: queue)
    }

    func paymentQueueRestoreCompletedTransactionsFinished(_ queue: SKPaymentQueue) {
        recorder.observedRestore(failure: nil, finished: true, by: self, queue: queue)
    }

    func paymentQueue(_ queue: SKPaymentQueue, restoreCompletedTransactionsFailedWithError error: any Error) {
        recorder.observedRestore(
            failure: (error as? SKError)?.code ?? .unknown, finished: false, by: self, queue: queue)
    }

    func paymentQueueDidChangeStorefront(_ queue: SKPaymentQueue) {
        recorder.observedStorefront(queue.storefront?.countryCode ?? "", by: self)
    }

    func paymentQueue(_ queue: SKPaymentQueue, didRevokeEntitlementsForProductIdentifiers productIdentifiers: [String])
    {
        recorder.observedRevocation(productIdentifiers, by: self, queue: queue)
    }
}
