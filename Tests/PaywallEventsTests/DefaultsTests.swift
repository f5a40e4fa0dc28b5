import Foundation
import OpenStoreKit
import PaywallEvents
import PaywallEventsTest
import Purchases
import StoreModels
import StoreSimulator
import Testing

@Suite("Delegate defaults")
struct DefaultsTests {
    @Test(
        "A flow delegate with only the required callbacks: close dismisses, a link goes to the host, custom is a no-op")
    func flowActions() throws {
        let session = Session()
        let delegate = MinimalFlowDelegate()
        let flow = FlowController(configuration: Session.configuration(), context: session.context, delegate: delegate)
        try flow.appear()
        session.context.runUntilIdle()
        try flow.tapCustomAction("nothing")
        #expect(flow.isOnScreen)
        #expect(session.host.openedURLs.isEmpty)
        let url = URL(string: "https://example.com/terms?lang=en")!
        try flow.tapURL(url)
        #expect(
            session.host.openedURLs == [SimulatedHost.OpenedURL(url: url, presentation: .externalBrowser, opened: true)]
        )
        try flow.tapClose()
        #expect(!flow.isOnScreen)
        #expect(session.host.onScreen.isEmpty)
        #expect(session.checker.events.map(\.name).suffix(2) == ["didPerformAction", "didDisappear"])
        #expect(delegate.calls.isEmpty, "only the required callbacks are implemented and none was due")
    }

    @Test("A loading failure is not retried by default")
    func noRetry() throws {
        let session = Session()
        session.store.updateSettings {
            $0.simulatedErrors[.loadProducts] = StoreFailure(.cloudServiceNetworkConnectionFailed, "offline")
        }
        let flow = FlowController(
            configuration: Session.configuration(), context: session.context, delegate: MinimalFlowDelegate())
        try flow.appear()
        session.context.runUntilIdle()
        session.store.updateSettings { $0.simulatedErrors[.loadProducts] = nil }
        session.context.advance(by: 60)
        #expect(flow.products.isEmpty, "nothing retried the load")
        #expect(session.checker.events.map(\.name).filter { $0 == "didFailLoadingProducts" }.count == 1)
        #expect(session.context.scheduler.pendingCount == 0)
    }

    @Test("The required callbacks are called on a minimal delegate")
    func required() throws {
        let session = Session()
        let delegate = MinimalFlowDelegate()
        let flow = FlowController(configuration: Session.configuration(), context: session.context, delegate: delegate)
        try flow.appear()
        session.context.runUntilIdle()
        try flow.tapPurchase()
        session.context.runUntilIdle()
        session.store.script(.fail(StoreFailure(.paymentCancelled, "")))
        try flow.tapPurchase("com.example.pro")
        session.context.runUntilIdle()
        session.store.script(.fail(StoreFailure(.paymentNotAllowed, "")))
        try flow.tapPurchase("com.example.premium.yearly")
        session.context.runUntilIdle()
        try flow.tapRestore()
        session.context.runUntilIdle()
        session.store.updateSettings { $0.simulatedErrors[.restore] = StoreFailure(.unknown, "") }
        try flow.tapRestore()
        session.context.runUntilIdle()
        #expect(
            delegate.calls == [
                "didFinishPurchase success", "didFinishPurchase cancelled", "didFailPurchase", "didFinishRestore",
                "didFailRestore",
            ])
    }

    @Test("A paywall delegate with only the required callbacks: web navigation continues, close dismisses")
    func paywallDefaults() throws {
        let session = Session()
        let delegate = MinimalPaywallDelegate()
        let paywall = PaywallController(
            configuration: Session.configuration(), context: session.context, delegate: delegate)
        try paywall.appear()
        session.context.runUntilIdle()
        try paywall.tapWebPurchase()
        #expect(session.host.openedURLs.count == 1, "shouldContinueWebPaymentNavigation defaults to true")
        let names = session.checker.events.map(\.name)
        #expect(names.suffix(2) == ["shouldContinueWebPaymentNavigation", "didFinishWebPaymentNavigation"])
        paywall.failRendering("broken")
        try paywall.tapClose()
        #expect(!paywall.isOnScreen)
    }

    @Test("Without a delegate the defaults still apply")
    func noDelegate() throws {
        let session = Session()
        let flow = FlowController(configuration: Session.configuration(), context: session.context, delegate: nil)
        try flow.appear()
        session.context.runUntilIdle()
        try flow.tapURL(URL(string: "https://example.com")!)
        #expect(session.host.openedURLs.count == 1)
        try flow.tapClose()
        #expect(!flow.isOnScreen)
    }
}

@Suite("The single-screen paywall controller")
struct PaywallControllerTests {
    func presented(_ recorder: PaywallRecorder = PaywallRecorder(), session: Session = Session()) throws -> (
        Session, PaywallController, PaywallRecorder
    ) {
        let paywall = PaywallController(
            configuration: Session.configuration(products: ["com.example.premium.monthly", "com.example.nope"]),
            context: session.context, delegate: recorder)
        try paywall.appear()
        session.context.runUntilIdle()
        return (session, paywall, recorder)
    }

    @Test("Every callback under paywallController names, in order")
    func callbacks() throws {
        let (session, paywall, recorder) = try presented()
        try paywall.tapPurchase()
        session.context.runUntilIdle()
        session.store.script(.fail(StoreFailure(.paymentCancelled, "")))
        try paywall.tapPurchase()
        session.context.runUntilIdle()
        session.store.script(.fail(StoreFailure(.paymentInvalid, "")))
        try paywall.tapPurchase()
        session.context.runUntilIdle()
        try paywall.tapRestore()
        session.context.runUntilIdle()
        session.store.updateSettings { $0.simulatedErrors[.restore] = StoreFailure(.unknown, "") }
        try paywall.tapRestore()
        session.context.runUntilIdle()
        paywall.raiseScriptError("oops")
        paywall.failRendering("no fonts")
        paywall.sendAnalyticEvent("custom_event")
        try paywall.tapCustomAction("promo")
        try paywall.tapClose()
        let m = "com.example.premium.monthly"
        #expect(
            recorder.calls == [
                "didAppear", "didPartiallyLoadProducts com.example.nope", "didSelectProduct \(m)",
                "didStartPurchase \(m)", "didFinishPurchase \(m) success",
                "didStartPurchase \(m)", "didFinishPurchase \(m) cancelled",
                "didStartPurchase \(m)", "didFailPurchase \(m) purchase_failed",
                "didStartRestore", "didFinishRestore premium",
                "didStartRestore", "didFailRestore restore_failed",
                "didReceiveError 4105", "didFailRendering rendering_failed", "analytics custom_event",
                #"didPerform {"type":"custom","id":"promo"}"#, #"didPerform {"type":"close"}"#, "didDisappear",
            ])
        #expect(session.context.countedAnalytics.isEmpty, "flow_screen_showed belongs to flows")
        #expect(session.checker.isConformant, "\(session.checker.violations())")
    }

    @Test("Web payment navigation: the delegate may stop it; a failure is reported, then the navigation's end")
    func webNavigation() throws {
        let (session, paywall, recorder) = try presented()
        recorder.continueWebPayment = false
        try paywall.tapWebPurchase()
        #expect(recorder.calls.last == "shouldContinueWebPaymentNavigation com.example.premium.monthly")
        #expect(session.host.openedURLs.isEmpty)
        recorder.continueWebPayment = true
        try paywall.tapWebPurchase()
        #expect(recorder.calls.last == "didFinishWebPaymentNavigation ok")
        session.host.browserWorks = false
        try paywall.tapWebPurchase()
        #expect(
            recorder.calls.suffix(2) == [
                "didFailWebPaymentNavigation web_payment_failed", "didFinishWebPaymentNavigation web_payment_failed",
            ])
    }

    @Test("A paywall's loading failure: retried 2 seconds later when the delegate says so, not otherwise")
    func loadingFailure() throws {
        let session = Session()
        session.store.updateSettings { $0.simulatedErrors[.loadProducts] = StoreFailure(.unknown, "down") }
        let recorder = PaywallRecorder()
        recorder.retryLoading = true
        let (_, paywall, _) = try presented(recorder, session: session)
        #expect(recorder.calls == ["didAppear", "didFailLoadingProducts products_loading_failed"])
        session.store.updateSettings { $0.simulatedErrors[.loadProducts] = nil }
        recorder.retryLoading = false
        session.context.advance(by: 1.5)
        #expect(paywall.products.isEmpty)
        session.context.advance(by: 0.5)
        #expect(
            recorder.calls.suffix(2) == [
                "didPartiallyLoadProducts com.example.nope", "didSelectProduct com.example.premium.monthly",
            ])

        let other = Session()
        other.store.updateSettings { $0.simulatedErrors[.loadProducts] = StoreFailure(.unknown, "down") }
        let minimal = PaywallController(
            configuration: Session.configuration(), context: other.context, delegate: MinimalPaywallDelegate())
        try minimal.appear()
        other.context.runUntilIdle()
        other.store.updateSettings { $0.simulatedErrors[.loadProducts] = nil }
        other.context.advance(by: 10)
        #expect(minimal.products.isEmpty, "the default answer is false: no retry")
    }

    @Test("In-app browser presentation is passed to the host")
    func inAppBrowser() throws {
        let session = Session()
        let paywall = PaywallController(
            configuration: Session.configuration(webPresentation: .inAppBrowser), context: session.context,
            delegate: PaywallRecorder())
        try paywall.appear()
        session.context.runUntilIdle()
        try paywall.tapWebPurchase()
        #expect(session.host.openedURLs.map(\.presentation) == [.inAppBrowser])
    }
}
