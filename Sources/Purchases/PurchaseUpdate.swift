/// Something that happened without a pending call: what ``PurchaseController/updates`` yields.
public enum PurchaseUpdate: Sendable, Hashable {
    /// A transaction arrived and was delivered and finished: a renewal, an approved Ask to Buy request, a purchase
    /// made outside the app, a transaction redelivered after a restart.
    case delivered(Delivery)
    /// A transaction that arrived without a pending call failed.
    case failed(productID: String, PurchasesError)
    /// Entitlements to these products were revoked (a refund).
    case revoked([String])
}
