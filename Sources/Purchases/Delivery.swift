public import Foundation

/// A transaction whose content the app must deliver before it is finished.
public struct Delivery: Sendable, Hashable {
    /// Why the transaction arrived.
    public enum Source: String, Sendable, Hashable {
        /// The app's own purchase call.
        case purchase
        /// A restore.
        case restore
        /// Anything else: a renewal, an approved Ask to Buy request, a purchase made outside the app, a resolved
        /// billing issue, or a transaction redelivered after a restart.
        case update
    }

    /// The product.
    public let productID: String
    /// The transaction identifier.
    public let transactionID: String
    /// The original transaction's identifier, for restored transactions.
    public let originalTransactionID: String?
    /// How many.
    public let quantity: Int
    /// When the store charged or restored it.
    public let date: Date?
    /// Why it arrived.
    public let source: Source

    /// Creates a delivery.
    public init(
        productID: String,
        transactionID: String,
        originalTransactionID: String?,
        quantity: Int,
        date: Date?,
        source: Source
    ) {
        self.productID = productID
        self.transactionID = transactionID
        self.originalTransactionID = originalTransactionID
        self.quantity = quantity
        self.date = date
        self.source = source
    }
}
