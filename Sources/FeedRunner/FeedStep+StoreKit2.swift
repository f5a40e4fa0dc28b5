extension FeedStep {
    /// An `sk2 ...` step: what the app does through StoreKit 2 on the current user's device.
    public enum StoreKit2Step: Sendable, Hashable {
        /// `sk2 listen`: the app starts iterating `Transaction.updates`; every update is logged (`sk2-update`).
        case listen
        /// `sk2 buy PRODUCT [quantity N] [ask-to-buy] [as HANDLE]`: `Product.purchase(options:)`.
        case buy(product: String, quantity: Int, askToBuy: Bool, handle: String?)
        /// `sk2 finish REF`: `Transaction.finish()`.
        case finish(Reference)
    }

    /// An `expect sk2 ...` expectation.
    public enum StoreKit2Expectation: Sendable, Hashable {
        /// `expect sk2 result REF success|cancelled|pending|failed`: how the purchase ended.
        case result(Reference, String)
        /// `expect sk2 updates [P1 P2 ...]`: the products of the updates the listener heard, in order (none if empty).
        case updates([String])
        /// `expect sk2 entitlements [P1 P2 ...]`: the products of `Transaction.currentEntitlements`, in order.
        case entitlements([String])
        /// `expect sk2 status GROUP subscribed|expired|billing-retry|grace-period|revoked|none`.
        case status(String, String)
        /// `expect sk2 verified REF` / `expect sk2 unverified REF`: the verification outcome of the transaction.
        case verified(Reference, Bool)
        /// `expect sk2 unfinished N`: `Transaction.unfinished` holds N transactions.
        case unfinished(Int)
    }
}
