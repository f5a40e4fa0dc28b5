import Foundation
import OpenStoreKit
import PaywallEvents
import PaywallEventsTest
import Purchases
import StoreModels
import StoreSimulator
import Testing

/// Hand-made sessions, each breaking one rule.
@Suite("The conformance checker")
struct ConformanceCheckerTests {
    static let flow = PresentedScreen(kind: .flow, id: "premium")
    static let monthly = PaywallProduct(
        vendorProductId: "premium_monthly", localizedTitle: "Premium Monthly", localizedDescription: "",
        localizedPrice: "$9.99", price: Decimal(string: "9.99")!, currencyCode: "USD")
    static let yearly = PaywallProduct(
        vendorProductId: "premium_yearly", localizedTitle: "Premium Yearly", localizedDescription: "",
        localizedPrice: "$59.99", price: Decimal(string: "59.99")!, currencyCode: "USD")
    static let storeFailure = PaywallEventsError(
        .purchaseFailed, "failed", underlying: PurchasesError(.store, storeCode: .paymentInvalid, "invalid"))
    static let cancelFailure = PaywallEventsError(
        .purchaseFailed, "failed", underlying: PurchasesError(.store, storeCode: .paymentCancelled, "cancelled"))

    /// A checker that recorded these facts, in order, from the flow.
    func checker(
        _ facts: [SessionEntry.Fact], mode: PurchaseController.Mode = .full, requiredAccessLevel: String? = nil
    ) -> ConformanceChecker {
        let checker = ConformanceChecker(mode: mode, requiredAccessLevel: requiredAccessLevel)
        for fact in facts {
            checker.record(SessionEntry(source: Self.flow, fact: fact, time: ManualClock.defaultStart))
        }
        return checker
    }

    @Test(
        "Each broken ordering rule is reported",
        arguments: [
            (
                [.callback(.didStartPurchase(monthly)), .callback(.didStartPurchase(monthly))],
                [
                    ConformanceRule.purchaseStartedTwice, .purchaseNotEnded,
                ]
            ),
            ([.callback(.didFinishPurchase(monthly, .cancelled))], [.purchaseEndedWithoutStart]),
            (
                [
                    .callback(.didStartPurchase(monthly)), .callback(.didFinishPurchase(monthly, .pending)),
                    .callback(.didFailPurchase(monthly, storeFailure)),
                ], [.purchaseEndedWithoutStart]
            ),
            (
                [.callback(.didStartPurchase(monthly)), .callback(.didFinishPurchase(yearly, .cancelled))],
                [.purchaseProductMismatch]
            ),
            ([.callback(.didStartPurchase(monthly))], [.purchaseNotEnded]),
            (
                [.callback(.didStartPurchase(monthly)), .callback(.didFailPurchase(monthly, cancelFailure))],
                [.cancelReportedAsFailure]
            ),
            (
                [
                    .callback(.didStartPurchase(monthly)),
                    .transactionUpdated(productId: "premium_monthly", transactionId: 7, state: .deferred, error: nil),
                    .callback(.didFailPurchase(monthly, storeFailure)),
                ], [.pendingReportedAsFailure]
            ),
            (
                [
                    .callback(.didStartPurchase(monthly)),
                    .transactionUpdated(
                        productId: "premium_monthly", transactionId: 7, state: .failed, error: .paymentCancelled),
                    .callback(.didFailPurchase(monthly, storeFailure)),
                ], [.cancelReportedAsFailure]
            ),
            ([.callback(.didStartRestore), .callback(.didStartRestore)], [.restoreStartedTwice, .restoreNotEnded]),
            ([.callback(.didFinishRestore(.empty))], [.restoreEndedWithoutStart]),
            (
                [
                    .callback(.didStartRestore), .callback(.didFailRestore(storeFailure)),
                    .callback(.didFinishRestore(.empty)),
                ],
                [.restoreEndedWithoutStart]
            ),
            ([.callback(.didStartRestore)], [.restoreNotEnded]),
            ([.screenShown("intro"), .screenShown("plans")], [.screenNotReported, .screenNotReported]),
            (
                [
                    .screenShown("intro"),
                    .callback(.didReceiveAnalyticEvent(name: "flow_screen_showed", params: ["screen_id": "intro"])),
                ], [.screenNotReported]
            ),
            (
                [.transactionFinished(productId: "premium_monthly", transactionId: 9, delivered: false)],
                [
                    .finishedBeforeDelivery
                ]
            ),
        ] as [([SessionEntry.Fact], [ConformanceRule])]
    )
    func rules(facts: [SessionEntry.Fact], broken: [ConformanceRule]) {
        let checker = checker(facts)
        #expect(checker.violations().map(\.rule) == broken)
        #expect(!checker.isConformant)
    }

    @Test("Sessions that keep the rules pass")
    func conformant() {
        let checker = checker([
            .presented, .screenShown("intro"),
            .counted(AnalyticsRecord(name: "flow_screen_showed", params: ["screen_id": "intro"])),
            .callback(.didReceiveAnalyticEvent(name: "flow_screen_showed", params: ["screen_id": "intro"])),
            .callback(.didStartPurchase(Self.monthly)), .callback(.didFinishPurchase(Self.monthly, .cancelled)),
            .callback(.didStartPurchase(Self.monthly)), .callback(.didFinishPurchase(Self.monthly, .pending)),
            .callback(.didStartPurchase(Self.yearly)), .callback(.didFailPurchase(Self.yearly, Self.storeFailure)),
            .callback(.didStartRestore), .callback(.didFinishRestore(.empty)),
            .transactionFinished(productId: "premium_monthly", transactionId: 9, delivered: true), .dismissed,
        ])
        #expect(checker.violations() == [])
    }

    @Test("A purchase still running is only reported once the session ends")
    func running() {
        let checker = checker([.callback(.didStartPurchase(Self.monthly))])
        #expect(checker.violations(sessionEnded: false).isEmpty)
        #expect(checker.violations().map(\.rule) == [.purchaseNotEnded])
        #expect(checker.violations().first?.entryIndex == nil)
    }

    @Test("Any purchase callback in observer mode is reported, with where it happened")
    func observerMode() {
        let checker = checker(
            [.callback(.didStartPurchase(Self.monthly)), .callback(.didFinishPurchase(Self.monthly, .cancelled))],
            mode: .observer)
        let violations = checker.violations()
        #expect(violations.map(\.rule) == [.purchaseCallbackInObserverMode, .purchaseCallbackInObserverMode])
        #expect(violations.map(\.entryIndex) == [0, 1])
        #expect(violations[0].description.hasPrefix("purchase-callback-in-observer-mode: flow:premium called"))
    }

    @Test("An app that dismisses the flow on a cancelled purchase is reported")
    func dismissOnCancel() throws {
        let session = Session()
        let recorder = FlowRecorder()
        recorder.dismissOnCancel = true
        let flow = FlowController(configuration: Session.configuration(), context: session.context, delegate: recorder)
        try flow.appear()
        session.context.runUntilIdle()
        session.store.script(.fail(StoreFailure(.paymentCancelled, "")))
        try flow.tapPurchase()
        session.context.runUntilIdle()
        #expect(session.rules == [.dismissedOnCancel])
        #expect(
            session.checker.violations().first?.message.contains("com.example.premium.monthly was cancelled") == true)
    }

    @Test("An app that dismisses after a restore without checking the access level is reported")
    func dismissWithoutAccess() throws {
        let session = Session(requiredAccessLevel: "premium")
        let recorder = FlowRecorder()
        recorder.dismissAfterRestore = true
        let flow = FlowController(configuration: Session.configuration(), context: session.context, delegate: recorder)
        try flow.appear()
        session.context.runUntilIdle()
        try session.store.buyProduct("com.example.pro")
        try flow.tapRestore()
        session.context.runUntilIdle()
        #expect(session.rules == [.dismissedWithoutAccess])

        let entitled = Session(requiredAccessLevel: "premium")
        let other = FlowController(
            configuration: Session.configuration(), context: entitled.context, delegate: recorder)
        try other.appear()
        entitled.context.runUntilIdle()
        try entitled.store.buyProduct("com.example.premium.yearly")
        try other.tapRestore()
        entitled.context.runUntilIdle()
        #expect(entitled.rules == [])
    }

    @Test("An app that finishes a transaction before delivering it is reported; the purchase module is not")
    func finishBeforeDelivery() throws {
        let delivered = DeliveredSet()
        let session = Session(mode: .observer, isDelivered: delivered.contains)
        let app = HastyApp(queue: session.queue, records: delivered)
        app.buy("com.example.pro")
        session.context.runUntilIdle()
        app.deliverLater()
        #expect(app.delivered == ["com.example.pro"])
        #expect(session.rules == [.finishedBeforeDelivery])

        let good = Session()
        let flow = FlowController(configuration: Session.configuration(), context: good.context, delegate: nil)
        try flow.appear()
        good.context.runUntilIdle()
        try flow.tapPurchase()
        good.context.runUntilIdle()
        let finished = good.checker.entries.filter { entry in
            if case .transactionFinished(_, _, true) = entry.fact { return true }
            return false
        }
        #expect(finished.count == 1)
        #expect(good.rules == [])
    }
}

/// An app that finishes a transaction as soon as it hears of it and delivers the content later.
final class HastyApp: NSObject, SKPaymentTransactionObserver, @unchecked Sendable {
    // @unchecked: used on one thread, the one driving the manual store.
    let queue: SKPaymentQueue
    let records: DeliveredSet
    var waiting: [SKPaymentTransaction] = []
    var delivered: [String] = []

    init(queue: SKPaymentQueue, records: DeliveredSet) {
        self.queue = queue
        self.records = records
        super.init()
        queue.add(self)
    }

    func buy(_ productId: String) {
        let payment = SKMutablePayment()
        payment.productIdentifier = productId
        queue.add(payment)
    }

    func deliverLater() {
        for transaction in waiting {
            records.insert(transaction)
            delivered.append(transaction.payment.productIdentifier)
        }
        waiting.removeAll()
    }

    func paymentQueue(_ queue: SKPaymentQueue, updatedTransactions transactions: [SKPaymentTransaction]) {
        for transaction in transactions where transaction.transactionState == .purchased {
            queue.finishTransaction(transaction)
            waiting.append(transaction)
        }
    }
}
