import Foundation
import StoreModels
import Synchronization

extension SimulatedStore {
    /// The subscription of an account in a group, if it ever subscribed there (expired ones included).
    public func subscription(groupID: String, account: String = SimulatedStore.defaultAccount) -> SubscriptionState? {
        state.withLock { $0.subscriptions[StoreState.subscriptionKey(account: account, groupID: groupID)] }
    }

    /// The subscriptions of an account, one per group, by group identifier.
    public func subscriptions(of account: String = SimulatedStore.defaultAccount) -> [SubscriptionState] {
        state.withLock { state in
            state.subscriptions.values(of: account).sorted { $0.groupID < $1.groupID }
        }
    }

    /// Ends a subscription now, as `SKTestSession.expireSubscription(productIdentifier:)` does: auto-renew goes off and
    /// the current period's expiration date becomes now.
    ///
    /// - Throws: `unknownProduct`, `invalidProductType` for a product that is not an auto-renewable subscription, or
    ///   `noSubscription` if the account has no running subscription to it.
    @discardableResult
    public func expireSubscription(productID: String, account: String = SimulatedStore.defaultAccount)
        throws(StoreSimulatorError) -> [SubscriptionEvent]
    {
        journal?.begin(.operation(.expireSubscription(productID: productID, account: account)))
        defer { journal?.end() }
        let now = clock.now
        let outcome = try state.withLock { state throws(StoreSimulatorError) -> SubscriptionOutcome in
            let key = try state.runningSubscriptionKey(productID: productID, account: account)
            guard var subscription = state.subscriptions[key] else { return SubscriptionOutcome() }
            var outcome = SubscriptionOutcome()
            state.expire(&subscription, at: now, reason: .expiredByTest, into: &outcome)
            state.subscriptions[key] = subscription
            return outcome
        }
        dispatch(outcome)
        return outcome.events
    }

    /// Ends the current period now and renews, as `SKTestSession.forceRenewalOfSubscription(productIdentifier:)` does:
    /// auto-renew goes on, a pending price increase is dropped, and the renewal goes as a scheduled one would (it fails
    /// into billing retry while `billingRetryOnRenewal` is on). In grace period or billing retry, billing is retried now.
    ///
    /// - Throws: `unknownProduct`, `invalidProductType` or `noSubscription`.
    @discardableResult
    public func forceRenewal(productID: String, account: String = SimulatedStore.defaultAccount)
        throws(StoreSimulatorError) -> [SubscriptionEvent]
    {
        journal?.begin(.operation(.forceRenewal(productID: productID, account: account)))
        defer { journal?.end() }
        let now = clock.now
        let outcome = try state.withLock { state throws(StoreSimulatorError) -> SubscriptionOutcome in
            let key = try state.runningSubscriptionKey(productID: productID, account: account)
            guard var subscription = state.subscriptions[key] else { return SubscriptionOutcome() }
            let deviceIDs = state.deviceIDs(of: account)
            var outcome = SubscriptionOutcome()
            if subscription.phase == .active {
                let latestID = subscription.latestRecordID
                subscription.autoRenew = true
                subscription.pendingPriceIncrease = false
                subscription.expiresAt = now
                state.records[latestID]?.autoRenewEnabled = true
                state.records[latestID]?.isPendingPriceIncreaseConsent = false
                if let end = state.records[latestID]?.expirationDate, end > now {
                    state.records[latestID]?.expirationDate = now
                }
                if state.settings.billingRetryOnRenewal {
                    state.enterBillingRetry(&subscription, at: now, into: &outcome)
                } else {
                    state.renew(
                        &subscription,
                        chargedAt: now,
                        periodStart: now,
                        restartsPeriods: true,
                        kind: .renewed,
                        deviceIDs: deviceIDs,
                        into: &outcome
                    )
                }
            } else {
                state.retryBilling(&subscription, at: now, deviceIDs: deviceIDs, into: &outcome)
            }
            state.subscriptions[key] = subscription
            return outcome
        }
        dispatch(outcome)
        return outcome.events
    }

    /// Turns auto-renew on or off for the subscription a transaction belongs to. Off, it expires at the end of the
    /// current period.
    ///
    /// - Throws: `unknownTransaction`, `invalidProductType` for a transaction that is not of an auto-renewable
    ///   subscription, `noSubscription` if its subscription was replaced, or `invalidAction` if it expired.
    public func setAutoRenew(_ enabled: Bool, transactionID: UInt64) throws(StoreSimulatorError) {
        journal?.begin(.operation(.setAutoRenew(enabled, transactionID: transactionID)))
        defer { journal?.end() }
        let now = clock.now
        try state.withLock { state throws(StoreSimulatorError) in
            let key = try state.subscriptionKey(forTransaction: transactionID)
            guard var subscription = state.subscriptions[key] else { return }
            guard subscription.phase != .expired else {
                throw StoreSimulatorError(
                    .invalidAction,
                    "the subscription of transaction \(transactionID) has expired; buy it again to resubscribe"
                )
            }
            let changed = subscription.autoRenew != enabled
            subscription.autoRenew = enabled
            state.records[subscription.latestRecordID]?.autoRenewEnabled = enabled
            state.records[transactionID]?.autoRenewEnabled = enabled
            state.subscriptions[key] = subscription
            if changed { state.report(.autoRenewChanged(enabled: enabled), at: now, of: subscription) }
        }
        tellChanges()
    }

    /// Marks a price increase of the subscription a transaction belongs to as waiting for the customer's consent. Unless
    /// the customer consents before the end of the period, the subscription then expires. The account's open devices
    /// hear `.priceConsentNeeded` (see ``showPriceConsent(account:)``).
    ///
    /// - Throws: as ``setAutoRenew(_:transactionID:)``.
    public func requestPriceIncreaseConsent(_ transactionID: UInt64) throws(StoreSimulatorError) {
        journal?.begin(.operation(.requestPriceIncreaseConsent(transactionID)))
        defer { journal?.end() }
        let account = try changePriceIncrease(transactionID, expectPending: false, change: .priceIncreaseRequested) {
            subscription in
            subscription.pendingPriceIncrease = true
        }
        if let account { announcePriceConsent(account: account) }
        tellChanges()
    }

    /// The customer consents to the pending price increase: the subscription renews at the end of the period.
    ///
    /// - Throws: as ``setAutoRenew(_:transactionID:)``, or `invalidAction` if no price increase is pending.
    public func consentToPriceIncrease(_ transactionID: UInt64) throws(StoreSimulatorError) {
        journal?.begin(.operation(.consentToPriceIncrease(transactionID)))
        defer { journal?.end() }
        _ = try changePriceIncrease(transactionID, expectPending: true, change: .priceIncreaseConsented) {
            subscription in
            subscription.pendingPriceIncrease = false
        }
        tellChanges()
    }

    /// The customer declines the pending price increase: auto-renew goes off, so the subscription expires at the end of
    /// the period.
    ///
    /// - Throws: as ``setAutoRenew(_:transactionID:)``, or `invalidAction` if no price increase is pending.
    public func declinePriceIncrease(_ transactionID: UInt64) throws(StoreSimulatorError) {
        journal?.begin(.operation(.declinePriceIncrease(transactionID)))
        defer { journal?.end() }
        _ = try changePriceIncrease(transactionID, expectPending: true, change: .priceIncreaseDeclined) {
            subscription in
            subscription.pendingPriceIncrease = false
            subscription.autoRenew = false
        }
        tellChanges()
    }

    private func changePriceIncrease(
        _ transactionID: UInt64,
        expectPending: Bool,
        change kind: StoreChange.Kind,
        apply change: (inout SubscriptionState) -> Void
    ) throws(StoreSimulatorError) -> String? {
        let now = clock.now
        return try state.withLock { state throws(StoreSimulatorError) -> String? in
            let key = try state.subscriptionKey(forTransaction: transactionID)
            guard var subscription = state.subscriptions[key] else { return nil }
            guard subscription.phase != .expired else {
                throw StoreSimulatorError(
                    .invalidAction, "the subscription of transaction \(transactionID) has expired")
            }
            if expectPending, !subscription.pendingPriceIncrease {
                throw StoreSimulatorError(
                    .invalidAction,
                    "no price increase waits for consent on the subscription of transaction \(transactionID); "
                        + "request one first"
                )
            }
            change(&subscription)
            let latestID = subscription.latestRecordID
            state.records[latestID]?.isPendingPriceIncreaseConsent = subscription.pendingPriceIncrease
            state.records[latestID]?.autoRenewEnabled = subscription.autoRenew
            state.subscriptions[key] = subscription
            state.report(kind, at: now, of: subscription)
            return subscription.account
        }
    }

    /// Tells the change observers of what was applied, then sends the transactions of an outcome to their devices,
    /// on the lane.
    func dispatch(_ outcome: SubscriptionOutcome) {
        tellChanges()
        for delivery in outcome.deliveries { send(.updated([delivery.transaction]), to: delivery.deviceID) }
    }
}
