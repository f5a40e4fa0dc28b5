import Foundation
public import StoreModels
import Synchronization

extension SimulatedStore {
    /// Reverses a refund, as the App Store does when a granted refund is overturned after a customer dispute
    /// (`REFUND_REVERSED`): the record loses its cancellation date and revocation reason, so receipts and signed
    /// transactions show it as a plain purchase again, and the customer has the content back.
    ///
    /// A subscription whose current period the refund ended gets that period back as it was (decision 66): while the
    /// period is still running it is active again until the same expiration date, with the auto-renew setting the
    /// transaction had, and renews from there; once the period is past it stays expired, as it would have expired at
    /// the end of that period. The renewal date never moves. Every device of the account is then told
    /// ``DeviceEvent/refundReversed(_:)``, which StoreKit 2 passes to `Transaction.updates`, and the change observers
    /// hear ``StoreChange/Kind/refundReversed``.
    ///
    /// - Parameter id: The refunded transaction.
    /// - Returns: The record as it stands after the reversal.
    /// - Throws: `unknownTransaction`, or `invalidAction` for a transaction that was never refunded.
    @discardableResult
    public func reverseRefund(transactionID id: UInt64) throws(StoreSimulatorError) -> TransactionRecord {
        journal?.begin(.operation(.reverseRefund(id)))
        defer { journal?.end() }
        let now = clock.now
        let record = try state.withLock { state throws(StoreSimulatorError) -> TransactionRecord in
            guard var record = state.records[id] else { throw Self.unknownTransaction(id) }
            guard record.state == .purchased, record.cancellationDate != nil, record.revocationReason != nil else {
                throw StoreSimulatorError(
                    .invalidAction,
                    "transaction \(id) (\(record.productID)) was never refunded, so there is no refund to reverse; "
                        + "refund it first")
            }
            record.cancellationDate = nil
            record.revocationReason = nil
            record.revocationPercentage = nil
            state.records[id] = record
            if record.productType == .autoRenewableSubscription,
                let key = try? state.subscriptionKey(forTransaction: id),
                var subscription = state.subscriptions[key],
                subscription.latestRecordID == id, subscription.phase == .expired,
                let end = record.expirationDate
            {
                // The refund ended this period: it gets it back, ending when it always would have.
                subscription.expiresAt = end
                if end > now {
                    subscription.phase = .active
                    subscription.autoRenew = record.autoRenewEnabled
                }
                state.subscriptions[key] = subscription
            }
            if state.changes.isObserved {
                let subscription = (try? state.subscriptionKey(forTransaction: id)).flatMap { state.subscriptions[$0] }
                state.report(.refundReversed, at: now, transactionID: id, subscription: subscription)
            }
            // The members' transactions the refund revoked stay revoked; the family shares the purchase again.
            state.shareWithFamily(
                id, as: record.productType == .nonConsumable ? .oneTimePurchase : .subscribed(resubscribed: false),
                at: now)
            return record
        }
        broadcast(.refundReversed([record.id]), account: record.account)
        tellChanges()
        return record
    }
}
