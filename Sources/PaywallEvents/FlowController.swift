/// A headless multi-screen flow: the screens of a paywall builder's flow, shown one after the other, reporting to a
/// ``FlowControllerDelegate``.
///
/// A harness drives it as a user and the host would (`appear()`, `selectProduct(_:)`, `tapPurchase(_:)`,
/// `tapRestore()`, ``nextScreen()``, `tapClose()`, ...) and as the store answers (run the context's store).
/// Purchases and restores go through the context's `PurchaseController` and its payment queue. Each screen
/// shown sends `flow_screen_showed`, both to the library's own analytics
/// (``PresentationContext/countedAnalytics``) and to the delegate. A successful purchase does not dismiss the flow.
///
/// Callbacks run on the thread that drives the harness or runs the store's lane.
public final class FlowController: PresentationController, PresentableController, PresentationReceiver,
    @unchecked Sendable
{
    // @unchecked: mutable state lives in the engine, behind a mutex; `delegate` is the app's, set from its thread.

    /// The app's delegate, held weakly.
    public weak var delegate: (any FlowControllerDelegate)?

    /// Creates a controller; it does nothing until the host puts it on screen (`appear()`).
    public init(
        configuration: PaywallConfiguration, context: PresentationContext, delegate: (any FlowControllerDelegate)?
    ) {
        self.delegate = delegate
        super.init(configuration: configuration, context: context, kind: .flow)
        engine.receiver = self
    }

    // MARK: Screens

    /// The screen shown.
    public var currentScreen: FlowScreen { engine.currentScreen }
    /// The position of the screen shown, from 0.
    public var screenIndex: Int { engine.screenIndex }

    /// The user moved on to the next screen: `flow_screen_showed` for it.
    ///
    /// - Throws: ``PaywallEventsError`` `invalidAction` on the last screen.
    public func nextScreen() throws(PaywallEventsError) { try engine.nextScreen() }

    // MARK: Delivering

    /// Calls the delegate, or applies the defaults without one.
    func receive(_ event: PaywallEvent) -> Bool {
        guard let delegate else { return engine.defaultAnswer(event) }
        switch event {
        case .didAppear: delegate.flowControllerDidAppear(self)
        case .didDisappear: delegate.flowControllerDidDisappear(self)
        case .didPerformAction(let action): delegate.flowController(self, didPerform: action)
        case .didSelectProduct(let product): delegate.flowController(self, didSelectProduct: product)
        case .didStartPurchase(let product): delegate.flowController(self, didStartPurchase: product)
        case .didFinishPurchase(let product, let result):
            delegate.flowController(self, didFinishPurchase: product, purchaseResult: result)
        case .didFailPurchase(let product, let error):
            delegate.flowController(self, didFailPurchase: product, error: error)
        case .didStartRestore: delegate.flowControllerDidStartRestore(self)
        case .didFinishRestore(let profile): delegate.flowController(self, didFinishRestoreWith: profile)
        case .didFailRestore(let error): delegate.flowController(self, didFailRestoreWith: error)
        case .didReceiveError(let error), .didFailRendering(let error):
            delegate.flowController(self, didReceiveError: error)
        case .didFailLoadingProducts(let error): return delegate.flowController(self, didFailLoadingProductsWith: error)
        case .didPartiallyLoadProducts(let ids): delegate.flowController(self, didPartiallyLoadProducts: ids)
        case .didFinishWebPaymentNavigation(let product, let error):
            delegate.flowController(self, didFinishWebPaymentNavigation: product, error: error)
        case .didReceiveAnalyticEvent(let name, let params):
            delegate.flowController(self, didReceiveAnalyticEvent: name, params: params)
        case .shouldContinueWebPaymentNavigation, .didFailWebPaymentNavigation:
            // Single-screen paywall callbacks; a flow's engine never sends them.
            return true
        }
        return true
    }
}
