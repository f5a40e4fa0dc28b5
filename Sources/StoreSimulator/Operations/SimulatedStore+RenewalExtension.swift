public import Foundation
import StoreModels
import Synchronization

extension SimulatedStore {
    /// Moves the renewal date of an active subscription later, as the App Store Server API's Extend a Subscription
    /// Renewal Date does: the current period (its latest transaction's expiration date) ends `interval` later, at no
    /// charge, and renewals go on from the new date.
    ///
    /// A durable store records the extension in its journal, so a store reopened from the file has the new renewal
    /// date.
    ///
    /// - Parameters:
    ///   - originalID: The subscription's original transaction.
    ///   - interval: How much later, positive.
    /// - Returns: The subscription as it stands after the extension.
    /// - Throws: `unknownTransaction`, `noSubscription` when no running subscription has that original transaction,
    ///   `invalidAction` when it is not active (grace period, billing retry) or `interval` is not positive,
    ///   `dateOutOfRange` when the new renewal date would be past `ManualClock.latestDate`.
    @discardableResult
    public func extendRenewalDate(originalID: UInt64, by interval: TimeInterval) throws(StoreSimulatorError)
        -> SubscriptionState
    {
        guard interval > 0, interval.isFinite else {
            throw StoreSimulatorError(.invalidAction, "an extension must move the renewal date later")
        }
        journal?.begin(.extendRenewalDate(originalID: originalID, by: interval))
        defer { journal?.end() }
        let now = clock.now
        let extended = try state.withLock { state throws(StoreSimulatorError) -> SubscriptionState in
            guard state.records[originalID] != nil else { throw Self.unknownTransaction(originalID) }
            guard let found = state.subscriptions.values(originalID: originalID).first else {
                throw StoreSimulatorError(.noSubscription, "transaction \(originalID) begins no subscription")
            }
            let key = StoreState.subscriptionKey(account: found.account, groupID: found.groupID)
            var subscription = found
            guard subscription.phase == .active else {
                throw StoreSimulatorError(
                    .invalidAction, "the subscription of \(originalID) is \(subscription.phase.rawValue), not active")
            }
            guard interval <= ManualClock.latestDate.timeIntervalSince(subscription.expiresAt) else {
                throw StoreSimulatorError(
                    .dateOutOfRange,
                    "extending the subscription of \(originalID) by \(interval) seconds would move its renewal date "
                        + "past \(ManualClock.latestDate.ISO8601Format()), the latest time the store's clock can show")
            }
            subscription.expiresAt += interval
            subscription.periodAnchor = nil
            subscription.periodsSinceAnchor = 0
            if var latest = state.records[subscription.latestRecordID] {
                latest.expirationDate = subscription.expiresAt
                state.records[latest.id] = latest
                state.mirrorShares(of: latest.id)
            }
            state.subscriptions[key] = subscription
            state.report(.renewalDateExtended(seconds: interval), at: now, of: subscription)
            return subscription
        }
        tellChanges()
        return extended
    }
}
