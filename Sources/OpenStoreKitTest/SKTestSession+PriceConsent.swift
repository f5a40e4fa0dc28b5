public import StoreSimulator

extension SKTestSession {
    /// What the simulated customer does when the price-consent sheet is shown: when the payment queue's delegate
    /// lets it show (`paymentQueueShouldShowPriceConsent(_:)` returns `true`, or there is no delegate) or the app
    /// calls `SKPaymentQueue.showPriceConsentIfNeeded()`. `.dismiss` (the default) closes it without answering, so
    /// the increase keeps waiting; `.consent` and `.decline` answer it as
    /// ``consentToPriceIncreaseForTransaction(identifier:)`` and ``declinePriceIncreaseForTransaction(identifier:)``
    /// do. An addition to Apple's API; ``resetToDefaultState()`` puts it back to `.dismiss`.
    public var priceConsentAnswer: PriceConsentAnswer {
        get { store.settings.priceConsentAnswer }
        set { store.updateSettings { $0.priceConsentAnswer = newValue } }
    }
}
