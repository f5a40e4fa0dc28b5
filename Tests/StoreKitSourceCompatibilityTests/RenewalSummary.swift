import StoreKit

/// A summary of a customer's subscription written with the top-level names StoreKit gives its subscription types
/// (iOS 18.4): `SubscriptionInfo`, `SubscriptionPeriod`, `SubscriptionStatus`, `SubscriptionRenewalInfo` and
/// `SubscriptionRenewalState`, as code written for iOS 18.4 uses them.
struct RenewalSummary {
    let period: SubscriptionPeriod
    let state: SubscriptionRenewalState
    let willAutoRenew: Bool

    /// The summary of the first status of a subscription, or nil when the customer never subscribed.
    static func load(for subscription: SubscriptionInfo) async throws -> RenewalSummary? {
        let statuses: [SubscriptionStatus] = try await subscription.status
        guard let status = statuses.first else { return nil }
        let renewalInfo: SubscriptionRenewalInfo = try status.renewalInfo.payloadValue
        return RenewalSummary(
            period: subscription.subscriptionPeriod, state: status.state, willAutoRenew: renewalInfo.willAutoRenew)
    }

    /// Whether the customer has the subscription's service now.
    var isActive: Bool { state == .subscribed || state == .inGracePeriod }
}
