/// How a purchase ended.
public enum PurchaseOutcome: Sendable, Hashable {
    /// Charged, delivered and finished.
    case purchased(Delivery)
    /// The customer cancelled.
    case cancelled
    /// Waiting for someone else (Ask to Buy); the final outcome arrives later through ``PurchaseController/updates``.
    case pending
}
