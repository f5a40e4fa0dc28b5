import Foundation
import OpenStoreKit

/// An observer written the way an app writes one: deliver what was purchased, then finish it; finish failures.
///
/// It counts instead of delivering content, so the benchmark measures the queue, not the app.
final class FinishingObserver: NSObject, SKPaymentTransactionObserver {
    /// Whether to finish completed transactions (an observer that keeps them lets a benchmark look at one).
    let finishes: Bool
    /// Purchases delivered.
    private(set) var purchased = 0
    /// Purchases that failed.
    private(set) var failed = 0
    /// Transactions reported removed.
    private(set) var removed = 0

    /// Creates an observer.
    init(finishes: Bool = true) {
        self.finishes = finishes
    }

    func paymentQueue(_ queue: SKPaymentQueue, updatedTransactions transactions: [SKPaymentTransaction]) {
        for transaction in transactions {
            switch transaction.transactionState {
            case .purchased, .restored:
                purchased += 1
                if finishes { queue.finishTransaction(transaction) }
            case .failed:
                failed += 1
                if finishes { queue.finishTransaction(transaction) }
            case .purchasing, .deferred:
                break
            @unknown default:
                break
            }
        }
    }

    func paymentQueue(_ queue: SKPaymentQueue, removedTransactions transactions: [SKPaymentTransaction]) {
        removed += transactions.count
    }
}
