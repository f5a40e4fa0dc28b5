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

    /// Creates subscription information.
    public init(
        groupID: String,
        groupLevel: Int,
        period: SubscriptionPeriod,
        introductoryOffer: ProductOffer? = nil,
        promotionalOffers: [ProductOffer] = []
    ) {
        self.groupID = groupID
        self.groupLevel = groupLevel
        self.period = period
        self.introductoryOffer = introductoryOffer
        self.promotionalOffers = promotionalOffers
    }

    /// The promotional offer with the given identifier.
    public func promotionalOffer(identifier: String) -> ProductOffer? {
        promotionalOffers.first { $0.identifier == identifier }
    }
}
