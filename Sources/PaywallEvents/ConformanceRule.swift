/// A rule a presentation session must keep; ``ConformanceChecker`` reports each broken one.
public enum ConformanceRule: String, Sendable, Hashable, CaseIterable {
    /// `didStartPurchase` came while another purchase of the same controller had not ended.
    case purchaseStartedTwice = "purchase-started-twice"
    /// `didFinishPurchase` or `didFailPurchase` came without a running purchase (an end without a start, or a second
    /// end).
    case purchaseEndedWithoutStart = "purchase-ended-without-start"
    /// A purchase ended for another product than the one it started with.
    case purchaseProductMismatch = "purchase-product-mismatch"
    /// A started purchase never ended with `didFinishPurchase` or `didFailPurchase`.
    case purchaseNotEnded = "purchase-not-ended"
    /// A cancelled purchase was reported through `didFailPurchase` instead of a cancelled result.
    case cancelReportedAsFailure = "cancel-reported-as-failure"
    /// A pending (deferred) purchase was reported through `didFailPurchase` instead of a pending result.
    case pendingReportedAsFailure = "pending-reported-as-failure"
    /// `didStartRestore` came while a restore had not ended.
    case restoreStartedTwice = "restore-started-twice"
    /// `didFinishRestoreWith` or `didFailRestoreWith` came without a running restore.
    case restoreEndedWithoutStart = "restore-ended-without-start"
    /// A started restore never ended.
    case restoreNotEnded = "restore-not-ended"
    /// A purchase callback was called in observer mode.
    case purchaseCallbackInObserverMode = "purchase-callback-in-observer-mode"
    /// A flow showed a screen without `flow_screen_showed` reaching the delegate and the library's own analytics.
    case screenNotReported = "screen-not-reported"
    /// A purchased or restored transaction was finished before its content was delivered.
    case finishedBeforeDelivery = "finished-before-delivery"
    /// The app dismissed the paywall on a cancelled purchase (the user may want another product).
    case dismissedOnCancel = "dismissed-on-cancel"
    /// The app dismissed the paywall after a restore whose profile lacks the wanted access level.
    case dismissedWithoutAccess = "dismissed-without-access"
    /// A paywall or flow came on screen while an onboarding was still there.
    case paywallOverOnboarding = "paywall-over-onboarding"
}
