/// What an onboarding reports to the app. The close and open-paywall actions are required: the app decides how the
/// onboarding ends and shows the paywall itself (after dismissing the onboarding; ``OnboardingController/hand(over:)``
/// does both in that order). The others do nothing by default.
public protocol OnboardingControllerDelegate: AnyObject {
    /// A custom action, such as `allowNotifications`.
    func onboardingController(_ controller: OnboardingController, onCustomAction action: OnboardingAction)
    /// The user closed the onboarding.
    func onboardingController(_ controller: OnboardingController, onCloseAction action: OnboardingAction)
    /// The user asked for a paywall; by convention the action identifier is the paywall's placement identifier.
    func onboardingController(_ controller: OnboardingController, onPaywallAction action: OnboardingAction)
    /// The onboarding finished loading.
    func onboardingController(_ controller: OnboardingController, didFinishLoading meta: OnboardingMeta)
    /// The onboarding failed, or sent a payload that cannot be decoded.
    func onboardingController(_ controller: OnboardingController, didFailWithError error: PaywallEventsError)
    /// An analytics event.
    func onboardingController(_ controller: OnboardingController, onAnalyticsEvent event: OnboardingAnalyticsEvent)
}

extension OnboardingControllerDelegate {
    /// Does nothing.
    public func onboardingController(_ controller: OnboardingController, onCustomAction action: OnboardingAction) {}
    /// Does nothing.
    public func onboardingController(_ controller: OnboardingController, didFinishLoading meta: OnboardingMeta) {}
    /// Does nothing.
    public func onboardingController(_ controller: OnboardingController, didFailWithError error: PaywallEventsError) {}
    /// Does nothing.
    public func onboardingController(
        _ controller: OnboardingController, onAnalyticsEvent event: OnboardingAnalyticsEvent
    ) {}
}
