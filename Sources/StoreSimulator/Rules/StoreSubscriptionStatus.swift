/// Where an account's auto-renewable subscription stands, in Apple's terms: the one answer the App Store Server API's
/// Get All Subscription Statuses and its notifications (`status`), StoreKit 2's `Product.SubscriptionInfo.Status`
/// (`state`) and the store's own checks all give (``SimulatedStore/subscriptionStatuses(of:groupID:)``).
///
/// An account has one status per subscription it has: its own subscription in a group, and each subscription a family
/// member shares with it. A shared subscription's status follows the purchaser's subscription while the account's
/// latest shared transaction of it is that subscription's current period; it is ``Code/revoked`` once Family Sharing
/// took it back, and ``Code/expired`` when the purchaser's subscription has moved on without it.
public struct StoreSubscriptionStatus: Sendable, Hashable {
    /// Apple's status of a subscription (`status` 1 to 5).
    public enum Code: Int, Sendable, Hashable, CaseIterable {
        /// 1: active (StoreKit 2's `subscribed`).
        case active = 1
        /// 2: expired.
        case expired = 2
        /// 3: in billing retry, without access.
        case billingRetry = 3
        /// 4: in a billing grace period, with access.
        case gracePeriod = 4
        /// 5: revoked (refunded, or taken back by Family Sharing).
        case revoked = 5

        /// Whether the status grants access: active or in a billing grace period.
        public var grantsAccess: Bool { self == .active || self == .gracePeriod }
    }

    /// The subscription group.
    public let groupID: String
    /// The original transaction of the account's own chain of the subscription (for a shared subscription, the
    /// account's first shared transaction of it).
    public let originalID: UInt64
    /// The account's latest transaction of the subscription: its own current period, or its latest shared one.
    public let transactionID: UInt64
    /// Where it stands.
    public let code: Code
    /// Whether the subscription is a family member's, shared with the account.
    public let isFamilyShared: Bool

    /// Creates a status.
    public init(groupID: String, originalID: UInt64, transactionID: UInt64, code: Code, isFamilyShared: Bool) {
        self.groupID = groupID
        self.originalID = originalID
        self.transactionID = transactionID
        self.code = code
        self.isFamilyShared = isFamilyShared
    }
}
