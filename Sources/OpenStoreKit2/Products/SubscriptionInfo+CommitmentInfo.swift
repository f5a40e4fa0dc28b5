public import Foundation

extension Product.SubscriptionInfo {
    /// The commitment a customer agrees to with a subscription's pricing terms: its length and its whole price
    /// (iOS 26.4). Up front, the commitment is one subscription period at the period's price; billed monthly, it is
    /// twelve months at twelve times the monthly price, unless the configuration says otherwise.
    public struct CommitmentInfo: Equatable, Hashable, Sendable {
        /// The price of the whole commitment, in the storefront's currency (iOS 26.4).
        public let price: Decimal
        /// ``price``, formatted for the storefront (iOS 26.4).
        public let displayPrice: String
        /// How long the commitment lasts (iOS 26.4).
        public let period: Product.SubscriptionPeriod
    }
}
