import Foundation
import OpenStoreKit

/// The app's payment queue delegate inside a feed: answers a storefront change during a purchase and whether to show
/// a price-consent sheet as the feed says, and reports every question to the recorder.
final class FeedDelegate: NSObject, SKPaymentQueueDelegate, @unchecked Sendable {
    // @unchecked: a feed runs on one thread; the delegate is only called on its manual store's lane.
    let user: String
    let device: String
    /// What the delegate answers to `paymentQueue(_:shouldContinue:in:)`.
    let answer: Bool
    /// What the delegate answers to `paymentQueueShouldShowPriceConsent(_:)`.
    let priceConsentAnswer: Bool
    unowned let recorder: FeedRecorder

    init(user: String, device: String, answer: Bool, priceConsentAnswer: Bool = true, recorder: FeedRecorder) {
        self.user = user
        self.device = device
        self.answer = answer
        self.priceConsentAnswer = priceConsentAnswer
        self.recorder = recorder
    }

    func paymentQueue(
        _ paymentQueue: SKPaymentQueue, shouldContinue transaction: SKPaymentTransaction,
        in newStorefront: SKStorefront
    ) -> Bool {
        recorder.askedToContinue(transaction, in: newStorefront.countryCode, by: self)
        return answer
    }

    func paymentQueueShouldShowPriceConsent(_ paymentQueue: SKPaymentQueue) -> Bool {
        recorder.askedToShowPriceConsent(by: self)
        return priceConsentAnswer
    }
}
