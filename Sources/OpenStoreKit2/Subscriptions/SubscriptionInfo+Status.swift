extension Product.SubscriptionInfo {
    /// Where one subscription of a group stands: its renewal state, its latest transaction and its renewal info.
    public struct Status: Equatable, Hashable, Sendable {
        /// The renewal state.
        public let state: Product.SubscriptionInfo.RenewalState
        /// The latest transaction of the subscription.
        public let transaction: VerificationResult<Transaction>
        /// What will happen at the next renewal.
        public let renewalInfo: VerificationResult<Product.SubscriptionInfo.RenewalInfo>
    }
}
