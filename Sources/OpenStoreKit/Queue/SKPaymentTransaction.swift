public import Foundation
import StoreModels
import Synchronization

/// A transaction in the payment queue: a payment on its way through the store.
///
/// Its state changes as the queue reports it to observers. ``transactionIdentifier`` and ``transactionDate`` are set
/// only once it is purchased or restored, ``original`` only when restored, ``error`` only when failed.
public final class SKPaymentTransaction: NSObject, @unchecked Sendable {
    // @unchecked: the mutable part lives behind a mutex; the rest is constant.

    struct Snapshot {
        var state: SKPaymentTransactionState
        var transactionDate: Date?
        var error: SKError?
        /// Whether the transaction is in its queue's ``SKPaymentQueue/transactions``.
        var isQueued = false
        /// The state the queue's observers last heard; `nil` before the first report.
        var deliveredState: SKPaymentTransactionState?
    }

    /// The store's identifier for this transaction, in every state (``transactionIdentifier`` shows it only once
    /// purchased or restored): what test-session controls such as Ask to Buy approval take.
    public let storeIdentifier: UInt64
    private let snapshot: Mutex<Snapshot>

    /// The payment this transaction is for (a copy of what was added).
    public let payment: SKPayment
    /// The transaction restored, for restored transactions.
    public let original: SKPaymentTransaction?

    /// Marks the transaction as in its queue. Call under the queue's lock.
    func joinQueue() {
        snapshot.withLock { $0.isQueued = true }
    }

    /// Marks the transaction as no longer in its queue. Call under the queue's lock.
    func leaveQueue() {
        snapshot.withLock {
            $0.isQueued = false
            $0.deliveredState = nil
        }
    }

    /// Whether the transaction is in its queue and its observers have yet to hear its current state; if so, the state
    /// counts as heard from now. Call under the queue's lock.
    func markFresh() -> Bool {
        snapshot.withLock { snapshot in
            guard snapshot.isQueued, snapshot.deliveredState != snapshot.state else { return false }
            snapshot.deliveredState = snapshot.state
            return true
        }
    }

    init(_ transaction: DeviceTransaction, payment: SKPayment, original: SKPaymentTransaction?) {
        self.storeIdentifier = transaction.id
        self.payment = payment
        self.original = original
        self.snapshot = Mutex(Snapshot(state: .purchasing))
        super.init()
        apply(transaction)
    }

    /// A transaction just added to its store: `.purchasing`, with no date and no error.
    init(purchasing id: UInt64, payment: SKPayment) {
        self.storeIdentifier = id
        self.payment = payment
        self.original = nil
        self.snapshot = Mutex(Snapshot(state: .purchasing))
    }

    init(original record: TransactionRecord) {
        self.storeIdentifier = record.id
        self.payment = SKPayment(
            request: PaymentRequest(
                productID: record.productID,
                quantity: record.quantity,
                applicationUsername: record.applicationUsername
            )
        )
        self.original = nil
        self.snapshot = Mutex(Snapshot(state: .purchased, transactionDate: record.purchaseDate))
    }

    /// The transaction's state.
    public var transactionState: SKPaymentTransactionState { snapshot.withLock { $0.state } }

    /// The store's identifier; `nil` unless purchased or restored.
    public var transactionIdentifier: String? {
        snapshot.withLock { $0.state == .purchased || $0.state == .restored ? String(storeIdentifier) : nil }
    }

    /// When the store charged or restored it; `nil` unless purchased or restored.
    public var transactionDate: Date? {
        snapshot.withLock { $0.state == .purchased || $0.state == .restored ? $0.transactionDate : nil }
    }

    /// Why it failed; `nil` unless failed.
    public var error: (any Error)? { snapshot.withLock { $0.state == .failed ? $0.error : nil } }

    /// `<SKPaymentTransaction: 1000000000000001 com.example.pro purchased>`.
    public override var description: String {
        "<SKPaymentTransaction: \(storeIdentifier) \(payment.productIdentifier) \(transactionState)>"
    }

    func apply(_ transaction: DeviceTransaction) {
        _ = apply(transaction, markingHeard: false)
    }

    /// Brings the transaction up to date and, when `markingHeard`, does what ``markFresh()`` does in the same lock
    /// round trip: returns whether observers have yet to hear the new state, which counts as heard from now. Call
    /// under the queue's lock.
    func apply(_ transaction: DeviceTransaction, markingHeard: Bool) -> Bool {
        snapshot.withLock { snapshot in
            snapshot.state = SKPaymentTransactionState(rawValue: transaction.state.rawValue) ?? .failed
            snapshot.transactionDate = transaction.transactionDate
            snapshot.error = transaction.failure.map(SKError.init)
            guard markingHeard, snapshot.isQueued, snapshot.deliveredState != snapshot.state else { return false }
            snapshot.deliveredState = snapshot.state
            return true
        }
    }
}
