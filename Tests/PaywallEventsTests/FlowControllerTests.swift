import Foundation
import OpenStoreKit
import PaywallEvents
import PaywallEventsTest
import Purchases
import ReceiptKit
import StoreModels
import StoreSimulator
import Testing

@Suite("The flow controller")
struct FlowControllerTests {
    /// A flow of three screens on a fresh session, on screen with its products loaded.
    func presented(
        _ recorder: FlowRecorder = FlowRecorder(),
        configuration: PaywallConfiguration? = nil,
        session: Session = Session()
    ) throws -> (Session, FlowController, FlowRecorder) {
        let flow = FlowController(
            configuration: configuration
                ?? Session.configuration(screens: [
                    FlowScreen(id: "intro", buttons: ["terms": .openURL(URL(string: "https://example.com/terms")!)]),
                    FlowScreen(id: "plans", productIds: ["com.example.premium.monthly", "com.example.premium.yearly"]),
                    FlowScreen(id: "final", buttons: ["later": .close, "notify": .custom(id: "allowNotifications")]),
                ]),
            context: session.context,
            delegate: recorder
        )
        try flow.appear()
        session.context.runUntilIdle()
        return (session, flow, recorder)
    }

    @Test("Appearing: didAppear, flow_screen_showed for the first screen, products loaded, the default selected")
    func appear() throws {
        let (session, flow, recorder) = try presented()
        #expect(recorder.calls == ["didAppear", "didReceiveAnalyticEvent", "didSelectProduct"])
        #expect(
            recorder.events[1]
                == .didReceiveAnalyticEvent(
                    name: "flow_screen_showed",
                    params: ["screen_id": .string("intro"), "screen_index": .number(0), "screens_total": .number(3)]))
        #expect(session.context.countedAnalytics.map(\.name) == ["flow_screen_showed"], "counted by the library too")
        guard case .didSelectProduct(let product) = recorder.events[2] else { return }
        #expect(product.vendorProductId == "com.example.premium.monthly")
        #expect(product.localizedPrice == "$4.99")
        #expect(
            flow.products.map(\.vendorProductId) == [
                "com.example.premium.monthly", "com.example.premium.yearly", "com.example.pro",
            ])
        #expect(flow.isOnScreen)
        #expect(session.host.onScreen == [PresentedScreen(kind: .flow, id: "onboarding_end")])
        #expect(throws: PaywallEventsError(.invalidAction, "")) { try flow.appear() }
    }

    @Test("flow_screen_showed is sent for each screen shown, to the delegate and to the library's analytics")
    func screens() throws {
        let (session, flow, recorder) = try presented()
        try flow.nextScreen()
        try flow.nextScreen()
        #expect(throws: PaywallEventsError(.invalidAction, "")) { try flow.nextScreen() }
        let shown = recorder.events.compactMap { event -> String? in
            guard case .didReceiveAnalyticEvent("flow_screen_showed", let params) = event else { return nil }
            return params["screen_id"]?.stringValue
        }
        #expect(shown == ["intro", "plans", "final"])
        #expect(session.context.countedAnalytics.compactMap { $0.params["screen_id"]?.stringValue } == shown)
        #expect(flow.currentScreen.id == "final")
        #expect(session.checker.isConformant)
    }

    @Test("Products that fail to load are reported by id; the rest load")
    func partialLoad() throws {
        let configuration = Session.configuration(products: [
            "com.example.premium.monthly", "com.example.gone", "com.example.pro", "com.example.missing",
        ])
        let (_, flow, recorder) = try presented(configuration: configuration)
        #expect(recorder.events.contains(.didPartiallyLoadProducts(["com.example.gone", "com.example.missing"])))
        #expect(flow.products.map(\.vendorProductId) == ["com.example.premium.monthly", "com.example.pro"])
        #expect(throws: PaywallEventsError(.invalidAction, "")) { try flow.selectProduct("com.example.gone") }
    }

    @Test("The user selects a product offered on the current screen")
    func select() throws {
        let (_, flow, recorder) = try presented()
        try flow.selectProduct("com.example.pro")
        #expect(flow.selectedProduct?.vendorProductId == "com.example.pro")
        try flow.nextScreen()
        #expect(throws: PaywallEventsError(.invalidAction, "")) { try flow.selectProduct("com.example.pro") }
        try flow.selectProduct("com.example.premium.yearly")
        #expect(
            recorder.events.compactMap { event -> String? in
                guard case .didSelectProduct(let product) = event else { return nil }
                return product.vendorProductId
            } == ["com.example.premium.monthly", "com.example.pro", "com.example.premium.yearly"])
    }

    @Test("A successful purchase: start, then success with the profile; the flow is not dismissed by itself")
    func purchase() throws {
        let recorder = FlowRecorder()
        recorder.dismissOnSuccess = false
        let (session, flow, _) = try presented(recorder)
        try flow.tapPurchase()
        #expect(recorder.calls.last == "didStartPurchase")
        #expect(throws: PaywallEventsError(.invalidAction, "")) { try flow.tapPurchase() }
        session.context.runUntilIdle()
        guard case .didFinishPurchase(let product, .success(let profile)) = recorder.events.last else {
            Issue.record("no success: \(recorder.calls)")
            return
        }
        #expect(product.vendorProductId == "com.example.premium.monthly")
        #expect(profile.isActive("premium"))
        #expect(flow.isOnScreen, "a success does not dismiss a flow")
        #expect(session.journal.isDelivered(session.store.transactions().last.map { String($0.id) } ?? ""))
        #expect(session.checker.isConformant, "\(session.checker.violations())")
    }

    @Test("A cancel finishes with a cancelled result and never calls didFailPurchase")
    func cancel() throws {
        let (session, flow, recorder) = try presented()
        session.store.script(.fail(StoreFailure(.paymentCancelled, "tapped cancel")))
        try flow.tapPurchase("com.example.pro")
        session.context.runUntilIdle()
        #expect(recorder.calls.suffix(2) == ["didStartPurchase", "didFinishPurchase"])
        guard case .didFinishPurchase(_, .cancelled) = recorder.events.last else {
            Issue.record("not cancelled: \(recorder.events.last.map { "\($0)" } ?? "nothing")")
            return
        }
        #expect(!recorder.calls.contains("didFailPurchase"))
        #expect(flow.isOnScreen)
        #expect(session.checker.isConformant, "\(session.checker.violations())")
    }

    @Test("A pending purchase (Ask to Buy) finishes with a pending result and never calls didFailPurchase")
    func pending() throws {
        let (session, flow, recorder) = try presented()
        session.store.updateSettings { $0.askToBuyEnabled = true }
        try flow.tapPurchase()
        session.context.runUntilIdle()
        guard case .didFinishPurchase(_, .pending) = recorder.events.last else {
            Issue.record("not pending: \(recorder.calls)")
            return
        }
        #expect(!recorder.calls.contains("didFailPurchase"))
        #expect(session.checker.isConformant, "\(session.checker.violations())")
    }

    @Test(
        "Store errors fail the purchase with purchase_failed and the store's code",
        arguments: [StoreErrorCode.paymentNotAllowed, .storeProductNotAvailable, .cloudServiceNetworkConnectionFailed]
    )
    func failure(code: StoreErrorCode) throws {
        let (session, flow, recorder) = try presented()
        session.store.script(.fail(StoreFailure(code, "scripted")))
        try flow.tapPurchase()
        session.context.runUntilIdle()
        guard case .didFailPurchase(let product, let error) = recorder.events.last else {
            Issue.record("no failure: \(recorder.calls)")
            return
        }
        #expect(product.vendorProductId == "com.example.premium.monthly")
        #expect(error.code == .purchaseFailed)
        #expect(error.purchasesError?.storeCode == SKError.Code(rawValue: code.rawValue))
        #expect(error.details["underlyingError"]?.contains("SKError \(code.rawValue)") == true)
        #expect(session.checker.isConformant, "\(session.checker.violations())")
    }

    @Test("A purchase whose receipt does not verify fails with purchase_failed and the verification error")
    func unverifiedPurchase() throws {
        let untrusting = try ReceiptVerifier(trustedRoots: [], trustsTestRoot: false)
        let (session, flow, recorder) = try presented(session: Session(receiptVerifier: untrusting))
        try flow.tapPurchase()
        session.context.runUntilIdle()
        #expect(recorder.calls.suffix(2) == ["didStartPurchase", "didFailPurchase"])
        guard case .didFailPurchase(let product, let error) = recorder.events.last else {
            Issue.record("no failure: \(recorder.calls)")
            return
        }
        #expect(product.vendorProductId == "com.example.premium.monthly")
        #expect(error.code == .purchaseFailed)
        #expect(error.purchasesError?.code == .receiptInvalid)
        #expect(error.details["underlyingError"]?.contains("does not verify") == true)
        #expect(!recorder.calls.contains("didFinishPurchase"))
        #expect(session.checker.isConformant, "\(session.checker.violations())")
    }

    @Test("The same purchase with a receipt that verifies succeeds with the receipt's profile")
    func verifiedPurchase() throws {
        let trusting = try ReceiptVerifier(trustedRoots: [], trustsTestRoot: true)
        let recorder = FlowRecorder()
        recorder.dismissOnSuccess = false
        let (session, flow, _) = try presented(recorder, session: Session(receiptVerifier: trusting))
        try flow.tapPurchase()
        session.context.runUntilIdle()
        guard case .didFinishPurchase(_, .success(let profile)) = recorder.events.last else {
            Issue.record("no success: \(recorder.calls)")
            return
        }
        #expect(profile.isActive("premium"))
        #expect(session.checker.isConformant, "\(session.checker.violations())")
    }

    @Test("A restore whose receipt does not verify fails with restore_failed, not a profile with nothing")
    func unverifiedRestore() throws {
        let untrusting = try ReceiptVerifier(trustedRoots: [], trustsTestRoot: false)
        let (session, flow, recorder) = try presented(session: Session(receiptVerifier: untrusting))
        try session.store.buyProduct("com.example.pro")
        session.context.runUntilIdle()
        try flow.tapRestore()
        session.context.runUntilIdle()
        #expect(recorder.calls.suffix(2) == ["didStartRestore", "didFailRestore"])
        guard case .didFailRestore(let error) = recorder.events.last else {
            Issue.record("no failure: \(recorder.calls)")
            return
        }
        #expect(error.code == .restoreFailed)
        #expect(error.purchasesError?.code == .receiptInvalid)
        #expect(session.checker.isConformant, "\(session.checker.violations())")
    }

    @Test("A restore: start, then the profile with what was restored")
    func restore() throws {
        let (session, flow, recorder) = try presented()
        try session.store.buyProduct("com.example.pro")
        session.context.runUntilIdle()
        try flow.tapRestore()
        #expect(throws: PaywallEventsError(.invalidAction, "")) { try flow.tapRestore() }
        session.context.runUntilIdle()
        #expect(recorder.calls.suffix(2) == ["didStartRestore", "didFinishRestore"])
        guard case .didFinishRestore(let profile) = recorder.events.last else { return }
        #expect(profile.isActive("pro"))
        #expect(session.checker.isConformant, "\(session.checker.violations())")
    }

    @Test("A failed restore: start, then didFailRestoreWith restore_failed")
    func failedRestore() throws {
        let (session, flow, recorder) = try presented()
        session.store.updateSettings {
            $0.simulatedErrors[.restore] = StoreFailure(.cloudServiceNetworkConnectionFailed, "offline")
        }
        try flow.tapRestore()
        session.context.runUntilIdle()
        guard case .didFailRestore(let error) = recorder.events.last else {
            Issue.record("no failure: \(recorder.calls)")
            return
        }
        #expect(error.code == .restoreFailed)
        #expect(error.purchasesError?.storeCode == .cloudServiceNetworkConnectionFailed)
        #expect(session.checker.isConformant)
    }

    @Test("Actions reach the delegate: close, a link, a custom button, configured buttons")
    func actions() throws {
        let (session, flow, recorder) = try presented()
        let url = URL(string: "https://example.com/privacy")!
        try flow.tapURL(url)
        try flow.tapCustomAction("help")
        try flow.tapButton("terms")
        #expect(throws: PaywallEventsError(.invalidAction, "")) { try flow.tapButton("later") }
        try flow.nextScreen()
        try flow.nextScreen()
        try flow.tapButton("notify")
        try flow.tapClose()
        let actions = recorder.events.compactMap { event -> FlowAction? in
            guard case .didPerformAction(let action) = event else { return nil }
            return action
        }
        #expect(
            actions == [
                .openURL(url), .custom(id: "help"), .openURL(URL(string: "https://example.com/terms")!),
                .custom(id: "allowNotifications"), .close,
            ])
        #expect(session.host.openedURLs.map(\.url.absoluteString) == [url.absoluteString, "https://example.com/terms"])
        #expect(recorder.calls.last == "didDisappear", "close dismisses by default")
        #expect(!flow.isOnScreen)
        #expect(throws: PaywallEventsError(.invalidAction, "")) { try flow.tapClose() }
    }

    @Test("Script errors arrive with code 4105 and rendering errors with rendering_failed, through didReceiveError")
    func errors() throws {
        let (_, flow, recorder) = try presented()
        flow.raiseScriptError("undefined is not a function")
        flow.failRendering("font missing")
        let errors = recorder.events.compactMap { event -> PaywallEventsError? in
            guard case .didReceiveError(let error) = event else { return nil }
            return error
        }
        #expect(errors.map(\.code.rawValue) == [4105, 4])
        #expect(errors.map(\.code.name) == ["script_error", "rendering_failed"])
    }

    @Test("Analytics events of the screen reach the delegate")
    func analytics() throws {
        let (_, flow, recorder) = try presented()
        flow.sendAnalyticEvent("plan_toggled", params: ["yearly": .bool(true)])
        #expect(recorder.events.last == .didReceiveAnalyticEvent(name: "plan_toggled", params: ["yearly": .bool(true)]))
    }

    @Test("The web purchase button opens the product's web paywall and reports the navigation's end")
    func webPurchase() throws {
        let (session, flow, recorder) = try presented()
        try flow.tapWebPurchase()
        guard case .didFinishWebPaymentNavigation(let product, nil) = recorder.events.last else {
            Issue.record("no navigation: \(recorder.calls)")
            return
        }
        #expect(product?.vendorProductId == "com.example.premium.monthly")
        #expect(session.host.openedURLs.last?.presentation == .externalBrowser)
        session.host.browserWorks = false
        try flow.tapWebPurchase()
        guard case .didFinishWebPaymentNavigation(_, let error?) = recorder.events.last else {
            Issue.record("no failed navigation: \(recorder.calls)")
            return
        }
        #expect(error.code == .webPaymentFailed)
        #expect(error.details["underlyingError"]?.contains("failed_opening_web_paywall_url") == true)
    }

    @Test("Disappearing: didDisappear; actions on a flow that is not on screen are refused")
    func disappear() throws {
        let (session, flow, recorder) = try presented()
        try flow.disappear()
        #expect(recorder.calls.last == "didDisappear")
        #expect(session.host.onScreen.isEmpty)
        #expect(throws: PaywallEventsError(.invalidAction, "")) { try flow.disappear() }
        #expect(throws: PaywallEventsError(.invalidAction, "")) { try flow.tapPurchase() }
        flow.dismiss()
        #expect(recorder.calls.filter { $0 == "didDisappear" }.count == 1)
    }
}
