import Foundation
import StoreModels
import Synchronization

extension SimulatedStore {
    /// The subscription products of an account whose price increase waits for the customer's consent, sorted.
    public func pendingPriceConsent(account: String = SimulatedStore.defaultAccount) -> [String] {
        state.withLock { $0.pendingPriceConsent(account: account) }
    }

    /// Shows the price-consent sheet on a device of an account, as StoreKit does when the payment queue's delegate
    /// lets it (`paymentQueueShouldShowPriceConsent(_:)`) or the app calls `showPriceConsentIfNeeded()`: the customer
    /// answers every price increase of the account that waits for consent as ``StoreSettings/priceConsentAnswer``
    /// says (consenting, declining, or closing the sheet, which leaves them waiting). Does nothing when none waits.
    ///
    /// Returns the products the sheet asked about, sorted.
    @discardableResult
    public func showPriceConsent(account: String = SimulatedStore.defaultAccount) -> [String] {
        journal?.enter()
        defer { journal?.end() }
        return state.withLock { state in
            let products = state.pendingPriceConsent(account: account)
            guard !products.isEmpty else { return [] }
            journal?.record(.operation(.showPriceConsent(account: account)))
            let answer = state.settings.priceConsentAnswer
            guard answer != .dismiss else { return products }
            for key in state.priceConsentKeys(account: account) {
                guard var changed = state.subscriptions[key] else { continue }
                changed.pendingPriceIncrease = false
                if answer == .decline { changed.autoRenew = false }
                state.records[changed.latestRecordID]?.isPendingPriceIncreaseConsent = false
                state.records[changed.latestRecordID]?.autoRenewEnabled = changed.autoRenew
                state.subscriptions[key] = changed
            }
            return products
        }
    }
}

extension SimulatedStore {
    /// Tells the open devices of an account that price increases wait for consent, if any does.
    func announcePriceConsent(account: String) {
        let products = pendingPriceConsent(account: account)
        guard !products.isEmpty else { return }
        broadcast(.priceConsentNeeded(products), account: account)
    }
}
