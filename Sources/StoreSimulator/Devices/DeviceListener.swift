public import StoreModels

/// A front end attached to a device of a store (a StoreKit 1 payment queue, a StoreKit 2 transaction feed): it hears
/// what the store does with the device's transactions, through the ``DeviceConnection`` it attached with.
///
/// The store calls these methods on its ``StoreLane``, one event at a time, in the order it produced them. Every
/// listener of a device hears every event of the device exactly once, in attach order; the journal of a durable store
/// has committed the change before any listener hears of it.
public protocol DeviceListener: AnyObject, Sendable {
    /// Tells the listener about a change: transactions updated or removed, a restore ending, revoked entitlements, a
    /// new storefront.
    func connection(_ connection: DeviceConnection, didProduce event: DeviceEvent)

    /// Tells the listener that one transaction changed state or arrived: the event `.updated([transaction])`, which the
    /// default implementation passes to ``connection(_:didProduce:)``. The store uses it for a payment's `.purchasing`
    /// report and its decided state; a listener may implement it to spare building the event.
    func connection(_ connection: DeviceConnection, didUpdate transaction: DeviceTransaction)

    /// Tells the listener that the store decided a payment of the device: `transaction` in its decided state
    /// (purchased, failed or deferred) and, for a purchase, `record`, the history record it reports, as the store
    /// wrote it when it decided, so that a front end that shows the purchase (StoreKit 2 has the store sign it) need not
    /// ask the store for it. The default implementation passes `transaction` to ``connection(_:didUpdate:)``.
    func connection(
        _ connection: DeviceConnection, didDecide transaction: DeviceTransaction, record: TransactionRecord?)

    /// Tells the listener that one finished transaction left the device: the event `.removed([transactionID])`, which
    /// the default implementation passes to ``connection(_:didProduce:)``. A listener may implement it to spare
    /// building the event.
    func connection(_ connection: DeviceConnection, didRemove transactionID: UInt64)

    /// Asks whether a `.purchasing` transaction should go on in a storefront that changed since its payment was added.
    /// The store asks every listener, in attach order, and goes on only if none says no; the default says yes.
    func connection(
        _ connection: DeviceConnection, shouldContinue transaction: DeviceTransaction, in storefront: Storefront
    ) -> Bool
}

extension DeviceListener {
    /// Passes `.updated([transaction])` to ``connection(_:didProduce:)``.
    public func connection(_ connection: DeviceConnection, didUpdate transaction: DeviceTransaction) {
        self.connection(connection, didProduce: .updated([transaction]))
    }

    /// Passes `transaction` to ``connection(_:didUpdate:)``.
    public func connection(
        _ connection: DeviceConnection, didDecide transaction: DeviceTransaction, record: TransactionRecord?
    ) {
        self.connection(connection, didUpdate: transaction)
    }

    /// Passes `.removed([transactionID])` to ``connection(_:didProduce:)``.
    public func connection(_ connection: DeviceConnection, didRemove transactionID: UInt64) {
        self.connection(connection, didProduce: .removed([transactionID]))
    }

    /// Goes on: a listener with nobody to ask says yes.
    public func connection(
        _ connection: DeviceConnection, shouldContinue transaction: DeviceTransaction, in storefront: Storefront
    ) -> Bool {
        true
    }
}
