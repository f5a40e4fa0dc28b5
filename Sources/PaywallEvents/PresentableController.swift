/// A flow or paywall controller, as an onboarding hands over to it.
public protocol PresentableController: AnyObject, Sendable {
    /// The controller as the host sees it.
    var presentedScreen: PresentedScreen { get }
    /// Whether it is on screen.
    var isOnScreen: Bool { get }
    /// The host put it on screen.
    func appear() throws(PaywallEventsError)
    /// The app dismisses it; does nothing when it is not on screen.
    func dismiss()
}
