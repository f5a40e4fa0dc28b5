public import Foundation

/// What makes a product an auto-renewable subscription: its group, level, period and offers.
public struct SubscriptionInfo: Sendable, Hashable, Codable {
    /// The subscription group's identifier.
    public let groupID: String
    /// The level in the group: 1 is the highest service level.
    public let groupLevel: Int
    /// How long one period of the subscription lasts.
    public let period: SubscriptionPeriod
    /// The introductory offer, if any.
    public let introductoryOffer: ProductOffer?
    /// The promotional offers, by identifier order as listed in the configuration.
    public let promotionalOffers: [ProductOffer]
    /// The win-back offers, as listed in the configuration (empty in catalogs stored before the store had them).
    public let winBackOffers: [ProductOffer]
    /// The offers of offer codes, identified by reference name, as listed in the configuration (empty in catalogs
    /// stored before the store had them).
    public let offerCodes: [ProductOffer]
    /// The billing plans a customer may choose, as listed in the configuration; empty when the configuration names
    /// none, and then the subscription is billed up front at the product's price (``plans(price:)``).
    public let billingPlans: [BillingPlan]

    /// Creates subscription information.
    public init(
        groupID: String,
        groupLevel: Int,
        period: SubscriptionPeriod,
        introductoryOffer: ProductOffer? = nil,
        promotionalOffers: [ProductOffer] = [],
        winBackOffers: [ProductOffer] = [],
        offerCodes: [ProductOffer] = [],
        billingPlans: [BillingPlan] = []
    ) {
        self.groupID = groupID
        self.groupLevel = groupLevel
        self.period = period
        self.introductoryOffer = introductoryOffer
        self.promotionalOffers = promotionalOffers
        self.winBackOffers = winBackOffers
        self.offerCodes = offerCodes
        self.billingPlans = billingPlans
    }

    /// Decodes subscription information; a catalog stored before the store had win-back offers or offer codes has
    /// none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        groupID = try container.decode(String.self, forKey: .groupID)
        groupLevel = try container.decode(Int.self, forKey: .groupLevel)
        period = try container.decode(SubscriptionPeriod.self, forKey: .period)
        introductoryOffer = try container.decodeIfPresent(ProductOffer.self, forKey: .introductoryOffer)
        promotionalOffers = try container.decode([ProductOffer].self, forKey: .promotionalOffers)
        winBackOffers = try container.decodeIfPresent([ProductOffer].self, forKey: .winBackOffers) ?? []
        offerCodes = try container.decodeIfPresent([ProductOffer].self, forKey: .offerCodes) ?? []
        billingPlans = try container.decodeIfPresent([BillingPlan].self, forKey: .billingPlans) ?? []
    }

    /// The billing plans a customer may choose for a product of price `price`: the configured ones, or one up-front
    /// plan at that price when the configuration names none.
    public func plans(price: Decimal) -> [BillingPlan] {
        billingPlans.isEmpty ? [BillingPlan(kind: .upFront, price: price)] : billingPlans
    }

    /// The plan of kind `kind` a customer may choose for a product of price `price`, if the subscription offers it.
    public func plan(_ kind: BillingPlan.Kind, price: Decimal) -> BillingPlan? {
        plans(price: price).first { $0.kind == kind }
    }

    /// The promotional offer with the given identifier.
    public func promotionalOffer(identifier: String) -> ProductOffer? {
        promotionalOffers.first { $0.identifier == identifier }
    }

    /// The win-back offer with the given identifier.
    public func winBackOffer(identifier: String) -> ProductOffer? {
        winBackOffers.first { $0.identifier == identifier }
    }

    /// The offer of the offer code with the given reference name.
    public func offerCode(referenceName: String) -> ProductOffer? {
        offerCodes.first { $0.identifier == referenceName }
    }

    /// The promotional or win-back offer with the given identifier, or the offer code's with that reference name: the
    /// offer a transaction's offer identifier names.
    public func offer(identifier: String) -> ProductOffer? {
        promotionalOffer(identifier: identifier) ?? winBackOffer(identifier: identifier)
            ?? offerCode(referenceName: identifier)
    }
}
