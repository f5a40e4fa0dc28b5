import Foundation
import OpenStoreKit
import Purchases
import Synchronization

/// What an engine reports to: the controller, which calls its delegate (or applies the defaults).
protocol PresentationReceiver: AnyObject, Sendable {
    /// Delivers a callback; returns the delegate's answer for the callbacks that return `Bool`, `true` otherwise.
    func receive(_ event: PaywallEvent) -> Bool
}

/// The behaviour flows and paywalls share: products, selection, purchases and restores through the purchase module,
/// the loading retry on the store's clock, screens and their analytics, web payments.
final class PresentationEngine: @unchecked Sendable {
    // @unchecked: mutable state lives in `state`, behind a mutex; `receiver` is set once, right after creation.

    private struct State {
        var onScreen = false
        var products: [String: PaywallProduct] = [:]
        var loaded = false
        var loading = false
        var selected: String?
        var screenIndex = 0
        var purchasing: String?
        var restoring = false
        var retry: StoreScheduler.Token?
    }

    let configuration: PaywallConfiguration
    let context: PresentationContext
    let screen: PresentedScreen
    weak var receiver: (any PresentationReceiver)?
    private let state = Mutex(State())

    init(configuration: PaywallConfiguration, context: PresentationContext, kind: PresentedScreen.Kind) {
        self.configuration = configuration
        self.context = context
        self.screen = PresentedScreen(kind: kind, id: configuration.placementId)
    }

    // MARK: What the controller shows

    var isOnScreen: Bool { state.withLock { $0.onScreen } }

    var products: [PaywallProduct] {
        let loaded = state.withLock { $0.products }
        return configuration.productIds.compactMap { loaded[$0] }
    }

    var selectedProduct: PaywallProduct? { state.withLock { state in state.selected.flatMap { state.products[$0] } } }

    var screenIndex: Int { state.withLock { $0.screenIndex } }

    var currentScreen: FlowScreen { configuration.screens[screenIndex] }

    // MARK: Delivering

    @discardableResult
    private func emit(_ event: PaywallEvent) -> Bool {
        context.deliver(event, from: screen) { receiver?.receive(event) ?? true }
    }

    private func invalid(_ message: String) -> PaywallEventsError {
        PaywallEventsError(.invalidAction, "\(screen): \(message)")
    }

    private func requireOnScreen(_ action: String) throws(PaywallEventsError) {
        guard isOnScreen else { throw invalid("cannot \(action): it is not on screen; call appear() first") }
    }

    // MARK: Lifecycle

    func appear() throws(PaywallEventsError) {
        let (fresh, needsLoad) = state.withLock { state -> (Bool, Bool) in
            guard !state.onScreen else { return (false, false) }
            state.onScreen = true
            return (true, !state.loaded && !state.loading && state.retry == nil)
        }
        guard fresh else { throw invalid("it is already on screen") }
        context.host.didPresent(screen)
        context.record(.presented, from: screen)
        emit(.didAppear)
        if screen.kind == .flow { showScreen() }
        if needsLoad { loadProducts() }
    }

    /// Leaves the screen; `false` if it was not on screen.
    @discardableResult
    func leave() -> Bool {
        let retry = state.withLock { state -> StoreScheduler.Token?? in
            guard state.onScreen else { return nil }
            state.onScreen = false
            defer { state.retry = nil }
            return .some(state.retry)
        }
        guard let retry else { return false }
        if let retry { context.scheduler.cancel(retry) }
        context.host.didDismiss(screen)
        context.record(.dismissed, from: screen)
        emit(.didDisappear)
        return true
    }

    // MARK: Products

    private func loadProducts() {
        state.withLock {
            $0.loading = true
            $0.retry = nil
        }
        let ids = configuration.productIds
        context.purchases.loadProducts(Set(ids)) { [self] result in loaded(result) }
    }

    private func loaded(_ result: Result<ProductsResult, PurchasesError>) {
        switch result {
        case .success(let response):
            let found = Dictionary(
                response.products.map { ($0.productIdentifier, PaywallProduct($0, paywall: configuration)) },
                uniquingKeysWith: { first, _ in first }
            )
            let select = state.withLock { state -> PaywallProduct? in
                state.loading = false
                state.loaded = true
                state.products = found
                guard state.selected == nil, state.onScreen, let id = configuration.selectedProductId,
                    let product = found[id]
                else { return nil }
                state.selected = id
                return product
            }
            let failed = configuration.productIds.filter { found[$0] == nil }
            if !failed.isEmpty { emit(.didPartiallyLoadProducts(failed)) }
            if let select { emit(.didSelectProduct(select)) }
        case .failure(let error):
            state.withLock { $0.loading = false }
            let failure = PaywallEventsError(
                .productsLoadingFailed,
                "loading \(configuration.productIds.joined(separator: ", ")) failed",
                underlying: error
            )
            guard emit(.didFailLoadingProducts(failure)) else { return }
            let token = context.scheduler.schedule(after: 2) { [weak self] in self?.retryLoad() }
            let keep = state.withLock { state -> Bool in
                guard state.onScreen, !state.loaded, !state.loading else { return false }
                state.retry = token
                return true
            }
            if !keep { context.scheduler.cancel(token) }
        }
    }

    private func retryLoad() {
        let go = state.withLock { state -> Bool in
            guard state.retry != nil, state.onScreen, !state.loaded, !state.loading else { return false }
            state.retry = nil
            return true
        }
        if go { loadProducts() }
    }

    func select(_ productId: String) throws(PaywallEventsError) {
        try requireOnScreen("select \(productId)")
        let screen = currentScreen
        guard screen.offers(productId) else {
            throw invalid("screen \(screen.id) does not offer \(productId)")
        }
        let product = state.withLock { state -> PaywallProduct? in
            guard let product = state.products[productId] else { return nil }
            state.selected = productId
            return product
        }
        guard let product else { throw invalid("\(productId) is not among the loaded products") }
        emit(.didSelectProduct(product))
    }

    private func product(_ productId: String?, for action: String) throws(PaywallEventsError) -> PaywallProduct {
        try requireOnScreen(action)
        let (id, product) = state.withLock { state in
            let id = productId ?? state.selected
            return (id, id.flatMap { state.products[$0] })
        }
        guard let id else { throw invalid("cannot \(action): no product is selected; select one first") }
        guard let product else { throw invalid("cannot \(action): \(id) is not among the loaded products") }
        return product
    }

    // MARK: Purchases and restores

    func purchase(_ productId: String?) throws(PaywallEventsError) {
        let product = try product(productId, for: "purchase")
        let id = product.vendorProductId
        if context.purchases.mode == .observer {
            guard let resolver = context.observerModeResolver else {
                throw invalid(
                    "in observer mode the app buys \(id) itself; give the context an observerModeResolver")
            }
            return resolver(product)
        }
        let running = state.withLock { state -> String? in
            if let running = state.purchasing { return running }
            state.purchasing = id
            return nil
        }
        if let running { throw invalid("a purchase of \(running) is running; wait for its outcome") }
        emit(.didStartPurchase(product))
        context.purchases.purchase(productID: id) { [self] result in purchaseEnded(product, result) }
    }

    private func purchaseEnded(_ product: PaywallProduct, _ result: Result<PurchaseOutcome, PurchasesError>) {
        state.withLock { $0.purchasing = nil }
        switch result {
        case .success(.purchased):
            // The profile comes from the verified receipt: a receipt that does not verify fails the purchase.
            do throws(PurchasesError) {
                let profile = try context.purchases.refreshProfile()
                emit(.didFinishPurchase(product, .success(profile: profile)))
            } catch {
                emit(
                    .didFailPurchase(
                        product,
                        PaywallEventsError(
                            .purchaseFailed,
                            "the purchase of \(product.vendorProductId) could not be verified: \(error.message)",
                            underlying: error
                        )
                    )
                )
            }
        case .success(.cancelled):
            emit(.didFinishPurchase(product, .cancelled))
        case .success(.pending):
            emit(.didFinishPurchase(product, .pending))
        case .failure(let error):
            emit(
                .didFailPurchase(
                    product,
                    PaywallEventsError(
                        .purchaseFailed, "the purchase of \(product.vendorProductId) failed", underlying: error)
                )
            )
        }
    }

    func restore() throws(PaywallEventsError) {
        try requireOnScreen("restore")
        let started = state.withLock { state -> Bool in
            guard !state.restoring else { return false }
            state.restoring = true
            return true
        }
        guard started else { throw invalid("a restore is running; wait for its outcome") }
        emit(.didStartRestore)
        context.purchases.restore { [self] result in
            state.withLock { $0.restoring = false }
            switch result {
            case .success:
                do throws(PurchasesError) {
                    emit(.didFinishRestore(try context.purchases.refreshProfile()))
                } catch {
                    emit(
                        .didFailRestore(
                            PaywallEventsError(
                                .restoreFailed, "the restored purchases could not be verified: \(error.message)",
                                underlying: error)
                        )
                    )
                }
            case .failure(let error):
                emit(.didFailRestore(PaywallEventsError(.restoreFailed, "the restore failed", underlying: error)))
            }
        }
    }

    // MARK: Actions, screens, errors

    func perform(_ action: FlowAction) throws(PaywallEventsError) {
        try requireOnScreen("perform an action")
        emit(.didPerformAction(action))
    }

    func tapButton(_ id: String) throws(PaywallEventsError) {
        try requireOnScreen("tap \(id)")
        let screen = currentScreen
        guard let action = screen.buttons[id] else {
            throw invalid(
                "screen \(screen.id) has no button \(id); its buttons are "
                    + (screen.buttons.isEmpty ? "none" : screen.buttons.keys.sorted().joined(separator: ", ")))
        }
        emit(.didPerformAction(action))
    }

    func nextScreen() throws(PaywallEventsError) {
        try requireOnScreen("go to the next screen")
        let moved = state.withLock { state -> Bool in
            guard state.screenIndex + 1 < configuration.screens.count else { return false }
            state.screenIndex += 1
            return true
        }
        guard moved else {
            throw invalid("screen \(currentScreen.id) is the last of \(configuration.screens.count)")
        }
        showScreen()
    }

    private func showScreen() {
        let index = screenIndex
        let shown = configuration.screens[index]
        context.record(.screenShown(shown.id), from: screen)
        let params: [String: JSONValue] = [
            "screen_id": .string(shown.id), "screen_index": .number(Double(index)),
            "screens_total": .number(Double(configuration.screens.count)),
        ]
        let record = AnalyticsRecord(name: "flow_screen_showed", params: params)
        context.count(record, from: screen)
        emit(.didReceiveAnalyticEvent(name: record.name, params: params))
    }

    func failRendering(_ message: String) {
        let error = PaywallEventsError(.renderingFailed, message)
        emit(screen.kind == .paywall ? .didFailRendering(error) : .didReceiveError(error))
    }

    func raiseScriptError(_ message: String) {
        emit(.didReceiveError(PaywallEventsError(.scriptError, message)))
    }

    func analytics(_ name: String, params: [String: JSONValue]) {
        emit(.didReceiveAnalyticEvent(name: name, params: params))
    }

    // MARK: Web payments

    func webPurchase(_ productId: String?) throws(PaywallEventsError) {
        let product = try product(productId, for: "open the web purchase page")
        if screen.kind == .paywall, !emit(.shouldContinueWebPaymentNavigation(product)) { return }
        do {
            try context.openWebPaywall(for: product, in: configuration.webPresentation)
            emit(.didFinishWebPaymentNavigation(product, nil))
        } catch {
            let failure = PaywallEventsError(
                .webPaymentFailed, "the web payment page for \(product.vendorProductId) did not open", underlying: error
            )
            if screen.kind == .paywall { emit(.didFailWebPaymentNavigation(product, failure)) }
            emit(.didFinishWebPaymentNavigation(product, failure))
        }
    }

    // MARK: Defaults

    /// What happens for an action the delegate does not handle: `.close` dismisses, `.openURL` asks the host.
    func performDefault(_ action: FlowAction) {
        switch action {
        case .close: leave()
        case .openURL(let url): _ = context.host.open(url, in: .externalBrowser)
        case .custom: break
        }
    }

    /// The answer and effect of a callback when there is no delegate.
    func defaultAnswer(_ event: PaywallEvent) -> Bool {
        switch event {
        case .didPerformAction(let action):
            performDefault(action)
            return true
        case .didFailLoadingProducts:
            return false
        default:
            return true
        }
    }
}
