public import StoreModels
import Synchronization

/// One front end's attachment to one device of a store, from
/// ``SimulatedStore/connect(deviceID:account:frontEnd:listener:)``: the only way a front end acts on the device's
/// transactions.
///
/// The store keeps each device's unfinished transactions, in the order they arrived, and decides what happens to
/// them: `submit(_:)` adds a payment, and the store then reports it `.purchasing`, decides it (purchased, failed or
/// deferred) and reports the decided state, each on its ``StoreLane``; ``finish(_:)`` removes a transaction and the
/// store reports the removal. Every listener attached to the device hears every event once, in the order the store
/// produced them, so front ends attached side by side (a StoreKit 1 payment queue and a StoreKit 2 transaction feed)
/// share the device's transactions: one finished through either is removed for both.
///
/// The connection holds its store strongly and its listener weakly; the store holds the connection weakly, so a front
/// end that goes away stops hearing events. Calls may come from any thread.
public final class DeviceConnection: Sendable {
    /// The lane work the store schedules for a connection's transactions.
    enum Step: UInt8 {
        /// Report a payment just added as `.purchasing`, then decide it.
        case submitted
        /// Decide a `.purchasing` transaction found on connecting.
        case process
        /// Remove a finished transaction.
        case finish
    }

    /// The store the device belongs to.
    public let store: SimulatedStore
    /// The name the front end attached under; attaching again under the same name takes over from it.
    public let frontEnd: String
    /// The device in the store.
    let device: StoreState.Device
    private weak let listener: (any DeviceListener)?

    init(store: SimulatedStore, device: StoreState.Device, frontEnd: String, listener: any DeviceListener) {
        self.store = store
        self.device = device
        self.frontEnd = frontEnd
        self.listener = listener
    }

    /// The device's identifier.
    public var deviceID: String { device.id }

    /// The account the device is signed in to.
    public var account: String { store.state.withLock { _ in device.account } }

    /// The listener this connection calls, while it is alive.
    var currentListener: (any DeviceListener)? { listener }

    /// Whether the connection still hears the device's events: `false` once ``disconnect()`` was called or another
    /// connection attached under the same ``frontEnd`` took over.
    public var isAttached: Bool { store.state.withLock { _ in device.isAttached(self) } }

    /// The device's unfinished transactions, in the order they arrived: those of every front end of the device.
    public var unfinishedTransactions: [DeviceTransaction] { store.state.withLock { _ in device.unfinished } }

    /// The purchases made on other devices of the account that this device keeps until a front end finishes them
    /// (``finish(_:)`` with their identifier), in the order the store made them. They are not among
    /// ``unfinishedTransactions``: StoreKit 1 does not see them, StoreKit 2 tells them through `Transaction.updates`.
    public var otherDevicePurchases: [DeviceTransaction] { store.state.withLock { _ in device.otherDevicePurchases } }

    /// The device's unfinished transaction with an identifier, or `nil`.
    public func unfinishedTransaction(_ id: UInt64) -> DeviceTransaction? {
        store.state.withLock { _ in device.index(of: id).map { device.queue[$0].transaction } }
    }

    /// Adds a payment to the device and returns the identifier of its transaction, `.purchasing` from now on.
    ///
    /// The store then, on its lane, reports the transaction `.purchasing` to every listener, decides it and reports
    /// the decided state. An unknown product or a quantity outside 1...10 fails it with `.paymentInvalid`.
    ///
    /// - Parameters:
    ///   - request: The payment: product, quantity, account token, offer.
    ///   - prepare: called with the identifier once the transaction is in the device and before the store
    ///     schedules anything about it, so that a front end can make its own object for the transaction before any
    ///     listener can hear of it (a lane on another thread may run as soon as this returns).
    /// - Returns: The identifier of the new transaction.
    @discardableResult
    public func submit(_ request: PaymentRequest, preparing prepare: (UInt64) -> Void = { _ in }) -> UInt64 {
        let id = store.submit(request, to: device)
        prepare(id)
        store.lane.enqueue(self, .submitted, id)
        return id
    }

    /// Finishes a transaction: on the store's lane it leaves the device and every listener hears
    /// ``DeviceEvent/removed(_:)`` of it. A purchase made on another device (``otherDevicePurchases``) leaves the device
    /// with no event. Finishing one the device no longer holds does nothing.
    ///
    /// The store does not check the transaction's state; a front end refuses what its API forbids (StoreKit 1 refuses
    /// to finish a `.purchasing` transaction).
    public func finish(_ transactionID: UInt64) {
        store.lane.enqueue(self, .finish, transactionID)
    }

    /// Restores the account's completed transactions, on the store's lane: one new `.restored` transaction per
    /// non-consumable purchase and auto-renewable subscription period not already unfinished on the device, reported
    /// in one ``DeviceEvent/updated(_:)``, then ``DeviceEvent/restoreFinished`` (or ``DeviceEvent/restoreFailed(_:)``).
    /// With an application username, only purchases made with it or with none are restored.
    public func restore(applicationUsername: String? = nil) {
        let deviceID = device.id
        store.lane.enqueue { [store] in store.restore(deviceID: deviceID, applicationUsername: applicationUsername) }
    }

    /// Stops hearing the device's events. The device keeps its transactions; actions through the connection still
    /// work.
    public func disconnect() {
        store.state.withLock { _ in device.detach(self) }
    }

    /// Runs lane work the store scheduled for this connection.
    func run(_ step: Step, _ id: UInt64) {
        switch step {
        case .submitted: store.reportAndProcess(id, from: self)
        case .process: store.processPayment(id, on: device)
        case .finish: store.finish(id, on: device)
        }
    }
}
