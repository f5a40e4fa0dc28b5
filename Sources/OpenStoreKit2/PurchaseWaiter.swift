import StoreModels
import Synchronization

/// Where a purchase waits for the store's decision on its transaction.
final class PurchaseWaiter: Sendable {
    private let state = Mutex<(decided: DeviceTransaction?, waiting: CheckedContinuation<DeviceTransaction, Never>?)>(
        (nil, nil))

    /// Hands over the decided transaction.
    func resolve(_ transaction: DeviceTransaction) {
        let waiting = state.withLock { state in
            state.decided = transaction
            defer { state.waiting = nil }
            return state.waiting
        }
        waiting?.resume(returning: transaction)
    }

    /// The decided transaction, if the store has decided.
    var decided: DeviceTransaction? { state.withLock { $0.decided } }

    /// The decided transaction, once the store has decided.
    func decision() async -> DeviceTransaction {
        await withCheckedContinuation { (continuation: CheckedContinuation<DeviceTransaction, Never>) in
            let decided = state.withLock { state -> DeviceTransaction? in
                if let decided = state.decided { return decided }
                state.waiting = continuation
                return nil
            }
            if let decided { continuation.resume(returning: decided) }
        }
    }
}
