public import Foundation

extension Product.SubscriptionInfo {
    /// The price charged at each billing event, and the period between renewals (iOS 27.3).
    public struct BillingInfo: Equatable, Hashable, Sendable {
        /// The price charged at each billing event, in the storefront's currency (iOS 27.3).
        public let price: Decimal
        /// ``price``, formatted for the storefront (iOS 27.3).
        public let displayPrice: String
        /// The period between renewals of the subscription (iOS 27.3).
        public let period: Product.SubscriptionInfo.BillingPeriod
    }
}
