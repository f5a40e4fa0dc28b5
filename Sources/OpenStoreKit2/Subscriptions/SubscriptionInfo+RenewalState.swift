extension Product.SubscriptionInfo {
    /// The renewal state of a subscription.
    public struct RenewalState: RawRepresentable, Equatable, Hashable, Sendable {
        /// The state's number, as Apple's status API numbers it (1 subscribed ... 5 revoked).
        public let rawValue: Int

        /// Creates a state from its number.
        ///
        /// - Parameter rawValue: The number.
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// Paid and running.
        public static let subscribed = RenewalState(rawValue: 1)
        /// Ended.
        public static let expired = RenewalState(rawValue: 2)
        /// A renewal failed and billing is retried; no access.
        public static let inBillingRetryPeriod = RenewalState(rawValue: 3)
        /// A renewal failed and billing is retried; access goes on until the grace period ends.
        public static let inGracePeriod = RenewalState(rawValue: 4)
        /// Refunded or revoked.
        public static let revoked = RenewalState(rawValue: 5)
    }
}
