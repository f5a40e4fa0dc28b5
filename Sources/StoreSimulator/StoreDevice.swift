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
}
