extension Product.SubscriptionInfo.RenewalInfo {
    /// The renewal of a subscription sold with the Advanced Commerce API (iOS 18.4). The simulated store sells no
    /// Advanced Commerce SKUs, so no renewal info has one
    /// (``Product/SubscriptionInfo/RenewalInfo/advancedCommerceInfo`` is always `nil`, docs/decisions.md 110) and
    /// only the member below is declared.
    public struct AdvancedCommerceInfo: Equatable, Hashable, Sendable {
        /// The subscription's period (iOS 18.4).
        public let period: Product.SubscriptionPeriod
    }
}
