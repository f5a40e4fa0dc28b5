import StoreModels
import StoreSimulator

/// StoreKit 2's attachment to a device of a store: every call StoreKit 2 makes into the store's device API passes
/// through this one type (connecting, adding a payment, finishing, reading the device's queue), and every event the
/// store sends the device comes back through it. It attaches as the front end `"StoreKit 2"`, beside the device's
/// `SKPaymentQueue` (`"StoreKit 1"`), so both hear every event of the device (docs/engine.md).
final class DeviceLink: DeviceListener, @unchecked Sendable {
    // @unchecked: `client` and `connection` are set once, by the client's launch, before anything is submitted; the
    // store calls the link on its lane only.
    let store: SimulatedStore
    let deviceID: String
    let account: String
    weak var client: StoreKitClient?
    private var connection: DeviceConnection?

    /// The front-end name StoreKit 2 attaches under.
    static let frontEnd = "StoreKit 2"

    init(store: SimulatedStore, deviceID: String, account: String) {
        self.store = store
        self.deviceID = deviceID
        self.account = account
    }

    /// Attaches to the device and returns its unfinished transactions, then the purchases made on other devices it
    /// keeps; the store goes on deciding transactions still `.purchasing` (from a process that stopped).
    func connect() -> [DeviceTransaction] {
        let connection = store.connect(deviceID: deviceID, account: account, frontEnd: Self.frontEnd, listener: self)
        self.connection = connection
        return connection.unfinishedTransactions + connection.otherDevicePurchases
    }

    /// Adds a payment to the device's queue and returns its transaction identifier; `preparing` gets the identifier
    /// before the store schedules its report and decision.
    func submit(_ request: PaymentRequest, preparing: (UInt64) -> Void) -> UInt64 {
        guard let connection else { return 0 }
        return connection.submit(request, preparing: preparing)
    }

    /// Asks the store, on its lane, to finish a transaction of the device's queue.
    func finish(_ transactionID: UInt64) {
        connection?.finish(transactionID)
    }

    /// The device's unfinished transactions, in the order they arrived, whichever front end made them, then the
    /// purchases made on other devices that it keeps until StoreKit 2 finishes them.
    var unfinished: [DeviceTransaction] {
        guard let connection else { return [] }
        return connection.unfinishedTransactions + connection.otherDevicePurchases
    }

    // MARK: DeviceListener

    func connection(_ connection: DeviceConnection, didProduce event: DeviceEvent) {
        client?.handle(event)
    }

    func connection(
        _ connection: DeviceConnection, didDecide transaction: DeviceTransaction, record: TransactionRecord?
    ) {
        client?.handleUpdate(transaction, record: record)
    }

    func connection(
        _ connection: DeviceConnection, shouldContinue transaction: DeviceTransaction,
        in storefront: StoreModels.Storefront
    ) -> Bool {
        client?.shouldContinue(transaction, in: storefront) ?? true
    }
}
