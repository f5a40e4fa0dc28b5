public import Foundation

/// What an app implements to decide on storefront changes and price consent. Every method is optional.
public protocol SKPaymentQueueDelegate: NSObjectProtocol {
    /// The storefront changed while a transaction was in progress: return `false` to fail it with
    /// `SKError.Code.storeProductNotAvailable`. Defaults to `true`.
    func paymentQueue(
        _ paymentQueue: SKPaymentQueue,
        shouldContinue transaction: SKPaymentTransaction,
        in newStorefront: SKStorefront
    ) -> Bool
    /// Whether to show a price-increase consent sheet now. Defaults to `true`.
    func paymentQueueShouldShowPriceConsent(_ paymentQueue: SKPaymentQueue) -> Bool
}

extension SKPaymentQueueDelegate {
    /// Returns `true`.
    public func paymentQueue(
        _ paymentQueue: SKPaymentQueue,
        shouldContinue transaction: SKPaymentTransaction,
        in newStorefront: SKStorefront
    ) -> Bool { true }
    /// Returns `true`.
    public func paymentQueueShouldShowPriceConsent(_ paymentQueue: SKPaymentQueue) -> Bool { true }
}
