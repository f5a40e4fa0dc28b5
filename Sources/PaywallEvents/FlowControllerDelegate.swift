public import Purchases

/// What a flow reports to the app. Four callbacks are required (finishing and failing a purchase, finishing and
/// failing a restore); the others have defaults: `.close` dismisses the flow, `.openURL` asks the host to open the
/// URL, a loading failure is not retried (`false`), everything else does nothing.
///
/// A purchase started with `didStartPurchase` ends with exactly one `didFinishPurchase` (success, cancelled or
/// pending) or `didFailPurchase`; a cancel or a pending purchase is never a failure. A restore started with
/// `flowControllerDidStartRestore` ends with exactly one `didFinishRestoreWith` or `didFailRestoreWith`. In observer
/// mode the three purchase callbacks are never called.
public protocol FlowControllerDelegate: AnyObject {
    /// The flow came on screen.
    func flowControllerDidAppear(_ controller: FlowController)
    /// The flow left the screen.
    func flowControllerDidDisappear(_ controller: FlowController)
    /// The user tapped close, a link or a custom button.
    func flowController(_ controller: FlowController, didPerform action: FlowAction)
    /// The user, or the flow by itself, picked a product.
    func flowController(_ controller: FlowController, didSelectProduct product: PaywallProduct)
    /// A purchase started.
    func flowController(_ controller: FlowController, didStartPurchase product: PaywallProduct)
    /// A purchase finished: success, cancelled or pending. A success does not dismiss the flow.
    func flowController(
        _ controller: FlowController, didFinishPurchase product: PaywallProduct, purchaseResult: PurchaseResult)
    /// A purchase failed: a store error, a verification failure or a system error.
    func flowController(
        _ controller: FlowController, didFailPurchase product: PaywallProduct, error: PaywallEventsError)
    /// A restore started.
    func flowControllerDidStartRestore(_ controller: FlowController)
    /// A restore finished; check the profile has the wanted access level before dismissing.
    func flowController(_ controller: FlowController, didFinishRestoreWith profile: Profile)
    /// A restore failed.
    func flowController(_ controller: FlowController, didFailRestoreWith error: PaywallEventsError)
    /// A rendering error, or a runtime error of the flow's script (code 4105).
    func flowController(_ controller: FlowController, didReceiveError error: PaywallEventsError)
    /// The products could not be loaded; return `true` to try again after 2 seconds of store time.
    func flowController(_ controller: FlowController, didFailLoadingProductsWith error: PaywallEventsError) -> Bool
    /// Some products could not be loaded: their identifiers.
    func flowController(_ controller: FlowController, didPartiallyLoadProducts failedIds: [String])
    /// Navigation to a web payment page ended, successfully (`error` is `nil`) or not.
    func flowController(
        _ controller: FlowController, didFinishWebPaymentNavigation product: PaywallProduct?,
        error: PaywallEventsError?)
    /// An analytics event, such as `flow_screen_showed` for each screen shown.
    func flowController(
        _ controller: FlowController, didReceiveAnalyticEvent name: String, params: [String: JSONValue])
}

extension FlowControllerDelegate {
    /// Does nothing.
    public func flowControllerDidAppear(_ controller: FlowController) {}
    /// Does nothing.
    public func flowControllerDidDisappear(_ controller: FlowController) {}
    /// `.close` dismisses the flow; `.openURL` asks the host to open the URL; `.custom` does nothing.
    public func flowController(_ controller: FlowController, didPerform action: FlowAction) {
        controller.performDefaultAction(action)
    }
    /// Does nothing.
    public func flowController(_ controller: FlowController, didSelectProduct product: PaywallProduct) {}
    /// Does nothing.
    public func flowController(_ controller: FlowController, didStartPurchase product: PaywallProduct) {}
    /// Does nothing.
    public func flowControllerDidStartRestore(_ controller: FlowController) {}
    /// Does nothing.
    public func flowController(_ controller: FlowController, didReceiveError error: PaywallEventsError) {}
    /// Returns `false`: no retry.
    public func flowController(_ controller: FlowController, didFailLoadingProductsWith error: PaywallEventsError)
        -> Bool
    { false }
    /// Does nothing.
    public func flowController(_ controller: FlowController, didPartiallyLoadProducts failedIds: [String]) {}
    /// Does nothing.
    public func flowController(
        _ controller: FlowController, didFinishWebPaymentNavigation product: PaywallProduct?,
        error: PaywallEventsError?
    ) {}
    /// Does nothing.
    public func flowController(
        _ controller: FlowController, didReceiveAnalyticEvent name: String, params: [String: JSONValue]
    ) {}
}
