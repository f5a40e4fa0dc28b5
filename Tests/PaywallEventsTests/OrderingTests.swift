import Foundation
import OpenStoreKit
import PaywallEvents
import PaywallEventsTest
import Purchases
import StoreModels
import StoreSimulator
import Synchronization
import Testing

@Suite("Ordering rules in live sessions")
struct OrderingTests {
    @Test("Returning true from the loading failure retries after exactly 2 seconds of store time")
    func retryTiming() throws {
        let session = Session()
        let start = session.store.now
        session.store.updateSettings {
            $0.simulatedErrors[.loadProducts] = StoreFailure(.cloudServiceNetworkConnectionFailed, "offline")
        }
        let recorder = FlowRecorder()
        recorder.retryLoading = true
        let flow = FlowController(configuration: Session.configuration(), context: session.context, delegate: recorder)
        try flow.appear()
        session.context.runUntilIdle()
        #expect(recorder.calls.filter { $0 == "didFailLoadingProducts" }.count == 1)
        #expect(session.context.scheduler.nextDueDate == start.addingTimeInterval(2))

        session.context.advance(by: 1)
        #expect(recorder.calls.filter { $0 == "didFailLoadingProducts" }.count == 1, "no retry after 1 s")
        session.context.advance(by: 1)
        #expect(recorder.calls.filter { $0 == "didFailLoadingProducts" }.count == 2, "retried at 2 s, failed again")

        session.store.updateSettings { $0.simulatedErrors[.loadProducts] = nil }
        session.context.advance(by: 1.999)
        #expect(flow.products.isEmpty, "the second retry is due at 4 s")
        session.context.advance(by: 0.001)
        #expect(flow.products.count == 3)
        #expect(recorder.calls.last == "didSelectProduct")
        let selected = session.checker.entries.last { entry in
            if case .callback(.didSelectProduct) = entry.fact { return true }
            return false
        }
        #expect(selected?.time == start.addingTimeInterval(4), "the products loaded at the moment of the retry")
        #expect(session.context.scheduler.pendingCount == 0)
    }

    @Test("A retry is dropped when the flow leaves the screen before it is due")
    func retryCancelled() throws {
        let session = Session()
        session.store.updateSettings { $0.simulatedErrors[.loadProducts] = StoreFailure(.unknown, "down") }
        let recorder = FlowRecorder()
        recorder.retryLoading = true
        let flow = FlowController(configuration: Session.configuration(), context: session.context, delegate: recorder)
        try flow.appear()
        session.context.runUntilIdle()
        try flow.disappear()
        session.context.advance(by: 10)
        #expect(recorder.calls.filter { $0 == "didFailLoadingProducts" }.count == 1)
        #expect(session.context.scheduler.pendingCount == 0)
    }

    @Test("Every purchase start is followed by exactly one end, every restore start by exactly one end")
    func pairing() throws {
        let session = Session()
        let recorder = FlowRecorder()
        recorder.dismissOnSuccess = false
        let flow = FlowController(configuration: Session.configuration(), context: session.context, delegate: recorder)
        try flow.appear()
        session.context.runUntilIdle()
        let outcomes: [ScriptedOutcome] = [
            .succeed, .fail(StoreFailure(.paymentCancelled, "")), .askToBuy, .fail(StoreFailure(.paymentInvalid, "")),
        ]
        for outcome in outcomes {
            session.store.script(outcome)
            try flow.tapPurchase("com.example.pro")
            session.context.runUntilIdle()
        }
        try flow.tapRestore()
        session.context.runUntilIdle()
        let names = session.names.filter { $0.contains("Purchase") || $0.contains("Restore") }
        #expect(
            names == [
                "didStartPurchase", "didFinishPurchase", "didStartPurchase", "didFinishPurchase", "didStartPurchase",
                "didFinishPurchase", "didStartPurchase", "didFailPurchase", "didStartRestore", "didFinishRestore",
            ])
        #expect(session.checker.isConformant, "\(session.checker.violations())")
    }

    @Test("Observer mode: the app's own purchase code runs and no purchase callback is called")
    func observerMode() throws {
        let tapped = Mutex<[String]>([])
        let delivered = DeliveredSet()
        let session = Session(mode: .observer, isDelivered: delivered.contains) { product in
            tapped.withLock { $0.append(product.vendorProductId) }
        }
        let app = FinishingApp(queue: session.queue, records: delivered)
        let recorder = FlowRecorder()
        let flow = FlowController(configuration: Session.configuration(), context: session.context, delegate: recorder)
        try flow.appear()
        session.context.runUntilIdle()
        try flow.tapPurchase()
        #expect(tapped.withLock { $0 } == ["com.example.premium.monthly"])
        app.buy("com.example.premium.monthly")
        session.context.runUntilIdle()
        #expect(app.delivered == ["com.example.premium.monthly"])
        #expect(session.purchases.profile.isActive("premium"), "observer mode still watches the queue")
        #expect(!recorder.calls.contains { $0.contains("Purchase") })
        try flow.tapRestore()
        session.context.runUntilIdle()
        #expect(recorder.calls.suffix(2) == ["didStartRestore", "didFinishRestore"])
        #expect(session.checker.isConformant, "\(session.checker.violations())")

        let silent = Session(mode: .observer)
        let other = FlowController(configuration: Session.configuration(), context: silent.context, delegate: nil)
        try other.appear()
        silent.context.runUntilIdle()
        #expect(throws: PaywallEventsError(.invalidAction, "")) { try other.tapPurchase() }
    }

    @Test("A purchase already running elsewhere fails the tap's purchase, still after its start")
    func busyModule() throws {
        let session = Session()
        let other = PaywallConfiguration(
            paywallId: "other", products: ["com.example.premium.monthly"],
            selectedProductId: "com.example.premium.monthly")
        let first = FlowController(configuration: other, context: session.context, delegate: nil)
        let recorder = FlowRecorder()
        let second = FlowController(
            configuration: Session.configuration(), context: session.context, delegate: recorder)
        try first.appear()
        try second.appear()
        session.context.runUntilIdle()
        try first.tapPurchase()
        try second.tapPurchase("com.example.pro")
        guard case .didFailPurchase(_, let error) = recorder.events.last else {
            Issue.record("no failure: \(recorder.calls)")
            return
        }
        #expect(error.purchasesError?.code == .purchaseInProgress)
        session.context.runUntilIdle()
        #expect(session.checker.isConformant, "\(session.checker.violations())")
    }
}

/// An app with its own purchase code that delivers, then finishes.
final class FinishingApp: NSObject, SKPaymentTransactionObserver, @unchecked Sendable {
    // @unchecked: used on one thread, the one driving the manual store.
    let queue: SKPaymentQueue
    let records: DeliveredSet
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

    func paymentQueue(_ queue: SKPaymentQueue, updatedTransactions transactions: [SKPaymentTransaction]) {
        for transaction in transactions {
            switch transaction.transactionState {
            case .purchased, .restored:
                delivered.append(transaction.payment.productIdentifier)
                records.insert(transaction)
                queue.finishTransaction(transaction)
            case .failed:
                queue.finishTransaction(transaction)
            case .purchasing, .deferred:
                break
            }
        }
    }
}
