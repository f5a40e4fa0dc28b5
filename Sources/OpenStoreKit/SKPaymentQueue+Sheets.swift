extension SKPaymentQueue {
    /// Shows the price-increase consent sheet if one is pending. A headless store shows no sheets: a test answers a
    /// price increase with the test session (`consentToPriceIncreaseForTransaction(identifier:)` or
    /// `declinePriceIncreaseForTransaction(identifier:)`), so this does nothing.
    public func showPriceConsentIfNeeded() {}

    /// Shows the offer-code redemption sheet. A headless store shows no sheets; this does nothing.
    public func presentCodeRedemptionSheet() {}
}
