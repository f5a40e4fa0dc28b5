import StoreModels
import StoreSimulator

/// StoreKit 2's connection to a device of a store: every call StoreKit 2 makes into the store's device API passes
/// through this one type (connecting, adding a payment, deciding it, finishing, reading the device's queue), and
/// every event the store sends the device comes back through it.
final class DeviceLink: StoreDevice, @unchecked Sendable {
    // @unchecked: `client` is set once, right after init, before the link connects; the store calls the link on its
    // lane only.
    let store: SimulatedStore
    let deviceID: String
    let account: String
    weak var client: StoreKitClient?

    init(store: SimulatedStore, deviceID: String, account: String) {
        self.store = store
        self.deviceID = deviceID
        self.account = account
    }

    /// Connects the device and returns its unfinished transactions; transactions still `.purchasing` (from a
    /// process that stopped) go on being decided.
    func connect() -> [DeviceTransaction] {
        let unfinished = store.connect(self, account: account)
        for transaction in unfinished where transaction.state == .purchasing {
            process(transaction.id)
        }
        return unfinished
    }

    /// Adds a payment to the device's queue and returns its transaction identifier; nothing is decided until
    /// ``process(_:)``.
    func submit(_ request: PaymentRequest) -> UInt64 {
        store.submit(request, deviceID: deviceID).id
    }

    /// Asks the store, on its lane, to decide a transaction.
    func process(_ transactionID: UInt64) {
        store.lane.enqueue { [store, deviceID] in store.processPayment(transactionID, deviceID: deviceID) }
    }

    /// Asks the store, on its lane, to finish a transaction of the device's queue.
    func finish(_ transactionID: UInt64) {
        store.lane.enqueue { [store, deviceID] in store.finish(transactionID, deviceID: deviceID) }
    }

    /// The device's unfinished transactions, in the order they arrived.
    var unfinished: [DeviceTransaction] { store.unfinishedTransactions(deviceID: deviceID) }

    // MARK: StoreDevice

    func store(_ store: SimulatedStore, didProduce event: DeviceEvent) {
        client?.handle(event)
    }

    func store(
        _ store: SimulatedStore, shouldContinue transaction: DeviceTransaction, in storefront: StoreModels.Storefront
    )
        -> Bool
    {
        true
    }
}
