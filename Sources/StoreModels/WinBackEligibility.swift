/// Who may redeem a win-back offer, as App Store Connect configures it: how long the customer paid for a subscription
/// of the group, how long ago the subscription lapsed, how long to wait before redeeming the offer again, and how the
/// App Store ranks the offer against the others.
///
/// Every condition is optional: one the configuration leaves out does not restrict who may redeem the offer.
public struct WinBackEligibility: Sendable, Hashable, Codable {
    /// How the App Store ranks an offer against the group's other win-back offers (App Store Connect's `priority`).
    public enum Priority: String, Sendable, Hashable, Codable {
        /// Preferred over offers of normal priority.
        case high = "HIGH"
        /// The default.
        case normal = "NORMAL"
    }

    /// The fewest months the customer must have paid for subscriptions of the group.
    public var paidSubscriptionDurationInMonths: Int?
    /// The fewest whole months since the customer's subscription lapsed.
    public var minimumMonthsSinceLastSubscribed: Int?
    /// The most whole months since the customer's subscription lapsed.
    public var maximumMonthsSinceLastSubscribed: Int?
    /// The fewest whole months between two redemptions of the offer by one customer.
    public var waitBetweenOffersInMonths: Int?
    /// How the offer ranks against the group's other win-back offers.
    public var priority: Priority

    /// Creates the conditions of a win-back offer.
    public init(
        paidSubscriptionDurationInMonths: Int? = nil,
        minimumMonthsSinceLastSubscribed: Int? = nil,
        maximumMonthsSinceLastSubscribed: Int? = nil,
        waitBetweenOffersInMonths: Int? = nil,
        priority: Priority = .normal
    ) {
        self.paidSubscriptionDurationInMonths = paidSubscriptionDurationInMonths
        self.minimumMonthsSinceLastSubscribed = minimumMonthsSinceLastSubscribed
        self.maximumMonthsSinceLastSubscribed = maximumMonthsSinceLastSubscribed
        self.waitBetweenOffersInMonths = waitBetweenOffersInMonths
        self.priority = priority
    }
}
