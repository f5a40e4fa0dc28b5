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
        journal?.begin(.operation(.extendRenewalDate(originalID: originalID, by: interval)))
        defer { journal?.end() }
        let now = clock.now
        let extended = try state.withLock { state throws(StoreSimulatorError) -> SubscriptionState in
            try state.extendRenewalDate(originalID: originalID, by: interval, at: now)
        }
        tellChanges()
        return extended
    }

    /// Moves the renewal date of every active subscription to a product later, as the App Store Server API's Extend
    /// Subscription Renewal Dates for All Active Subscribers does, all at once: each subscription to the product that
    /// is active is extended as ``extendRenewalDate(originalID:by:)`` extends it (its change reported as
    /// `renewalDateExtended`), in account order; one in a billing grace period or billing retry, or that would renew
    /// past `ManualClock.latestDate`, is a failure. With `storefrontCountryCodes` that do not name the store's
    /// storefront, nothing is extended. The request is kept, complete, under the product and `requestIdentifier`
    /// (``massRenewalExtension(productID:requestIdentifier:)``); a request identifier used before for the product does
    /// nothing more and answers what the first request did.
    ///
    /// A durable store records the request in its journal and keeps it in its state file.
    ///
    /// - Parameters:
    ///   - productID: An auto-renewable subscription of the catalog.
    ///   - interval: How much later, positive.
    ///   - requestIdentifier: The request's identifier, not empty.
    ///   - storefrontCountryCodes: The storefronts to extend subscriptions in, or `nil` for all.
    /// - Returns: The request as kept, whether this call made it, and the subscriptions it could not extend.
    /// - Throws: `invalidAction` when `interval` is not positive or `requestIdentifier` is empty, `unknownProduct`,
    ///   `invalidProductType` for a product that is not an auto-renewable subscription.
    @discardableResult
    public func extendRenewalDates(
        productID: String, by interval: TimeInterval, requestIdentifier: String,
        storefrontCountryCodes: [String]? = nil
    ) throws(StoreSimulatorError) -> MassRenewalExtension.Outcome {
        guard interval > 0, interval.isFinite else {
            throw StoreSimulatorError(.invalidAction, "an extension must move the renewal date later")
        }
        journal?.begin(
            .operation(
                .extendRenewalDates(
                    productID: productID, by: interval, requestIdentifier: requestIdentifier,
                    storefrontCountryCodes: storefrontCountryCodes)))
        defer { journal?.end() }
        let now = clock.now
        let outcome = try state.withLock { state throws(StoreSimulatorError) -> MassRenewalExtension.Outcome in
            try state.extendRenewalDates(
                productID: productID, by: interval, requestIdentifier: requestIdentifier,
                storefrontCountryCodes: storefrontCountryCodes, at: now)
        }
        tellChanges()
        return outcome
    }

    /// The mass extension made with a request identifier for a product
    /// (``extendRenewalDates(productID:by:requestIdentifier:storefrontCountryCodes:)``), or `nil` when none was.
    public func massRenewalExtension(productID: String, requestIdentifier: String) -> MassRenewalExtension? {
        state.withLock {
            $0.massExtensions[MassRenewalExtension.key(productID: productID, requestIdentifier: requestIdentifier)]
        }
    }
}
