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
    /// Transactions of the account were refunded or revoked: the records, by identifier, in the order the store
    /// refunded them. Every refund is told, a consumable's or an earlier subscription period's included, whether or
    /// not it also revoked an entitlement (``entitlementsRevoked(_:)``). StoreKit 1 has no callback for it.
    case refunded([UInt64])
    /// Refunds of these transactions of the account were reversed (``SimulatedStore/reverseRefund(transactionID:)``):
    /// the records, by identifier, purchased again without a cancellation date. StoreKit 1 has no callback for it.
    case refundReversed([UInt64])
    /// Another device of the account bought these: purchased transactions that the device keeps in
    /// ``DeviceConnection/otherDevicePurchases`` until a front end finishes them. They are not unfinished
    /// transactions of the device's queue, so StoreKit 1 does not see them (as on iOS, where a purchase on another
    /// device reaches only StoreKit 2's `Transaction.updates`).
    case purchasedOnOtherDevice([DeviceTransaction])
    /// The storefront changed.
    case storefrontChanged(Storefront)
    /// Price increases of these subscription products wait for the customer's consent: the app, if it has an
    /// observer, may show the price-consent sheet (``SimulatedStore/showPriceConsent(account:)``).
    case priceConsentNeeded([String])
    /// The customer started a purchase of the product outside the app, in the App Store (a promoted in-app purchase,
    /// or an offer redeemed there), for the app to complete (``SimulatedStore/sendPurchaseIntent(productID:offerID:account:deviceID:)``):
    /// StoreKit 1 asks its observers `paymentQueue(_:shouldAddStorePayment:for:)`, StoreKit 2 emits a
    /// `PurchaseIntent`.
    case purchaseIntent(productID: String, offerID: String?)
}
