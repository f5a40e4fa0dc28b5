import Foundation
import PaywallEvents
import PaywallEventsTest
import Purchases
import StoreSimulator

extension FeedInterpreter {
    /// Runs what the paywall scheduled that the clock has reached (a loading retry, a profile poll).
    func runPaywallWork() {
        world.paywall?.context.runUntilIdle()
    }

    /// Carries out a `paywall` step; returns a failure message, or nil.
    func performPaywall(_ step: FeedStep.PaywallStep) -> String? {
        if case .show(let placement, let products, let screens, let selected, let web) = step {
            return show(placement, products: products, screens: screens, selected: selected, web: web)
        }
        if case .webBuy(let product) = step {
            do { try store.buyProduct(product, account: world.currentUser) } catch { return error.detail }
            return nil
        }
        if case .app(let option, let on) = step {
            guard let paywall = paywallForCurrentUser() else { return "user \(world.currentUser) has no queue" }
            paywall.app.options[option] = on
            return nil
        }
        guard let paywall = world.paywall, paywall.user == world.currentUser, let controller = paywall.controller else {
            return "no paywall is shown for \(world.currentUser); start with `paywall show PLACEMENT products ...`"
        }
        do throws(PaywallEventsError) {
            switch step {
            case .show, .webBuy, .app:
                break
            case .select(let product):
                try (controller as? FlowController)?.selectProduct(product)
                try (controller as? PaywallController)?.selectProduct(product)
            case .purchase(let product):
                try (controller as? FlowController)?.tapPurchase(product)
                try (controller as? PaywallController)?.tapPurchase(product)
            case .restore:
                try (controller as? FlowController)?.tapRestore()
                try (controller as? PaywallController)?.tapRestore()
            case .nextScreen:
                guard let flow = controller as? FlowController else {
                    return "the paywall has one screen; show it with `screens S1,S2` to make a flow"
                }
                try flow.nextScreen()
            case .close:
                try (controller as? FlowController)?.tapClose()
                try (controller as? PaywallController)?.tapClose()
            case .dismiss:
                controller.dismiss()
            case .webPurchase(let product):
                try (controller as? FlowController)?.tapWebPurchase(product)
                try (controller as? PaywallController)?.tapWebPurchase(product)
            case .userReturns:
                paywall.context.userDidReturnToApp()
            }
        } catch {
            return error.message
        }
        return nil
    }

    private func show(
        _ placement: String, products: [String], screens: [String], selected: String?, web: String?
    ) -> String? {
        var webURL: URL?
        if let web {
            guard let url = URL(string: web) else { return "\(web) is not a URL" }
            webURL = url
        }
        guard let paywall = paywallForCurrentUser() else { return "user \(world.currentUser) has no queue" }
        paywall.controller?.dismiss()
        let configuration = PaywallConfiguration(
            paywallId: placement,
            products: products.map { PaywallConfiguration.ProductSlot(id: $0) },
            screens: screens.map { FlowScreen(id: $0) },
            webPurchaseURL: webURL,
            selectedProductId: selected
        )
        let controller: any PresentableController =
            screens.isEmpty
            ? PaywallController(configuration: configuration, context: paywall.context, delegate: paywall.app)
            : FlowController(configuration: configuration, context: paywall.context, delegate: paywall.app)
        paywall.controller = controller
        paywall.shownAt = paywall.checker.entries.count
        do { try controller.appear() } catch { return error.message }
        return nil
    }

    /// The paywall side of the current user, made on first use and again after a restart or a change of user.
    private func paywallForCurrentUser() -> FeedPaywall? {
        guard let queue = world.devices[world.currentSeat]?.queue else { return nil }
        if let paywall = world.paywall, paywall.user == world.currentUser, paywall.queue === queue { return paywall }
        world.paywall?.controller?.dismiss()
        let fresh = FeedPaywall(user: world.currentUser, queue: queue, store: store)
        let paywallLog = FeedPaywallLog(recorder: recorder, user: world.currentUser)
        fresh.context.addRecorder(paywallLog.write)
        world.paywall = fresh
        return fresh
    }
}
