/// A store operation that a test can make fail on purpose: one list for StoreKit 1 and StoreKit 2, so that a failure
/// set through either face is the one both see, and clearing it through either clears it.
public enum StoreAPI: String, Sendable, Hashable, Codable, CaseIterable {
    /// Loading products (`SKProductsRequest`).
    case loadProducts
    /// Buying (`SKPaymentQueue.add(_:)`).
    case purchase
    /// Restoring completed transactions (App Store sync: `AppStore.sync()` too).
    case restore
    /// Refreshing the app receipt (`SKReceiptRefreshRequest`), and the app transaction (`AppTransaction.shared`).
    case receiptRefresh
    /// Verifying signed values (StoreKit 2: every signed value comes back unverified).
    case verification
    /// Subscription statuses (StoreKit 2).
    case subscriptionStatus
    /// The manage-subscriptions sheet (StoreKit 2).
    case manageSubscriptions
    /// Refund requests (StoreKit 2).
    case refundRequest
    /// The offer-code redemption sheet (StoreKit 2).
    case offerCodeRedeem
}
