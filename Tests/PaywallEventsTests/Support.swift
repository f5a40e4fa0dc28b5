import Foundation
import OpenStoreKit
import PaywallEvents
import PaywallEventsTest
import Purchases
import ReceiptKit
import StoreModels
import StoreSimulator
import Synchronization
import Testing

/// Test-only: the purchases a store's history lists for an account, as a verified receipt would list them. It stands
/// in for the verified-receipt source of the Purchases module in these tests; the store's history is the store's own
/// record, not the app's say-so.
struct StoreHistorySource: VerifiedPurchasesSource {
    let store: SimulatedStore
    let account: String

    func verifiedPurchases() throws(PurchasesError) -> VerifiedPurchases {
        let purchases = store.transactions(of: account).filter { $0.state == .purchased }.map { record in
            EntitlementTransaction(
                productID: record.productID,
                transactionID: String(record.id),
                originalTransactionID: String(record.originalID),
                purchaseDate: record.purchaseDate,
                expiresDate: record.expirationDate,
                cancellationDate: record.cancellationDate,
                isTrialPeriod: record.isTrialPeriod,
                isInIntroOfferPeriod: record.isInIntroOfferPeriod
            )
        }
        return VerifiedPurchases(purchases: purchases, date: store.now)
    }
}

/// Transactions an app delivered, by identifier.
final class DeliveredSet: Sendable {
    private let ids = Mutex(Set<String>())
    func insert(_ transaction: SKPaymentTransaction) {
        _ = ids.withLock { $0.insert(transaction.transactionIdentifier ?? "") }
    }
    @Sendable func contains(_ transaction: SKPaymentTransaction) -> Bool {
        ids.withLock { $0.contains(transaction.transactionIdentifier ?? "") }
    }
}

/// Which demo products grant which access levels.
let demoEntitlements = EntitlementPolicy(accessLevels: [
    "com.example.premium.monthly": ["premium"], "com.example.premium.yearly": ["premium"], "com.example.pro": ["pro"],
])

/// A store, a queue, the purchase module, a host, a context and a checker recording the context. The profile comes
/// from the store's history, or from the device's receipt when a receipt verifier is given.
struct Session {
    let store = SimulatedStore(lane: .manual)
    let queue: SKPaymentQueue
    let journal = InMemoryDeliveryJournal()
    let purchases: PurchaseController
    let host = SimulatedHost()
    let context: PresentationContext
    let checker: ConformanceChecker

    init(
        mode: PurchaseController.Mode = .full,
        polling: ProfilePollingPolicy = .default,
        requiredAccessLevel: String? = nil,
        isDelivered: (@Sendable (SKPaymentTransaction) -> Bool)? = nil,
        resolver: (@Sendable (PaywallProduct) -> Void)? = nil,
        receiptVerifier: ReceiptVerifier? = nil
    ) {
        queue = SKPaymentQueue(store: store)
        let source: any VerifiedPurchasesSource =
            if let receiptVerifier {
                ReceiptPurchasesSource(queue: queue, verifier: receiptVerifier)
            } else {
                StoreHistorySource(store: store, account: SimulatedStore.defaultAccount)
            }
        purchases = PurchaseController(
            queue: queue,
            mode: mode,
            journal: journal,
            entitlements: demoEntitlements,
            purchasesSource: source
        ) { _ in }
        context = PresentationContext(
            purchases: purchases, host: host, profileId: "profile-42", pollingPolicy: polling,
            observerModeResolver: resolver)
        checker = ConformanceChecker(mode: mode, requiredAccessLevel: requiredAccessLevel)
        context.add(checker)
        let journal = journal
        checker.watch(queue, isDelivered: isDelivered ?? { journal.isDelivered($0.transactionIdentifier ?? "") })
        store.runUntilIdle()
    }

    /// A flow or paywall configuration over demo products.
    static func configuration(
        products: [PaywallConfiguration.ProductSlot] = [
            "com.example.premium.monthly", "com.example.premium.yearly", "com.example.pro",
        ],
        screens: [FlowScreen] = [],
        webPurchaseURL: URL? = URL(string: "https://pay.example.com/checkout"),
        selected: String? = "com.example.premium.monthly",
        webPresentation: WebPresentation = .externalBrowser
    ) -> PaywallConfiguration {
        PaywallConfiguration(
            paywallId: "premium_paywall",
            variationId: "var_a",
            placementId: "onboarding_end",
            products: products,
            screens: screens,
            webPurchaseURL: webPurchaseURL,
            selectedProductId: selected,
            webPresentation: webPresentation
        )
    }

    /// The callbacks' names the checker recorded, without analytics.
    var names: [String] {
        checker.events.compactMap { $0.name == "didReceiveAnalyticEvent" ? nil : $0.name }
    }

    /// The rules the checker found broken.
    var rules: [ConformanceRule] { checker.violations().map(\.rule) }
}

/// A flow delegate that records every callback and reacts as it is told.
final class FlowRecorder: FlowControllerDelegate, @unchecked Sendable {
    // @unchecked: used on one thread, the one driving the manual store.
    var calls: [String] = []
    var events: [PaywallEvent] = []
    var retryLoading = false
    var dismissOnSuccess = true
    var dismissOnCancel = false
    var dismissAfterRestore = false

    private func note(_ event: PaywallEvent) {
        events.append(event)
        calls.append(event.name)
    }

    func flowControllerDidAppear(_ controller: FlowController) { note(.didAppear) }
    func flowControllerDidDisappear(_ controller: FlowController) { note(.didDisappear) }
    func flowController(_ controller: FlowController, didPerform action: FlowAction) {
        note(.didPerformAction(action))
        controller.performDefaultAction(action)
    }
    func flowController(_ controller: FlowController, didSelectProduct product: PaywallProduct) {
        note(.didSelectProduct(product))
    }
    func flowController(_ controller: FlowController, didStartPurchase product: PaywallProduct) {
        note(.didStartPurchase(product))
    }
    func flowController(
        _ controller: FlowController, didFinishPurchase product: PaywallProduct, purchaseResult: PurchaseResult
    ) {
        note(.didFinishPurchase(product, purchaseResult))
        switch purchaseResult {
        case .success: if dismissOnSuccess { controller.dismiss() }
        case .cancelled: if dismissOnCancel { controller.dismiss() }
        case .pending: break
        }
    }
    func flowController(
        _ controller: FlowController, didFailPurchase product: PaywallProduct, error: PaywallEventsError
    ) {
        note(.didFailPurchase(product, error))
    }
    func flowControllerDidStartRestore(_ controller: FlowController) { note(.didStartRestore) }
    func flowController(_ controller: FlowController, didFinishRestoreWith profile: Profile) {
        note(.didFinishRestore(profile))
        if dismissAfterRestore { controller.dismiss() }
    }
    func flowController(_ controller: FlowController, didFailRestoreWith error: PaywallEventsError) {
        note(.didFailRestore(error))
    }
    func flowController(_ controller: FlowController, didReceiveError error: PaywallEventsError) {
        note(.didReceiveError(error))
    }
    func flowController(_ controller: FlowController, didFailLoadingProductsWith error: PaywallEventsError) -> Bool {
        note(.didFailLoadingProducts(error))
        return retryLoading
    }
    func flowController(_ controller: FlowController, didPartiallyLoadProducts failedIds: [String]) {
        note(.didPartiallyLoadProducts(failedIds))
    }
    func flowController(
        _ controller: FlowController, didFinishWebPaymentNavigation product: PaywallProduct?,
        error: PaywallEventsError?
    ) {
        note(.didFinishWebPaymentNavigation(product, error))
    }
    func flowController(
        _ controller: FlowController, didReceiveAnalyticEvent name: String, params: [String: JSONValue]
    ) {
        note(.didReceiveAnalyticEvent(name: name, params: params))
    }
}

/// A flow delegate with only the four required callbacks: everything else is the protocol's default.
final class MinimalFlowDelegate: FlowControllerDelegate, @unchecked Sendable {
    // @unchecked: used on one thread, the one driving the manual store.
    var calls: [String] = []

    func flowController(
        _ controller: FlowController, didFinishPurchase product: PaywallProduct, purchaseResult: PurchaseResult
    ) {
        calls.append("didFinishPurchase \(purchaseResult.type)")
    }
    func flowController(
        _ controller: FlowController, didFailPurchase product: PaywallProduct, error: PaywallEventsError
    ) {
        calls.append("didFailPurchase")
    }
    func flowController(_ controller: FlowController, didFinishRestoreWith profile: Profile) {
        calls.append("didFinishRestore")
    }
    func flowController(_ controller: FlowController, didFailRestoreWith error: PaywallEventsError) {
        calls.append("didFailRestore")
    }
}

/// A paywall delegate that records every callback.
final class PaywallRecorder: PaywallControllerDelegate, @unchecked Sendable {
    // @unchecked: used on one thread, the one driving the manual store.
    var calls: [String] = []
    var continueWebPayment = true
    var retryLoading = false

    func paywallControllerDidAppear(_ controller: PaywallController) { calls.append("didAppear") }
    func paywallControllerDidDisappear(_ controller: PaywallController) { calls.append("didDisappear") }
    func paywallController(_ controller: PaywallController, didPerform action: FlowAction) {
        calls.append("didPerform \(action.jsonString)")
        controller.performDefaultAction(action)
    }
    func paywallController(_ controller: PaywallController, didSelectProduct product: PaywallProduct) {
        calls.append("didSelectProduct \(product.vendorProductId)")
    }
    func paywallController(_ controller: PaywallController, didStartPurchase product: PaywallProduct) {
        calls.append("didStartPurchase \(product.vendorProductId)")
    }
    func paywallController(
        _ controller: PaywallController, didFinishPurchase product: PaywallProduct, purchaseResult: PurchaseResult
    ) {
        calls.append("didFinishPurchase \(product.vendorProductId) \(purchaseResult.type)")
    }
    func paywallController(
        _ controller: PaywallController, didFailPurchase product: PaywallProduct, error: PaywallEventsError
    ) {
        calls.append("didFailPurchase \(product.vendorProductId) \(error.code.name)")
    }
    func paywallControllerDidStartRestore(_ controller: PaywallController) { calls.append("didStartRestore") }
    func paywallController(_ controller: PaywallController, didFinishRestoreWith profile: Profile) {
        calls.append("didFinishRestore \(profile.accessLevels.keys.sorted().joined(separator: ","))")
    }
    func paywallController(_ controller: PaywallController, didFailRestoreWith error: PaywallEventsError) {
        calls.append("didFailRestore \(error.code.name)")
    }
    func paywallController(_ controller: PaywallController, didReceiveError error: PaywallEventsError) {
        calls.append("didReceiveError \(error.code.rawValue)")
    }
    func paywallController(_ controller: PaywallController, didFailRenderingWith error: PaywallEventsError) {
        calls.append("didFailRendering \(error.code.name)")
    }
    func paywallController(_ controller: PaywallController, didFailLoadingProductsWith error: PaywallEventsError)
        -> Bool
    {
        calls.append("didFailLoadingProducts \(error.code.name)")
        return retryLoading
    }
    func paywallController(_ controller: PaywallController, didPartiallyLoadProducts failedIds: [String]) {
        calls.append("didPartiallyLoadProducts \(failedIds.joined(separator: ","))")
    }
    func paywallController(
        _ controller: PaywallController, shouldContinueWebPaymentNavigation product: PaywallProduct?
    ) -> Bool {
        calls.append("shouldContinueWebPaymentNavigation \(product?.vendorProductId ?? "-")")
        return continueWebPayment
    }
    func paywallController(
        _ controller: PaywallController, didFailWebPaymentNavigation product: PaywallProduct?,
        error: PaywallEventsError
    ) {
        calls.append("didFailWebPaymentNavigation \(error.code.name)")
    }
    func paywallController(
        _ controller: PaywallController, didFinishWebPaymentNavigation product: PaywallProduct?,
        error: PaywallEventsError?
    ) {
        calls.append("didFinishWebPaymentNavigation \(error?.code.name ?? "ok")")
    }
    func paywallController(
        _ controller: PaywallController, didReceiveAnalyticEvent name: String, params: [String: JSONValue]
    ) {
        calls.append("analytics \(name)")
    }
}

/// A paywall delegate with only the four required callbacks.
final class MinimalPaywallDelegate: PaywallControllerDelegate, @unchecked Sendable {
    // @unchecked: used on one thread, the one driving the manual store.
    var calls: [String] = []

    func paywallController(
        _ controller: PaywallController, didFinishPurchase product: PaywallProduct, purchaseResult: PurchaseResult
    ) {
        calls.append("didFinishPurchase \(purchaseResult.type)")
    }
    func paywallController(
        _ controller: PaywallController, didFailPurchase product: PaywallProduct, error: PaywallEventsError
    ) {
        calls.append("didFailPurchase")
    }
    func paywallController(_ controller: PaywallController, didFinishRestoreWith profile: Profile) {
        calls.append("didFinishRestore")
    }
    func paywallController(_ controller: PaywallController, didFailRestoreWith error: PaywallEventsError) {
        calls.append("didFailRestore")
    }
}

/// A store product with the specification's example values.
final class ExampleProduct: SKProduct, @unchecked Sendable {
    override var productIdentifier: String { "premium_monthly" }
    override var localizedTitle: String { "Premium Monthly" }
    override var localizedDescription: String { "Premium subscription for 1 month" }
    override var price: NSDecimalNumber { NSDecimalNumber(string: "9.99") }
    override var priceLocale: Locale { Locale(identifier: "en_US") }
}

/// 2024-02-15T10:30:00Z.
let exampleExpiry = Date(timeIntervalSince1970: 1_707_993_000)
