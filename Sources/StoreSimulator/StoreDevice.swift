public import StoreModels

/// A device-side view of a store: a payment queue holding one app's unfinished transactions on one device.
///
/// The store calls these methods on its ``StoreLane``, in order.
public protocol StoreDevice: AnyObject, Sendable {
    /// The device's identifier; a queue reopened with the same identifier gets the same unfinished transactions.
    var deviceID: String { get }

    /// Tells the device about a change: transactions updated or removed, a restore ending, revoked entitlements, a new
    /// storefront.
    func store(_ store: SimulatedStore, didProduce event: DeviceEvent)

    /// Asks whether a transaction in progress should go on in a storefront that changed since it started.
    func store(_ store: SimulatedStore, shouldContinue transaction: DeviceTransaction, in storefront: Storefront)
        -> Bool

    /// Tells the device that one transaction changed state: the event `.updated([transaction])`, which the default
    /// implementation passes to ``store(_:didProduce:)``. The store uses it when it decides a payment; a device
    /// may implement it to spare building the event.
    func store(_ store: SimulatedStore, didUpdate transaction: DeviceTransaction)

    /// Tells the device that one finished transaction left its queue: the event `.removed([transactionID])`, which
    /// the default implementation passes to ``store(_:didProduce:)``. The store uses it when a transaction is
    /// finished; a device may implement it to spare building the event.
    func store(_ store: SimulatedStore, didRemove transactionID: UInt64)
}

extension StoreDevice {
    /// Passes `.updated([transaction])` to ``store(_:didProduce:)``.
    public func store(_ store: SimulatedStore, didUpdate transaction: DeviceTransaction) {
        self.store(store, didProduce: .updated([transaction]))
    }

    /// Passes `.removed([transactionID])` to ``store(_:didProduce:)``.
    public func store(_ store: SimulatedStore, didRemove transactionID: UInt64) {
        self.store(store, didProduce: .removed([transactionID]))
    }
}
