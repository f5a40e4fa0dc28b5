public import Foundation
public import OpenStoreKit

/// One thing that happened in a presentation session, as a ``ConformanceChecker`` records it.
///
/// Controllers record their delegate callbacks, the screens they show, what the library counts for itself and when
/// they come and go; a checker watching a payment queue records transactions and finishes.
public struct SessionEntry: Sendable, Hashable {
    /// What happened.
    public enum Fact: Sendable, Hashable {
        /// A delegate callback was called.
        case callback(PaywallEvent)
        /// An onboarding event reached its delegate.
        case onboarding(OnboardingEvent)
        /// A flow showed a screen.
        case screenShown(String)
        /// The library counted an analytics event for itself (a "backend" event).
        case counted(AnalyticsRecord)
        /// The controller came on screen.
        case presented
        /// The controller left the screen.
        case dismissed
        /// The payment queue reported a transaction's new state (and error code, for failed ones).
        case transactionUpdated(
            productId: String, transactionId: UInt64, state: SKPaymentTransactionState,
            error: SKError.Code?)
        /// A purchased or restored transaction was finished; `delivered` says whether its content had been delivered
        /// when the store reported it finished.
        case transactionFinished(productId: String, transactionId: UInt64, delivered: Bool)
    }

    /// The controller it happened in; `nil` for the payment queue.
    public let source: PresentedScreen?
    /// What happened.
    public let fact: Fact
    /// The delegate callback that was running when it happened (the outermost one), if any: a dismissal during
    /// `didFinishPurchase` is the app's reaction to it.
    public let during: PaywallEvent?
    /// The store's time.
    public let time: Date

    /// Creates an entry.
    public init(source: PresentedScreen?, fact: Fact, during: PaywallEvent? = nil, time: Date) {
        self.source = source
        self.fact = fact
        self.during = during
        self.time = time
    }
}
