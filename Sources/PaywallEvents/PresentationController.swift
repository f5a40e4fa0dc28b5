public import Foundation

/// What a ``FlowController`` and a ``PaywallController`` share: their state and the harness's and the app's actions,
/// carried out by one presentation engine.
///
/// Only those two controllers are presentation controllers; each adds its delegate and its own callbacks. A flow
/// also sends `flow_screen_showed` for each screen it shows (after `didAppear`, and on ``FlowController/nextScreen()``);
/// a paywall reports rendering failures as `didFailRenderingWith` and asks `shouldContinueWebPaymentNavigation` before
/// a web purchase, where a flow reports `didReceiveError` and opens the page at once.
///
/// Callbacks run on the thread that drives the harness or runs the store's lane.
public class PresentationController: @unchecked Sendable {
    // @unchecked: mutable state lives in the engine, behind a mutex.

    /// The configuration shown.
    public let configuration: PaywallConfiguration
    /// The shared context: purchase module, host, scheduler, recorders.
    public let context: PresentationContext
    let engine: PresentationEngine

    init(configuration: PaywallConfiguration, context: PresentationContext, kind: PresentedScreen.Kind) {
        self.configuration = configuration
        self.context = context
        self.engine = PresentationEngine(configuration: configuration, context: context, kind: kind)
    }

    // MARK: State

    /// The controller as the host sees it: kind and placement.
    public var presentedScreen: PresentedScreen { engine.screen }
    /// Whether it is on screen.
    public var isOnScreen: Bool { engine.isOnScreen }
    /// The products loaded, in the configuration's order.
    public var products: [PaywallProduct] { engine.products }
    /// The selected product.
    public var selectedProduct: PaywallProduct? { engine.selectedProduct }

    // MARK: The harness: what the user and the system do

    /// The host put the controller on screen: `didAppear` (a flow then sends `flow_screen_showed` for the current
    /// screen), then the products load (a failure goes to `didFailLoadingProductsWith`, missing ones to
    /// `didPartiallyLoadProducts`; the configured product is selected).
    ///
    /// - Throws: ``PaywallEventsError`` `invalidAction` when it is already on screen.
    public func appear() throws(PaywallEventsError) { try engine.appear() }

    /// The controller left the screen without the app asking (a swipe down): `didDisappear`.
    ///
    /// - Throws: ``PaywallEventsError`` `invalidAction` when it is not on screen.
    public func disappear() throws(PaywallEventsError) {
        guard engine.leave() else {
            throw PaywallEventsError(.invalidAction, "\(presentedScreen): cannot disappear: it is not on screen")
        }
    }

    /// The user picked a loaded product offered on the current screen: `didSelectProduct`.
    public func selectProduct(_ productId: String) throws(PaywallEventsError) { try engine.select(productId) }

    /// The user tapped purchase for a product (the selected one by default): `didStartPurchase`, then, when the store
    /// answers, `didFinishPurchase` or `didFailPurchase`. In observer mode the context's observer-mode resolver runs
    /// the app's own purchase code instead, and no purchase callback is called.
    ///
    /// - Throws: ``PaywallEventsError`` `invalidAction` with no product, a product not loaded, or a purchase running.
    public func tapPurchase(_ productId: String? = nil) throws(PaywallEventsError) { try engine.purchase(productId) }

    /// The user tapped restore: `didStartRestore`, then `didFinishRestoreWith` or `didFailRestoreWith`.
    ///
    /// - Throws: ``PaywallEventsError`` `invalidAction` when a restore is running.
    public func tapRestore() throws(PaywallEventsError) { try engine.restore() }

    /// The user tapped close: `didPerform(.close)`.
    public func tapClose() throws(PaywallEventsError) { try engine.perform(.close) }

    /// The user tapped a link: `didPerform(.openURL)`.
    public func tapURL(_ url: URL) throws(PaywallEventsError) { try engine.perform(.openURL(url)) }

    /// The user tapped a button with a custom action: `didPerform(.custom(id:))`.
    public func tapCustomAction(_ id: String) throws(PaywallEventsError) { try engine.perform(.custom(id: id)) }

    /// The user tapped a button of the current screen: its configured action.
    public func tapButton(_ id: String) throws(PaywallEventsError) { try engine.tapButton(id) }

    /// The user tapped the web purchase button for a product (the selected one by default). A paywall first asks
    /// `shouldContinueWebPaymentNavigation`; if it continues, or in a flow, `didFinishWebPaymentNavigation` (a flow
    /// with the error when the page did not open; a paywall after `didFailWebPaymentNavigation`). The user comes back
    /// with ``PresentationContext/userDidReturnToApp()``.
    public func tapWebPurchase(_ productId: String? = nil) throws(PaywallEventsError) {
        try engine.webPurchase(productId)
    }

    /// The script of the screen raised a runtime error: `didReceiveError` with code 4105.
    public func raiseScriptError(_ message: String) { engine.raiseScriptError(message) }

    /// The screen could not be rendered: `didFailRenderingWith` in a paywall, `didReceiveError` with
    /// `rendering_failed` in a flow.
    public func failRendering(_ message: String) { engine.failRendering(message) }

    /// The screen sent an analytics event of its own.
    public func sendAnalyticEvent(_ name: String, params: [String: JSONValue] = [:]) {
        engine.analytics(name, params: params)
    }

    // MARK: The app

    /// Dismisses the controller: `didDisappear`. Does nothing when it is not on screen.
    public func dismiss() { engine.leave() }

    /// Asks the host to open a URL in the external browser; returns whether it opened.
    @discardableResult
    public func openURL(_ url: URL) -> Bool { context.host.open(url, in: .externalBrowser) }

    /// What happens to an action the delegate leaves to the default: `.close` dismisses, `.openURL` asks the host to
    /// open the URL, `.custom` does nothing.
    public func performDefaultAction(_ action: FlowAction) { engine.performDefault(action) }
}
