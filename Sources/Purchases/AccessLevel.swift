public import Foundation

/// What a user may use, such as `premium`, and until when.
public struct AccessLevel: Sendable, Hashable, Codable {
    /// The access level's identifier.
    public let id: String
    /// Whether it is active now.
    public let isActive: Bool
    /// When it ends; `nil` for lifetime access (a non-consumable) or when never granted.
    public let expiresAt: Date?
    /// The product that grants it (the one that lasts longest).
    public let vendorProductId: String?
    /// Whether the granting subscription is in a billing grace period (access kept while billing is retried).
    public let isInGracePeriod: Bool
    /// Whether the granting subscription is in billing retry (no access while billing is retried).
    public let isInBillingRetry: Bool
    /// Whether the current period is a free trial.
    public let isTrial: Bool
    /// Whether the current period is a paid introductory offer.
    public let isIntroOffer: Bool
    /// When the granting purchase was refunded, if it was.
    public let refundedAt: Date?

    /// Creates an access level.
    public init(
        id: String,
        isActive: Bool,
        expiresAt: Date?,
        vendorProductId: String? = nil,
        isInGracePeriod: Bool = false,
        isInBillingRetry: Bool = false,
        isTrial: Bool = false,
        isIntroOffer: Bool = false,
        refundedAt: Date? = nil
    ) {
        self.id = id
        self.isActive = isActive
        self.expiresAt = expiresAt
        self.vendorProductId = vendorProductId
        self.isInGracePeriod = isInGracePeriod
        self.isInBillingRetry = isInBillingRetry
        self.isTrial = isTrial
        self.isIntroOffer = isIntroOffer
        self.refundedAt = refundedAt
    }
}
