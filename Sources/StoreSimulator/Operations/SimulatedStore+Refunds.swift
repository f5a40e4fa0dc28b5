import Foundation
public import StoreModels
import Synchronization

extension SimulatedStore {
    /// Refunds a purchased transaction, as `SKTestSession.refundTransaction(identifier:)` does: always approved, at
    /// once. The record gets a cancellation date and reason.
    ///
    /// Refunding the current period of a running subscription ends the subscription. Whenever the refund leaves the
    /// customer without the product (a non-consumable not owned through another purchase, a subscription period that
    /// is current or of a subscription that has ended), every device of the account is told the product was revoked
    /// (`paymentQueue(_:didRevokeEntitlementsForProductIdentifiers:)`). Refunding a consumable, a non-renewing
    /// subscription or an earlier period of a running subscription revokes nothing (see docs/decisions.md). Every
    /// refund, whatever it revokes, is then told to every device of the account as ``DeviceEvent/refunded(_:)``, which
    /// StoreKit 2 passes to `Transaction.updates`.
    ///
    /// A prorated refund (`percentage`, as the App Store grants one after `GRANT_PRORATED`) revokes the transaction
    /// as a full one does (decision 104); only its signed transaction differs: `revocationType` `REFUND_PRORATED` and
    /// the `revocationPercentage` given, where a full refund has `REFUND_FULL` and 100,000.
    ///
    /// - Parameters:
    ///   - id: A purchased transaction, not refunded yet.
    ///   - reason: Why (`revocationReason`).
    ///   - percentage: The share refunded, in thousandths of a percent, in
    ///     `TransactionRecord.revocationPercentageRange`; `nil` (the default) refunds in full.
    /// - Throws: `unknownTransaction`, or `invalidAction` for a transaction that is not purchased or was already
    ///   refunded, or a percentage outside the range.
    @discardableResult
    public func refund(
        _ id: UInt64,
        reason: TransactionRecord.RevocationReason = .other,
        percentage: Int? = nil
    ) throws(StoreSimulatorError) -> TransactionRecord {
        if let percentage, !TransactionRecord.revocationPercentageRange.contains(percentage) {
            throw StoreSimulatorError(
                .invalidAction,
                "a prorated refund's percentage is 1 to 100000 (thousandths of a percent), not \(percentage)")
        }
        journal?.begin(.operation(.refund(id, reason: reason, percentage: percentage)))
        defer { journal?.end() }
        let now = clock.now
        let (record, revoked) = try state.withLock {
            state throws(StoreSimulatorError) -> (TransactionRecord, [String]) in
            guard var record = state.records[id] else { throw Self.unknownTransaction(id) }
            guard record.state == .purchased else {
                throw StoreSimulatorError(
                    .invalidAction,
                    "transaction \(id) is \(record.state.name); only purchased transactions can be refunded"
                )
            }
            guard record.cancellationDate == nil else {
                throw StoreSimulatorError(.invalidAction, "transaction \(id) was already refunded or cancelled")
            }
            if let source = record.sharedFromID {
                throw StoreSimulatorError(
                    .invalidAction,
                    "transaction \(id) is shared through Family Sharing by transaction \(source); refund that one, "
                        + "or take the account out of the family")
            }
            record.cancellationDate = now
            record.revocationReason = reason
            record.revocationPercentage = percentage
            state.records[id] = record
            var revoked: [String] = []
            switch record.productType {
            case .nonConsumable:
                let stillOwned = state.ownedRecord(of: record.account, productID: record.productID) != nil
                if !stillOwned { revoked = [record.productID] }
            case .autoRenewableSubscription:
                if let key = try? state.subscriptionKey(forTransaction: id),
                    var subscription = state.subscriptions[key],
                    subscription.phase != .expired
                {
                    // Refunding an earlier period leaves the current one, which still grants access.
                    if subscription.latestRecordID == id {
                        var outcome = SubscriptionOutcome()
                        state.expire(&subscription, at: now, reason: .refunded, into: &outcome)
                        state.subscriptions[key] = subscription
                        revoked = [record.productID]
                    }
                } else {
                    revoked = [record.productID]
                }
            case .consumable, .nonRenewingSubscription:
                break
            }
            if state.changes.isObserved {
                let subscription = (try? state.subscriptionKey(forTransaction: id)).flatMap { state.subscriptions[$0] }
                state.report(.refunded(reason), at: now, transactionID: id, subscription: subscription)
            }
            state.revokeShares(of: id, at: now)
            return (record, revoked)
        }
        if !revoked.isEmpty { broadcast(.entitlementsRevoked(revoked), account: record.account) }
        broadcast(.refunded([record.id]), account: record.account)
        tellChanges()
        return record
    }

    /// The customer asks for a refund of a purchased transaction, as from the App Store's Report a Problem page: the
    /// change observers hear it (the App Store server sends `CONSUMPTION_REQUEST`); nothing else changes until the App
    /// Store decides, with ``refund(_:reason:percentage:)`` or ``declineRefund(_:)``. The store does not keep the request.
    ///
    /// - Throws: `unknownTransaction`, or `invalidAction` for a transaction that is not purchased or was already
    ///   refunded.
    public func requestRefund(_ id: UInt64, reason: RefundRequestReason = .unsatisfiedWithPurchase)
        throws(StoreSimulatorError)
    {
        journal?.begin(.operation(.requestRefund(id, reason: reason)))
        defer { journal?.end() }
        try reportRefundDecision(.refundRequested(reason), of: id)
    }

    /// The App Store declines a refund the customer asked for: the transaction stays purchased, and the change
    /// observers hear it (the App Store server sends `REFUND_DECLINED`).
    ///
    /// - Throws: as ``requestRefund(_:reason:)``.
    public func declineRefund(_ id: UInt64) throws(StoreSimulatorError) {
        journal?.begin(.operation(.declineRefund(id)))
        defer { journal?.end() }
        try reportRefundDecision(.refundDeclined, of: id)
    }

    private func reportRefundDecision(_ kind: StoreChange.Kind, of id: UInt64) throws(StoreSimulatorError) {
        let now = clock.now
        try state.withLock { state throws(StoreSimulatorError) in
            guard let record = state.records[id] else { throw Self.unknownTransaction(id) }
            guard record.state == .purchased, record.cancellationDate == nil else {
                throw StoreSimulatorError(
                    .invalidAction,
                    "transaction \(id) is \(record.cancellationDate == nil ? record.state.name : "refunded"); a refund "
                        + "can be asked for or declined only for a purchased transaction not yet refunded")
            }
            guard state.changes.isObserved else { return }
            let subscription = (try? state.subscriptionKey(forTransaction: id)).flatMap { state.subscriptions[$0] }
            state.report(kind, at: now, transactionID: id, subscription: subscription)
        }
        tellChanges()
    }
}
