public import Foundation

extension Transaction {
    /// Why a refund request could not be made.
    public enum RefundRequestError: Error, Equatable, Hashable, Sendable, LocalizedError {
        /// A refund was already requested for the transaction.
        case duplicateRequest
        /// The request failed.
        case failed

        /// A description for people.
        public var errorDescription: String? {
            switch self {
            case .duplicateRequest: "A refund was already requested."
            case .failed: "The refund request failed."
            }
        }
    }

    /// How a refund request ended.
    public enum RefundRequestStatus: Equatable, Hashable, Sendable {
        /// The customer cancelled.
        case userCancelled
        /// The request was sent.
        case success
    }
}
