import StoreModels
import StoreSimulator
import Synchronization

/// A device listener as an app's: it keeps the identifiers of the transactions it heard purchased, for the app to
/// finish, and counts the removals it heard.
final class PurchaseListener: DeviceListener {
    private let heard = Mutex<(purchased: [UInt64], removed: Int)>(([], 0))

    func connection(_ connection: DeviceConnection, didProduce event: DeviceEvent) {
        switch event {
        case .updated(let transactions):
            for transaction in transactions { self.connection(connection, didUpdate: transaction) }
        case .removed(let ids):
            heard.withLock { $0.removed += ids.count }
        default:
            break
        }
    }

    func connection(_ connection: DeviceConnection, didUpdate transaction: DeviceTransaction) {
        guard transaction.state == .purchased else { return }
        heard.withLock { $0.purchased.append(transaction.id) }
    }

    func connection(_ connection: DeviceConnection, didRemove transactionID: UInt64) {
        heard.withLock { $0.removed += 1 }
    }

    /// The transactions heard purchased since the last call, in the order heard.
    func takePurchased() -> [UInt64] {
        heard.withLock { heard in
            defer { heard.purchased = [] }
            return heard.purchased
        }
    }

    /// Whether transactions were heard purchased since the last ``takePurchased()``.
    var hasPurchased: Bool { heard.withLock { !$0.purchased.isEmpty } }

    /// The removals heard so far.
    var removed: Int { heard.withLock { $0.removed } }
}
