public import Purchases

/// What a single-screen paywall reports to the app: the flow's callbacks under `paywallController` names, plus
/// `didFailRenderingWith`, `shouldContinueWebPaymentNavigation` and `didFailWebPaymentNavigation`.
///
/// The same four callbacks are required and the same defaults apply (see ``FlowControllerDelegate``); the web payment
/// navigation continues by default (`true`), and rendering and web navigation failures do nothing by default.
public protocol PaywallControllerDelegate: AnyObject {
    /// The paywall came on screen.
    func paywallControllerDidAppear(_ controller: PaywallController)
    /// The paywall left the screen.
    func paywallControllerDidDisappear(_ controller: PaywallController)
    /// The user tapped close, a link or a custom button.
    func paywallController(_ controller: PaywallController, didPerform action: FlowAction)
    /// The user, or the paywall by itself, picked a product.
    func paywallController(_ controller: PaywallController, didSelectProduct product: PaywallProduct)
    /// A purchase started.
    func paywallController(_ controller: PaywallController, didStartPurchase product: PaywallProduct)
    /// A purchase finished: success, cancelled or pending.
    func paywallController(
        _ controller: PaywallController, didFinishPurchase product: PaywallProduct, purchaseResult: PurchaseResult)
    /// A purchase failed.
    func paywallController(
        _ controller: PaywallController, didFailPurchase product: PaywallProduct, error: PaywallEventsError)
    /// A restore started.
    func paywallControllerDidStartRestore(_ controller: PaywallController)
    /// A restore finished; check the profile has the wanted access level before dismissing.
    func paywallController(_ controller: PaywallController, didFinishRestoreWith profile: Profile)
    /// A restore failed.
    func paywallController(_ controller: PaywallController, didFailRestoreWith error: PaywallEventsError)
    /// A runtime error of the paywall's script (code 4105).
    func paywallController(_ controller: PaywallController, didReceiveError error: PaywallEventsError)
    /// The paywall could not be rendered.
    func paywallController(_ controller: PaywallController, didFailRenderingWith error: PaywallEventsError)
    /// The products could not be loaded; return `true` to try again after 2 seconds of store time.
    func paywallController(_ controller: PaywallController, didFailLoadingProductsWith error: PaywallEventsError)
        -> Bool
    /// Some products could not be loaded: their identifiers.
    func paywallController(_ controller: PaywallController, didPartiallyLoadProducts failedIds: [String])
    /// The user is about to be sent to a web payment page; return `false` to stay.
    func paywallController(
        _ controller: PaywallController, shouldContinueWebPaymentNavigation product: PaywallProduct?
    ) -> Bool
    /// Navigation to a web payment page failed.
    func paywallController(
        _ controller: PaywallController, didFailWebPaymentNavigation product: PaywallProduct?,
        error: PaywallEventsError)
    /// Navigation to a web payment page ended, successfully (`error` is `nil`) or not.
    func paywallController(
        _ controller: PaywallController, didFinishWebPaymentNavigation product: PaywallProduct?,
        error: PaywallEventsError?)
    /// An analytics event.
    func paywallController(
        _ controller: PaywallController, didReceiveAnalyticEvent name: String, params: [String: JSONValue])
}

extension PaywallControllerDelegate {
    /// Does nothing.
    public func paywallControllerDidAppear(_ controller: PaywallController) {}
    /// Does nothing.
    public func paywallControllerDidDisappear(_ controller: PaywallController) {}
    /// `.close` dismisses the paywall; `.openURL` asks the host to open the URL; `.custom` does nothing.
    public func paywallController(_ controller: PaywallController, didPerform action: FlowAction) {
        controller.performDefaultAction(action)
    }
    /// Does nothing.
    public func paywallController(_ controller: PaywallController, didSelectProduct product: PaywallProduct) {}
    /// Does nothing.
    public func paywallController(_ controller: PaywallController, didStartPurchase product: PaywallProduct) {}
    /// Does nothing.
    public func paywallControllerDidStartRestore(_ controller: PaywallController) {}
    /// Does nothing.
    public func paywallController(_ controller: PaywallController, didReceiveError error: PaywallEventsError) {}
    /// Does nothing.
    public func paywallController(_ controller: PaywallController, didFailRenderingWith error: PaywallEventsError) {}
    /// Returns `false`: no retry.
    public func paywallController(
        _ controller: PaywallController, didFailLoadingProductsWith error: PaywallEventsError
    ) -> Bool { false }
    /// Does nothing.
    public func paywallController(_ controller: PaywallController, didPartiallyLoadProducts failedIds: [String]) {}
    /// Returns `true`: the navigation continues.
    public func paywallController(
        _ controller: PaywallController, shouldContinueWebPaymentNavigation product: PaywallProduct?
    ) -> Bool { true }
    /// Does nothing.
    public func paywallController(
        _ controller: PaywallController, didFailWebPaymentNavigation product: PaywallProduct?,
        error: PaywallEventsError
    ) {}
    /// Does nothing.
    public func paywallController(
        _ controller: PaywallController, didFinishWebPaymentNavigation product: PaywallProduct?,
        error: PaywallEventsError?
    ) {}
    /// Does nothing.
    public func paywallController(
        _ controller: PaywallController, didReceiveAnalyticEvent name: String, params: [String: JSONValue]
    ) {}
}
