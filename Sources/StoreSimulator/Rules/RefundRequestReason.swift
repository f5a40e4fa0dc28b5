/// Why a customer asks for a refund, as the App Store tells the developer in a `CONSUMPTION_REQUEST` notification
/// (`consumptionRequestReason`); the raw values are Apple's.
public enum RefundRequestReason: String, Sendable, Hashable, Codable, CaseIterable {
    /// The customer did not mean to buy it.
    case unintendedPurchase = "UNINTENDED_PURCHASE"
    /// The purchase was not delivered, or did not work.
    case fulfillmentIssue = "FULFILLMENT_ISSUE"
    /// The customer is not satisfied with it.
    case unsatisfiedWithPurchase = "UNSATISFIED_WITH_PURCHASE"
    /// A legal reason.
    case legal = "LEGAL"
    /// Another reason.
    case other = "OTHER"
}
