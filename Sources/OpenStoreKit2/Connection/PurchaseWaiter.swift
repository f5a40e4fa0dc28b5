import StoreModels
import Synchronization

/// Where a purchase waits for the store's decision on its transaction.
final class PurchaseWaiter: Sendable {
    /// The store's decision: the transaction in its decided state, and the record a purchase reports.
    struct Decision: Sendable {
        /// The transaction, purchased, failed or deferred.
        var transaction: DeviceTransaction
        /// The history record of a purchase, as the store wrote it when it decided; `nil` otherwise.
        var record: TransactionRecord?
    }

    private let state = Mutex<(decided: Decision?, waiting: CheckedContinuation<Decision, Never>?)>((nil, nil))

    /// Hands over the decision.
    func resolve(_ decision: Decision) {
        let waiting = state.withLock { state in
            state.decided = decision
            defer { state.waiting = nil }
            return state.waiting
        }
        waiting?.resume(returning: decision)
    }

    /// The decision, if the store has decided.
    var decided: Decision? { state.withLock { $0.decided } }

    /// The decision, once the store has decided.
    func decision() async -> Decision {
        await withCheckedContinuation { (continuation: CheckedContinuation<Decision, Never>) in
            let decided = state.withLock { state -> Decision? in
                if let decided = state.decided { return decided }
                state.waiting = continuation
                return nil
            }
            if let decided { continuation.resume(returning: decided) }
        }
    }
}
