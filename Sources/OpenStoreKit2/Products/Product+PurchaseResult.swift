extension Product {
    /// How a purchase ended.
    public enum PurchaseResult: Sendable {
        /// The purchase went through: the signed transaction, to verify, deliver and finish.
        case success(VerificationResult<Transaction>)
        /// The customer cancelled.
        case userCancelled
        /// A parent must approve it (Ask to Buy); an approval arrives through ``Transaction/updates``.
        case pending
    }
}
