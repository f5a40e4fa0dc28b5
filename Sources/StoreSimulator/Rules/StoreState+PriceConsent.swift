import Foundation
import StoreModels
import Synchronization

extension StoreState {
    /// The keys of an account's running subscriptions whose price increase waits for consent, in group order. Looked
    /// up by the catalog's groups, so that a queue opening in a store of many subscribers does not scan them all.
    func priceConsentKeys(account: String) -> [String] {
        let groups = Set(configuration.catalog.products.compactMap { $0.subscription?.groupID }).sorted()
        return groups.map { Self.subscriptionKey(account: account, groupID: $0) }.filter { key in
            guard let subscription = subscriptions[key] else { return false }
            return subscription.pendingPriceIncrease && subscription.phase != .expired
        }
    }

    /// The subscription products of an account whose price increase waits for consent, sorted.
    func pendingPriceConsent(account: String) -> [String] {
        priceConsentKeys(account: account).compactMap { subscriptions[$0]?.productID }.sorted()
    }
}
