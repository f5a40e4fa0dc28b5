extension Transaction {
    /// What a transaction made with the Advanced Commerce API carries (iOS 18.4). The simulated store sells no
    /// Advanced Commerce SKUs, so no transaction has one (``Transaction/advancedCommerceInfo`` is always `nil`,
    /// docs/decisions.md 110) and only the members below are declared.
    public struct AdvancedCommerceInfo: Equatable, Hashable, Sendable {
        /// The description of the purchase (iOS 18.4).
        public let description: String?
        /// The display name of the purchase (iOS 18.4).
        public let displayName: String?
        /// The reference identifier of the developer's request (iOS 18.4).
        public let requestReferenceID: String
        /// The tax code of the purchase (iOS 18.4).
        public let taxCode: String
    }
}
