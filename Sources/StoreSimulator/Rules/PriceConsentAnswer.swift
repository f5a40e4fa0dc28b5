/// What the customer does when the price-consent sheet of a subscription's price increase is shown
/// (``StoreSettings/priceConsentAnswer``).
public enum PriceConsentAnswer: String, Sendable, Hashable, Codable, CaseIterable {
    /// The customer closes the sheet without answering: the increase keeps waiting for consent.
    case dismiss
    /// The customer agrees to the new price: the subscription renews at it.
    case consent
    /// The customer declines the new price: auto-renew goes off.
    case decline
}
