public import Foundation
public import StoreModels

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
    /// When it was refunded, revoked or replaced by an upgrade.
    public let cancellationDate: Date?
    /// Whether the cancellation is an upgrade within the subscription group (the customer moved to a higher level),
    /// not a refund.
    public let isUpgraded: Bool
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
        isInIntroOfferPeriod: Bool,
        isUpgraded: Bool = false
    ) {
        self.productID = productID
        self.transactionID = transactionID
        self.originalTransactionID = originalTransactionID
        self.purchaseDate = purchaseDate
        self.expiresDate = expiresDate
        self.cancellationDate = cancellationDate
        self.isTrialPeriod = isTrialPeriod
        self.isInIntroOfferPeriod = isInIntroOfferPeriod
        self.isUpgraded = isUpgraded
    }

    /// The facts `ProductAccess` computes access from.
    public var accessPurchase: ProductAccess.Purchase {
        ProductAccess.Purchase(
            purchaseDate: purchaseDate, expiresDate: expiresDate, cancellationDate: cancellationDate,
            isUpgraded: isUpgraded)
    }
}
