public import Foundation

/// An unfinished transaction in one device's payment queue, as the store keeps it until the app finishes it.
///
/// It outlives the process: a queue reopened for the same device gets it again.
public struct DeviceTransaction: Sendable, Hashable, Codable, Identifiable {
    /// The transaction identifier (the store's, for every state).
    public let id: UInt64
    /// The payment the app added, or the store made for a purchase that came from outside the app.
    public let payment: PaymentRequest
    /// The transaction's state.
    public var state: TransactionState
    /// When it was added to the store's queue; set once purchased or restored.
    public var transactionDate: Date?
    /// The transaction it restores, for restored transactions.
    public var originalID: UInt64?
    /// The identifier of the purchase history record it reports.
    public var recordID: UInt64?
    /// Why it failed, for failed transactions.
    public var failure: StoreFailure?
    /// Whether it belongs to a restore that is still being delivered.
    public var restoreBatch: UInt64?

    /// Creates a device transaction.
    public init(id: UInt64, payment: PaymentRequest, state: TransactionState) {
        self.id = id
        self.payment = payment
        self.state = state
    }
}
