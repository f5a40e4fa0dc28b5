import Foundation
import OpenStoreKit

/// The app's payment queue delegate inside a feed: answers a storefront change during a purchase and whether to show
/// a price-consent sheet as the feed says, and reports every question to the run.
final class FeedDelegate: NSObject, SKPaymentQueueDelegate, @unchecked Sendable {
    // @unchecked: a feed runs on one thread; the delegate is only called on its manual store's lane.
    let user: String
    let device: String
    /// What the delegate answers to `paymentQueue(_:shouldContinue:in:)`.
    let answer: Bool
    /// What the delegate answers to `paymentQueueShouldShowPriceConsent(_:)`.
    let priceConsentAnswer: Bool
    unowned let run: FeedInterpreter

    init(user: String, device: String, answer: Bool, priceConsentAnswer: Bool = true, run: FeedInterpreter) {
        self.user = user
        self.device = device
        self.answer = answer
        self.priceConsentAnswer = priceConsentAnswer
        self.run = run
    }

    func paymentQueue(
        _ paymentQueue: SKPaymentQueue, shouldContinue transaction: SKPaymentTransaction,
        in newStorefront: SKStorefront
    ) -> Bool {
        run.askedToContinue(transaction, in: newStorefront.countryCode, by: self)
        return answer
    }

    func paymentQueueShouldShowPriceConsent(_ paymentQueue: SKPaymentQueue) -> Bool {
        run.askedToShowPriceConsent(by: self)
        return priceConsentAnswer
    }
}
