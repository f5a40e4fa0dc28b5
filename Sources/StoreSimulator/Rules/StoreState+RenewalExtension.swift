import Foundation
import StoreModels

extension StoreState {
    /// Moves the renewal date of the active subscription that began with `originalID` `interval` later, at `now`
    /// (``SimulatedStore/extendRenewalDate(originalID:by:)``), and reports the change.
    mutating func extendRenewalDate(originalID: UInt64, by interval: TimeInterval, at now: Date)
        throws(StoreSimulatorError) -> SubscriptionState
    {
        guard records[originalID] != nil else { throw SimulatedStore.unknownTransaction(originalID) }
        guard let found = subscriptions.values(originalID: originalID).first else {
            throw StoreSimulatorError(.noSubscription, "transaction \(originalID) begins no subscription")
        }
        return try extend(found, by: interval, at: now)
    }

    /// Extends a subscription that is active; refuses one that is not, or that would renew past the clock's last
    /// instant.
    private mutating func extend(_ found: SubscriptionState, by interval: TimeInterval, at now: Date)
        throws(StoreSimulatorError) -> SubscriptionState
    {
        let originalID = found.originalID
        let key = Self.subscriptionKey(account: found.account, groupID: found.groupID)
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
        if var latest = records[subscription.latestRecordID] {
            latest.expirationDate = subscription.expiresAt
            records[latest.id] = latest
            mirrorShares(of: latest.id)
        }
        subscriptions[key] = subscription
        report(.renewalDateExtended(seconds: interval), at: now, of: subscription)
        return subscription
    }

    /// Extends every subscription to `productID` that has not expired, in account order, when the store's storefront
    /// is among `storefrontCountryCodes` (or they are `nil`), and keeps the request
    /// (``SimulatedStore/extendRenewalDates(productID:by:requestIdentifier:storefrontCountryCodes:)``). A subscription
    /// in a billing grace period or billing retry, or one the store refuses to extend, is a failure. A request
    /// identifier used before for the product does nothing more.
    mutating func extendRenewalDates(
        productID: String, by interval: TimeInterval, requestIdentifier: String, storefrontCountryCodes: [String]?,
        at now: Date
    ) throws(StoreSimulatorError) -> MassRenewalExtension.Outcome {
        let key = MassRenewalExtension.key(productID: productID, requestIdentifier: requestIdentifier)
        if let made = massExtensions[key] {
            return MassRenewalExtension.Outcome(request: made, isNew: false, failures: [])
        }
        guard !requestIdentifier.isEmpty else {
            throw StoreSimulatorError(.invalidAction, "a mass extension needs a request identifier")
        }
        guard let product = configuration.catalog.product(productID) else {
            throw StoreSimulatorError(.unknownProduct, "no product \(productID) in the catalog")
        }
        guard product.subscription != nil else {
            throw StoreSimulatorError(
                .invalidProductType, "\(productID) is not an auto-renewable subscription: it has no renewal date")
        }
        var succeeded = 0
        var failures: [MassRenewalExtension.Failure] = []
        if storefrontCountryCodes?.contains(settings.storefront.countryCode) ?? true {
            var subscribed: [SubscriptionState] = []
            subscriptions.visit { if $0.productID == productID && $0.phase != .expired { subscribed.append($0) } }
            subscribed.sort { ($0.account, $0.originalID) < ($1.account, $1.originalID) }
            for subscription in subscribed {
                do {
                    _ = try extend(subscription, by: interval, at: now)
                    succeeded += 1
                } catch {
                    failures.append(
                        MassRenewalExtension.Failure(
                            originalID: subscription.originalID, transactionID: subscription.latestRecordID,
                            status: statusCode(of: subscription)))
                }
            }
        }
        let made = MassRenewalExtension(
            productID: productID, requestIdentifier: requestIdentifier, interval: interval,
            storefrontCountryCodes: storefrontCountryCodes, completeDate: now, succeededCount: succeeded,
            failedCount: failures.count)
        massExtensions[key] = made
        return MassRenewalExtension.Outcome(request: made, isNew: true, failures: failures)
    }
}
