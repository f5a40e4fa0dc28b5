public import Foundation

/// One subscription product in a profile.
public struct SubscriptionStatus: Sendable, Hashable, Codable {
    /// The product.
    public let vendorProductId: String
    /// Whether it is active now.
    public let isActive: Bool
    /// When the latest period ends.
    public let expiresAt: Date?
    /// Whether the latest period is a free trial.
    public let isTrial: Bool
    /// Whether the latest period is a paid introductory offer.
    public let isIntroOffer: Bool
    /// Whether it was refunded or revoked.
    public let isRefunded: Bool

    /// Creates a subscription status.
    public init(
        vendorProductId: String,
        isActive: Bool,
        expiresAt: Date?,
        isTrial: Bool = false,
        isIntroOffer: Bool = false,
        isRefunded: Bool = false
    ) {
        self.vendorProductId = vendorProductId
        self.isActive = isActive
        self.expiresAt = expiresAt
        self.isTrial = isTrial
        self.isIntroOffer = isIntroOffer
        self.isRefunded = isRefunded
    }
}
