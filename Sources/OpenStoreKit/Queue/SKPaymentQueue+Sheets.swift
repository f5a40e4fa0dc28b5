import StoreSimulator

extension SKPaymentQueue {
    /// Shows the price-increase consent sheet if a price increase of the queue's account waits for consent (one the
    /// delegate deferred by answering `false` to `paymentQueueShouldShowPriceConsent(_:)`); does nothing otherwise.
    /// The delegate is not asked again. The simulated customer answers as the store's
    /// `StoreSettings.priceConsentAnswer` says (`SimulatedStore.showPriceConsent(account:)`);
    /// the sheet is shown on the store's lane.
    public func showPriceConsentIfNeeded() {
        store.lane.enqueue { [store, account] in store.showPriceConsent(account: account) }
    }

    /// Shows the offer-code redemption sheet. A headless store shows no sheets; this does nothing.
    public func presentCodeRedemptionSheet() {}
}
