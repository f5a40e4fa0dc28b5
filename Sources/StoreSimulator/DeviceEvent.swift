public import StoreModels

/// What a store tells a device.
public enum DeviceEvent: Sendable, Hashable {
    /// Transactions changed state or arrived (purchases, renewals, approvals, restores, purchases made elsewhere).
    case updated([DeviceTransaction])
    /// Finished transactions left the queue.
    case removed([UInt64])
    /// Transactions left the queue without being finished, as a declined Ask to Buy request does.
    case dropped([UInt64])
    /// A restore delivered all its transactions.
    case restoreFinished
    /// A restore failed.
    case restoreFailed(StoreFailure)
    /// The customer lost access to these products (refund, revocation).
    case entitlementsRevoked([String])
    /// The storefront changed.
    case storefrontChanged(Storefront)
    /// Price increases of these subscription products wait for the customer's consent: the app, if it has an
    /// observer, may show the price-consent sheet (``SimulatedStore/showPriceConsent(account:)``).
    case priceConsentNeeded([String])
}
