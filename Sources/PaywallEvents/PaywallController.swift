/// A headless single-screen paywall, the older form of a flow: the same behaviour on one screen, reporting to a
/// ``PaywallControllerDelegate`` under `paywallController` names, with rendering failures and web payment navigation
/// of its own (`didFailRenderingWith`, `shouldContinueWebPaymentNavigation`, `didFailWebPaymentNavigation`).
///
/// Callbacks run on the thread that drives the harness or runs the store's lane.
public final class PaywallController: PresentationController, PresentableController, PresentationReceiver,
    @unchecked Sendable
{
    // @unchecked: mutable state lives in the engine, behind a mutex; `delegate` is the app's, set from its thread.

    /// The app's delegate, held weakly.
    public weak var delegate: (any PaywallControllerDelegate)?

    /// Creates a controller; it does nothing until the host puts it on screen (`appear()`).
    public init(
        configuration: PaywallConfiguration, context: PresentationContext, delegate: (any PaywallControllerDelegate)?
    ) {
        self.delegate = delegate
        super.init(configuration: configuration, context: context, kind: .paywall)
        engine.receiver = self
    }

    // MARK: Delivering

    /// Calls the delegate, or applies the defaults without one.
    func receive(_ event: PaywallEvent) -> Bool {
        guard let delegate else { return engine.defaultAnswer(event) }
        switch event {
        case .didAppear: delegate.paywallControllerDidAppear(self)
        case .didDisappear: delegate.paywallControllerDidDisappear(self)
        case .didPerformAction(let action): delegate.paywallController(self, didPerform: action)
        case .didSelectProduct(let product): delegate.paywallController(self, didSelectProduct: product)
        case .didStartPurchase(let product): delegate.paywallController(self, didStartPurchase: product)
        case .didFinishPurchase(let product, let result):
            delegate.paywallController(self, didFinishPurchase: product, purchaseResult: result)
        case .didFailPurchase(let product, let error):
            delegate.paywallController(self, didFailPurchase: product, error: error)
        case .didStartRestore: delegate.paywallControllerDidStartRestore(self)
        case .didFinishRestore(let profile): delegate.paywallController(self, didFinishRestoreWith: profile)
        case .didFailRestore(let error): delegate.paywallController(self, didFailRestoreWith: error)
        case .didReceiveError(let error): delegate.paywallController(self, didReceiveError: error)
        case .didFailRendering(let error): delegate.paywallController(self, didFailRenderingWith: error)
        case .didFailLoadingProducts(let error):
            return delegate.paywallController(self, didFailLoadingProductsWith: error)
        case .didPartiallyLoadProducts(let ids): delegate.paywallController(self, didPartiallyLoadProducts: ids)
        case .shouldContinueWebPaymentNavigation(let product):
            return delegate.paywallController(self, shouldContinueWebPaymentNavigation: product)
        case .didFailWebPaymentNavigation(let product, let error):
            delegate.paywallController(self, didFailWebPaymentNavigation: product, error: error)
        case .didFinishWebPaymentNavigation(let product, let error):
            delegate.paywallController(self, didFinishWebPaymentNavigation: product, error: error)
        case .didReceiveAnalyticEvent(let name, let params):
            delegate.paywallController(self, didReceiveAnalyticEvent: name, params: params)
        }
        return true
    }
}
