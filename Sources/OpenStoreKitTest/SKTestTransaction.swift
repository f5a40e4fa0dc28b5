public import Foundation
public import OpenStoreKit
import StoreModels

/// A transaction of the test environment, as ``SKTestSession/allTransactions()`` lists it: a snapshot taken when listed.
///
/// Its ``identifier`` is what the session's methods take; it is also the number in the `transactionIdentifier` of the
/// payment queue's transaction for the same purchase (`Int(transaction.transactionIdentifier!)`).
public final class SKTestTransaction: NSObject, Sendable {
    /// The identifier to pass to the session's methods.
    public let identifier: Int
    /// The identifier of the first transaction of the purchase: itself, or the first purchase of a subscription for
    /// its renewals.
    public let originalTransactionIdentifier: Int
    /// The product bought.
    public let productIdentifier: String
    /// Purchased, failed or deferred.
    public let state: SKPaymentTransactionState
    /// When it was charged (or asked, while deferred or failed).
    public let purchaseDate: Date
    /// When it was refunded or revoked; `nil` otherwise.
    public let cancelDate: Date?
    /// When the subscription period it pays for ends; `nil` for other products.
    public let expirationDate: Date?
    /// Whether the subscription renews at the end of the period.
    public let autoRenewingEnabled: Bool
    /// Whether an interrupted purchase or a billing issue waits to be resolved
    /// (``SKTestSession/resolveIssueForTransaction(identifier:)``).
    public let hasPurchaseIssue: Bool
    /// Whether a price increase waits for the customer's consent.
    public let isPendingPriceIncreaseConsent: Bool
    /// Whether it waits for a parent's approval (Ask to Buy).
    public let pendingAskToBuyConfirmation: Bool

    init(_ record: TransactionRecord) {
        identifier = Int(truncatingIfNeeded: record.id)
        originalTransactionIdentifier = Int(truncatingIfNeeded: record.originalID)
        productIdentifier = record.productID
        state = SKPaymentTransactionState(rawValue: record.state.rawValue) ?? .failed
        purchaseDate = record.purchaseDate
        cancelDate = record.cancellationDate
        expirationDate = record.expirationDate
        autoRenewingEnabled = record.autoRenewEnabled
        hasPurchaseIssue = record.hasPurchaseIssue
        isPendingPriceIncreaseConsent = record.isPendingPriceIncreaseConsent
        pendingAskToBuyConfirmation = record.pendingAskToBuyConfirmation
    }

    /// `<SKTestTransaction: 1000000000000001 com.example.pro purchased>`.
    public override var description: String {
        "<SKTestTransaction: \(identifier) \(productIdentifier) \(state)>"
    }
}
