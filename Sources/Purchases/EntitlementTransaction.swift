public import Foundation

/// One purchase as a verified receipt lists it: what entitlements are computed from.
public struct EntitlementTransaction: Sendable, Hashable {
    /// The product.
    public let productID: String
    /// The transaction identifier.
    public let transactionID: String
    /// The original transaction identifier.
    public let originalTransactionID: String
    /// When it was charged.
    public let purchaseDate: Date
    /// When the subscription period it pays for ends; `nil` for non-subscriptions.
    public let expiresDate: Date?
    /// When it was refunded or revoked.
    public let cancellationDate: Date?
    /// Whether the period is a free trial.
    public let isTrialPeriod: Bool
    /// Whether the period is a paid introductory offer.
    public let isInIntroOfferPeriod: Bool

    /// Creates an entitlement transaction.
    public init(
        productID: String,
        transactionID: String,
        originalTransactionID: String,
        purchaseDate: Date,
        expiresDate: Date?,
        cancellationDate: Date?,
        isTrialPeriod: Bool,
        isInIntroOfferPeriod: Bool
    ) {
        self.productID = productID
        self.transactionID = transactionID
        self.originalTransactionID = originalTransactionID
        self.purchaseDate = purchaseDate
        self.expiresDate = expiresDate
        self.cancellationDate = cancellationDate
        self.isTrialPeriod = isTrialPeriod
        self.isInIntroOfferPeriod = isInIntroOfferPeriod
    }
}
