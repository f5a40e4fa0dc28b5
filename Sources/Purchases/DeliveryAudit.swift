public import OpenStoreKit
import Synchronization

/// Flags an app that finishes a purchased or restored transaction before recording that its content was delivered:
/// the mistake that loses a consumable for good when the process dies between finishing and delivering.
///
/// A harness switches it on for a queue and hands it to the app as its ``DeliveryJournal`` (or wraps the app's own
/// journal): the app records each delivery through it, as ``PurchaseController`` does, or calls
/// ``markDelivered(_:)`` itself. From then on, every `finishTransaction` of a purchased or restored transaction whose
/// delivery is not recorded at that moment is a ``Violation``. It works for any app code, since it watches the
/// queue's `SKPaymentQueue.willFinishTransaction` hook rather than a particular observer.
///
/// ```swift
/// let audit = DeliveryAudit(queue: queue)
/// runTheAppUnderTest(queue: queue, journal: audit)
/// #expect(audit.violations.isEmpty, "\(audit.violations)")
/// ```
public final class DeliveryAudit: DeliveryJournal {
    /// A transaction finished before its content was recorded as delivered.
    public struct Violation: Sendable, Hashable, CustomStringConvertible {
        /// The transaction's identifier.
        public let transactionID: String
        /// Its product.
        public let productID: String
        /// Its state when it was finished: purchased or restored.
        public let state: SKPaymentTransactionState

        /// Creates a violation.
        public init(transactionID: String, productID: String, state: SKPaymentTransactionState) {
            self.transactionID = transactionID
            self.productID = productID
            self.state = state
        }

        /// `transaction 1000000000000001 (com.example.coins100, purchased) was finished before its delivery was
        /// recorded`.
        public var description: String {
            "transaction \(transactionID) (\(productID), \(state)) was finished before its delivery was recorded"
        }
    }

    private struct State {
        var violations: [Violation] = []
        var checked = 0
    }

    /// The queue audited.
    public let queue: SKPaymentQueue
    /// The journal deliveries are recorded in; the audit reads and writes through it.
    public let journal: any DeliveryJournal
    private let onViolation: (@Sendable (Violation) -> Void)?
    private let state = Mutex(State())

    /// Starts auditing a queue: installs itself as the queue's `SKPaymentQueue.willFinishTransaction`
    /// hook (replacing any other) until ``stop()``.
    /// - Parameters:
    ///   - queue: The app's payment queue.
    ///   - journal: Where deliveries are recorded; an in-memory journal by default, or the app's own (durable) one.
    ///   - onViolation: Called at once with each violation, on the thread that finished the transaction (to fail a
    ///     test there, say); violations are also kept in ``violations``.
    public init(
        queue: SKPaymentQueue, journal: any DeliveryJournal = InMemoryDeliveryJournal(),
        onViolation: (@Sendable (Violation) -> Void)? = nil
    ) {
        self.queue = queue
        self.journal = journal
        self.onViolation = onViolation
        queue.willFinishTransaction = { [weak self] transaction in self?.check(transaction) }
    }

    /// Stops auditing: removes the queue's hook.
    public func stop() {
        queue.willFinishTransaction = nil
    }

    /// The violations found so far, in the order the transactions were finished.
    public var violations: [Violation] { state.withLock { $0.violations } }

    /// How many finished purchased or restored transactions were checked.
    public var checkedFinishes: Int { state.withLock { $0.checked } }

    /// Whether the content of a transaction was recorded as delivered (in ``journal``).
    public func isDelivered(_ transactionID: String) -> Bool { journal.isDelivered(transactionID) }

    /// Records a delivery in ``journal``.
    public func markDelivered(_ transactionID: String) throws { try journal.markDelivered(transactionID) }

    private func check(_ transaction: SKPaymentTransaction) {
        let current = transaction.transactionState
        guard current == .purchased || current == .restored else { return }
        let id = transaction.transactionIdentifier ?? String(transaction.storeIdentifier)
        let delivered = journal.isDelivered(id)
        let violation =
            delivered
            ? nil : Violation(transactionID: id, productID: transaction.payment.productIdentifier, state: current)
        state.withLock { state in
            state.checked += 1
            if let violation { state.violations.append(violation) }
        }
        if let violation { onViolation?(violation) }
    }
}
