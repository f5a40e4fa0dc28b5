import Foundation
import OpenStoreKit
import Synchronization

/// An observer that writes down every callback, and optionally finishes what it is told.
final class RecordingObserver: NSObject, SKPaymentTransactionObserver, @unchecked Sendable {
    enum Policy {
        case finishCompleted
        case keep
    }

    let policy: Policy
    private let log = Mutex<[String]>([])
    private let updates = Mutex<[[Snapshot]]>([])
    private let revoked = Mutex<[[String]]>([])

    init(policy: Policy = .finishCompleted) {
        self.policy = policy
    }

    var events: [String] { log.withLock { $0 } }
    var updateBatches: [[Snapshot]] { updates.withLock { $0 } }
    var revocations: [[String]] { revoked.withLock { $0 } }

    /// The states reported for one product, in order.
    func states(of productID: String) -> [SKPaymentTransactionState] {
        updateBatches.flatMap { $0 }.filter { $0.productIdentifier == productID }.map(\.transactionState)
    }

    func paymentQueue(_ queue: SKPaymentQueue, updatedTransactions transactions: [SKPaymentTransaction]) {
        // Snapshot objects keep changing, so record the state as reported.
        let line = transactions.map { "\($0.payment.productIdentifier):\($0.transactionState)" }.joined(separator: ",")
        log.withLock { $0.append("updated " + line) }
        updates.withLock { $0.append(transactions.map { Snapshot($0) }) }
        guard policy == .finishCompleted else { return }
        for transaction in transactions where [.purchased, .restored, .failed].contains(transaction.transactionState) {
            queue.finishTransaction(transaction)
        }
    }

    func paymentQueue(_ queue: SKPaymentQueue, removedTransactions transactions: [SKPaymentTransaction]) {
        let line = transactions.map(\.payment.productIdentifier).joined(separator: ",")
        log.withLock { $0.append("removed " + line) }
    }

    func paymentQueueRestoreCompletedTransactionsFinished(_ queue: SKPaymentQueue) {
        log.withLock { $0.append("restoreFinished") }
    }

    func paymentQueue(_ queue: SKPaymentQueue, restoreCompletedTransactionsFailedWithError error: any Error) {
        log.withLock { $0.append("restoreFailed \((error as? SKError)?.code.rawValue ?? -1)") }
    }

    func paymentQueueDidChangeStorefront(_ queue: SKPaymentQueue) {
        log.withLock { $0.append("storefront \(queue.storefront?.countryCode ?? "-")") }
    }

    func paymentQueue(_ queue: SKPaymentQueue, didRevokeEntitlementsForProductIdentifiers productIdentifiers: [String])
    {
        revoked.withLock { $0.append(productIdentifiers) }
        log.withLock { $0.append("revoked " + productIdentifiers.joined(separator: ",")) }
    }
}

/// A transaction as it was when reported: the live object changes state afterwards.
struct Snapshot: @unchecked Sendable {
    let object: SKPaymentTransaction
    let productIdentifier: String
    let transactionState: SKPaymentTransactionState
    let transactionIdentifier: String?
    let transactionDate: Date?
    let errorCode: SKError.Code?

    init(_ transaction: SKPaymentTransaction) {
        object = transaction
        productIdentifier = transaction.payment.productIdentifier
        transactionState = transaction.transactionState
        transactionIdentifier = transaction.transactionIdentifier
        transactionDate = transaction.transactionDate
        errorCode = (transaction.error as? SKError)?.code
    }
}
