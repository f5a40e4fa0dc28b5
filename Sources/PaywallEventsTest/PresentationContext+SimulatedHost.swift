public import PaywallEvents
public import Purchases

extension PresentationContext {
    /// Creates a context whose host is a new ``SimulatedHost``.
    ///
    /// - Parameters:
    ///   - purchases: the purchase module; its queue's store provides the clock.
    ///   - profileId: the user's profile identifier.
    ///   - pollingPolicy: how the profile is polled after a web paywall.
    ///   - observerModeResolver: in observer mode, the app's own purchase code for a product tapped on a paywall.
    public convenience init(
        purchases: PurchaseController,
        profileId: String,
        pollingPolicy: ProfilePollingPolicy = .default,
        observerModeResolver: (@Sendable (PaywallProduct) -> Void)? = nil
    ) {
        self.init(
            purchases: purchases, host: SimulatedHost(), profileId: profileId, pollingPolicy: pollingPolicy,
            observerModeResolver: observerModeResolver)
    }
}
