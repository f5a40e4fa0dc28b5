import Foundation
import OpenStoreKit

/// The app's payment queue delegate inside a feed: answers a storefront change during a purchase as the feed says,
/// and reports every question to the run.
final class FeedDelegate: NSObject, SKPaymentQueueDelegate, @unchecked Sendable {
    // @unchecked: a feed runs on one thread; the delegate is only called on its manual store's lane.
    let user: String
    let device: String
    /// What the delegate answers to `paymentQueue(_:shouldContinue:in:)`.
    let answer: Bool
    unowned let run: FeedInterpreter

    init(user: String, device: String, answer: Bool, run: FeedInterpreter) {
        self.user = user
        self.device = device
        self.answer = answer
        self.run = run
    }

    func paymentQueue(
        _ paymentQueue: SKPaymentQueue, shouldContinue transaction: SKPaymentTransaction,
        in newStorefront: SKStorefront
    ) -> Bool {
        run.askedToContinue(transaction, in: newStorefront.countryCode, by: self)
        return answer
    }
}
