import Dispatch
import Foundation
import OpenStoreKit
import Purchases
import StoreModels
import StoreSimulator
import Synchronization
import TestSupport
import Testing

/// Records what the app delivered, and can be told to fail.
final class Shelf: Sendable {
    private let items = Mutex<[Delivery]>([])
    private let failing = Mutex(false)

    var delivered: [Delivery] { items.withLock { $0 } }
    var products: [String] { delivered.map(\.productID) }

    func fail(_ on: Bool) { failing.withLock { $0 = on } }

    @Sendable func deliver(_ delivery: Delivery) throws {
        struct Broken: Error {}
        if failing.withLock({ $0 }) { throw Broken() }
        items.withLock { $0.append(delivery) }
    }
}

/// Collects completion results; each completion must be called exactly once.
final class Calls<Value: Sendable>: Sendable {
    private let results = Mutex<[Value]>([])
    var all: [Value] { results.withLock { $0 } }
    var count: Int { all.count }
    var last: Value? { all.last }
    @Sendable func record(_ value: Value) { results.withLock { $0.append(value) } }
}

struct Fixture {
    let store: SimulatedStore
    let shelf = Shelf()
    let queue: SKPaymentQueue
    let controller: PurchaseController

    /// A manual store by default; async tests need a lane that runs by itself.
    init(
        lane: StoreLane.Mode = .manual,
        deviceID: String = SKPaymentQueue.defaultDeviceID,
        journal: any DeliveryJournal = InMemoryDeliveryJournal(),
        mode: PurchaseController.Mode = .full
    ) {
        store = SimulatedStore(lane: lane)
        queue = SKPaymentQueue(store: store, deviceID: deviceID)
        controller = PurchaseController(queue: queue, mode: mode, journal: journal, deliver: shelf.deliver)
    }

    func load(_ ids: Set<String> = ["com.example.pro", "com.example.coins100", "com.example.premium.monthly"]) {
        controller.loadProducts(ids) { _ in }
        store.runUntilIdle()
    }
}

@Suite("The purchase controller")
struct PurchaseControllerTests {
    @Test("Concurrent loads of the same products share one request; invalid identifiers are reported")
    func loadProducts() throws {
        let fixture = Fixture()
        let calls = Calls<Result<ProductsResult, PurchasesError>>()
        fixture.controller.loadProducts(["com.example.pro", "nope"], completion: calls.record)
        fixture.controller.loadProducts(["nope", "com.example.pro"], completion: calls.record)
        fixture.store.runUntilIdle()
        #expect(calls.count == 2)
        for result in calls.all {
            let loaded = try result.get()
            #expect(loaded.products.map(\.productIdentifier) == ["com.example.pro"])
            #expect(loaded.invalidIdentifiers == ["nope"])
        }
        #expect(fixture.controller.products.keys.sorted() == ["com.example.pro"])
    }

    @Test("Zero products is a success")
    func zeroProducts() throws {
        let fixture = Fixture()
        let calls = Calls<Result<ProductsResult, PurchasesError>>()
        fixture.controller.loadProducts(["x.y"], completion: calls.record)
        fixture.store.runUntilIdle()
        #expect(try calls.last?.get().products.isEmpty == true)
    }

    @Test("A failed load is retried as the policy says, then every caller hears the failure once")
    func retry() throws {
        let store = SimulatedStore(lane: .manual)
        store.updateSettings {
            $0.simulatedErrors[.loadProducts] = StoreFailure(.cloudServiceNetworkConnectionFailed, "offline")
        }
        let controller = PurchaseController(
            queue: SKPaymentQueue(store: store), retryPolicy: RetryPolicy(maxAttempts: 3)
        ) { _ in }
        store.runUntilIdle()
        let calls = Calls<Result<ProductsResult, PurchasesError>>()
        controller.loadProducts(["com.example.pro"], completion: calls.record)
        controller.loadProducts(["com.example.pro"], completion: calls.record)
        #expect(store.runUntilIdle() == 3, "three attempts, each one request on the store's lane")
        #expect(calls.count == 2)
        #expect(throws: PurchasesError(.productsLoadingFailed, storeCode: .cloudServiceNetworkConnectionFailed, "")) {
            try calls.last?.get()
        }

        store.updateSettings { $0.simulatedErrors[.loadProducts] = nil }
        let recovered = Calls<Result<ProductsResult, PurchasesError>>()
        store.script(.succeed)
        controller.loadProducts(["com.example.pro"], completion: recovered.record)
        store.runUntilIdle()
        #expect(try recovered.last?.get().products.count == 1)
    }

    @Test("A purchase is delivered before it is finished, and completes once")
    func purchase() throws {
        let fixture = Fixture()
        fixture.load()
        let calls = Calls<Result<PurchaseOutcome, PurchasesError>>()
        fixture.controller.purchase(productID: "com.example.pro", completion: calls.record)
        fixture.store.runUntilIdle()
        #expect(calls.count == 1)
        guard case .purchased(let delivery) = try calls.last?.get() else {
            Issue.record("not purchased: \(String(describing: calls.last))")
            return
        }
        #expect(delivery.productID == "com.example.pro")
        #expect(delivery.source == .purchase)
        #expect(fixture.shelf.products == ["com.example.pro"])
        #expect(fixture.queue.transactions.isEmpty)
    }

    @Test("A cancelled purchase completes as cancelled, not as a failure")
    func cancelled() throws {
        let fixture = Fixture()
        fixture.load()
        fixture.store.script(.fail(StoreFailure(.paymentCancelled, "tapped cancel")))
        let calls = Calls<Result<PurchaseOutcome, PurchasesError>>()
        fixture.controller.purchase(productID: "com.example.pro", completion: calls.record)
        fixture.store.runUntilIdle()
        #expect(try calls.last?.get() == .cancelled)
        #expect(calls.count == 1)
        #expect(fixture.shelf.delivered.isEmpty)
        #expect(fixture.queue.transactions.isEmpty, "failed transactions are finished")
    }

    @Test(
        "A failed purchase reports the store's code",
        arguments: [
            StoreErrorCode.paymentInvalid, .paymentNotAllowed, .storeProductNotAvailable,
            .cloudServiceNetworkConnectionFailed, .unknown,
        ]
    )
    func failed(code: StoreErrorCode) {
        let fixture = Fixture()
        fixture.load()
        fixture.store.script(.fail(StoreFailure(code, "scripted")))
        let calls = Calls<Result<PurchaseOutcome, PurchasesError>>()
        fixture.controller.purchase(productID: "com.example.coins100", completion: calls.record)
        fixture.store.runUntilIdle()
        #expect(calls.count == 1)
        #expect(throws: PurchasesError(.store, storeCode: SKError.Code(rawValue: code.rawValue), "")) {
            try calls.last?.get()
        }
    }

    @Test("A product not loaded, and a purchase while another runs, fail at once")
    func guards() {
        let fixture = Fixture()
        let missing = Calls<Result<PurchaseOutcome, PurchasesError>>()
        fixture.controller.purchase(productID: "com.example.pro", completion: missing.record)
        #expect(throws: PurchasesError(.productNotFound, "")) { try missing.last?.get() }

        fixture.load()
        let first = Calls<Result<PurchaseOutcome, PurchasesError>>()
        let second = Calls<Result<PurchaseOutcome, PurchasesError>>()
        fixture.controller.purchase(productID: "com.example.pro", completion: first.record)
        fixture.controller.purchase(productID: "com.example.coins100", completion: second.record)
        #expect(throws: PurchasesError(.purchaseInProgress, "")) { try second.last?.get() }
        let restore = Calls<Result<Set<String>, PurchasesError>>()
        fixture.controller.restore(completion: restore.record)
        fixture.store.runUntilIdle()
        #expect(first.count == 1)
        #expect(second.count == 1)
        #expect(restore.count == 1, "a restore has its own guard and may run beside a purchase")
    }

    @Test("Ask to Buy: pending now, delivered later through updates; declined: nothing more")
    func askToBuy() async throws {
        let fixture = Fixture()
        fixture.load()
        fixture.store.updateSettings { $0.askToBuyEnabled = true }
        let updates = fixture.controller.updates
        let calls = Calls<Result<PurchaseOutcome, PurchasesError>>()
        fixture.controller.purchase(productID: "com.example.pro", completion: calls.record)
        fixture.store.runUntilIdle()
        #expect(try calls.last?.get() == .pending)
        let declinedCall = Calls<Result<PurchaseOutcome, PurchasesError>>()
        fixture.controller.purchase(productID: "com.example.coins100", completion: declinedCall.record)
        fixture.store.runUntilIdle()
        #expect(try declinedCall.last?.get() == .pending, "a pending purchase no longer blocks the next one")

        let records = fixture.store.allTransactions()
        try fixture.store.declineAskToBuy(try #require(records.first { $0.productID == "com.example.coins100" }).id)
        try fixture.store.approveAskToBuy(try #require(records.first { $0.productID == "com.example.pro" }).id)
        fixture.store.runUntilIdle()
        #expect(calls.count == 1)
        #expect(fixture.shelf.products == ["com.example.pro"])
        let update = try await next(updates, "the next purchase update")
        guard case .delivered(let delivery) = update else {
            Issue.record("expected a delivery, got \(String(describing: update))")
            return
        }
        #expect(delivery.productID == "com.example.pro")
        #expect(delivery.source == .update)
    }

    @Test("Restore with nothing, and with several products, completes once with the restored products")
    func restore() async throws {
        let fixture = Fixture(lane: .dispatch(DispatchQueue(label: "restore")))
        let empty = try await fixture.controller.restore()
        #expect(empty.isEmpty)
        _ = try await fixture.controller.products([
            "com.example.pro", "com.example.premium.monthly", "com.example.coins100",
        ])
        for product in ["com.example.pro", "com.example.premium.monthly", "com.example.coins100"] {
            _ = try await fixture.controller.purchase(productID: product)
        }
        let restored = try await fixture.controller.restore()
        #expect(restored == ["com.example.pro", "com.example.premium.monthly"])
        #expect(fixture.shelf.delivered.filter { $0.source == .restore }.count == 2)
    }

    @Test("A failed restore reports the store's code")
    func restoreFails() {
        let fixture = Fixture()
        fixture.store.updateSettings { $0.simulatedErrors[.restore] = StoreFailure(.paymentNotAllowed, "no") }
        let calls = Calls<Result<Set<String>, PurchasesError>>()
        fixture.controller.restore(completion: calls.record)
        let busy = Calls<Result<Set<String>, PurchasesError>>()
        fixture.controller.restore(completion: busy.record)
        #expect(throws: PurchasesError(.restoreInProgress, "")) { try busy.last?.get() }
        fixture.store.runUntilIdle()
        #expect(calls.count == 1)
        #expect(throws: PurchasesError(.store, storeCode: .paymentNotAllowed, "")) { try calls.last?.get() }
    }

    @Test("The async API: purchase returns the outcome")
    func asyncPurchase() async throws {
        let fixture = Fixture(lane: .dispatch(DispatchQueue(label: "async")))
        let loaded = try await fixture.controller.products(["com.example.coins100"])
        #expect(loaded.products.count == 1)
        let outcome = try await fixture.controller.purchase(productID: "com.example.coins100", quantity: 3)
        guard case .purchased(let delivery) = outcome else {
            Issue.record("\(outcome)")
            return
        }
        #expect(delivery.quantity == 3)
        await #expect(throws: PurchasesError(.productNotFound, "")) {
            try await fixture.controller.purchase(productID: "com.example.pro")
        }
    }

    @Test("A delivery that fails leaves the transaction unfinished; after a restart it is delivered once")
    func restartWithPendingDelivery() throws {
        let journal = InMemoryDeliveryJournal()
        let store = SimulatedStore(lane: .manual)
        let shelf = Shelf()
        shelf.fail(true)
        var queue: SKPaymentQueue? = SKPaymentQueue(store: store, deviceID: "phone")
        var controller: PurchaseController? = PurchaseController(
            queue: queue!, journal: journal, deliver: shelf.deliver)
        controller?.loadProducts(["com.example.pro"]) { _ in }
        store.runUntilIdle()
        let calls = Calls<Result<PurchaseOutcome, PurchasesError>>()
        controller?.purchase(productID: "com.example.pro", completion: calls.record)
        store.runUntilIdle()
        #expect(throws: PurchasesError(.deliveryFailed, "")) { try calls.last?.get() }
        #expect(queue?.transactions.count == 1, "not finished")
        controller = nil
        queue = nil

        shelf.fail(false)
        let relaunched = SKPaymentQueue(store: store, deviceID: "phone")
        let after = PurchaseController(queue: relaunched, journal: journal, deliver: shelf.deliver)
        store.runUntilIdle()
        #expect(shelf.products == ["com.example.pro"])
        #expect(shelf.delivered.first?.source == .update)
        #expect(relaunched.transactions.isEmpty)
        _ = after
    }

    @Test("A transaction delivered but not finished before a crash is not granted twice")
    func exactlyOnce() throws {
        let journal = InMemoryDeliveryJournal()
        let store = SimulatedStore(lane: .manual)
        let shelf = Shelf()
        // The app delivered and recorded the delivery, then died before finishing.
        let dying = SKPaymentQueue(store: store, deviceID: "phone")
        let payment = SKMutablePayment()
        payment.productIdentifier = "com.example.coins100"
        dying.add(payment)
        store.runUntilIdle()
        let transaction = try #require(dying.transactions.first)
        try shelf.deliver(
            Delivery(
                productID: "com.example.coins100", transactionID: transaction.transactionIdentifier!,
                originalTransactionID: nil, quantity: 1, date: nil, source: .purchase)
        )
        journal.markDelivered(transaction.transactionIdentifier!)

        let relaunched = SKPaymentQueue(store: store, deviceID: "phone")
        let controller = PurchaseController(queue: relaunched, journal: journal, deliver: shelf.deliver)
        store.runUntilIdle()
        #expect(shelf.delivered.count == 1, "delivered once in all")
        #expect(relaunched.transactions.isEmpty, "and finished now")
        _ = controller
    }

    @Test("Observer mode watches: it neither delivers nor finishes, and its own purchase calls still answer")
    func observerMode() throws {
        let fixture = Fixture(mode: .observer)
        fixture.load()
        let calls = Calls<Result<PurchaseOutcome, PurchasesError>>()
        fixture.controller.purchase(productID: "com.example.pro", completion: calls.record)
        fixture.store.runUntilIdle()
        #expect(fixture.shelf.delivered.isEmpty)
        #expect(fixture.queue.transactions.count == 1, "the app's own code finishes")
        #expect(calls.count == 1)
    }
}

@Suite("The purchase controller and the store's own events")
struct PurchaseControllerStoreEventTests {
    @Test(
        "An interrupted purchase completes as cancelled; the resolved purchase arrives through updates, delivered once")
    func interrupted() async throws {
        let fixture = Fixture()
        fixture.load()
        fixture.store.updateSettings { $0.interruptedPurchasesEnabled = true }
        let updates = fixture.controller.updates
        let calls = Calls<Result<PurchaseOutcome, PurchasesError>>()
        fixture.controller.purchase(productID: "com.example.coins100", quantity: 2, completion: calls.record)
        fixture.store.runUntilIdle()
        #expect(try calls.last?.get() == .cancelled)
        let failed = try #require(fixture.store.allTransactions().first)
        fixture.store.updateSettings { $0.interruptedPurchasesEnabled = false }
        _ = try fixture.store.resolveIssue(failed.id)
        fixture.store.runUntilIdle()
        #expect(calls.count == 1)
        #expect(fixture.shelf.delivered.map(\.quantity) == [2])
        guard case .delivered(let delivery) = try await next(updates, "the next purchase update") else {
            Issue.record("expected a delivery")
            return
        }
        #expect(delivery.productID == "com.example.coins100")
        #expect(delivery.source == .update)
    }

    @Test("Renewals are delivered through updates without a pending call")
    func renewals() async throws {
        let fixture = Fixture()
        fixture.load()
        let updates = fixture.controller.updates
        fixture.controller.purchase(productID: "com.example.premium.monthly") { _ in }
        fixture.store.runUntilIdle()
        try fixture.store.advance(by: 38 * 86_400)
        fixture.store.runUntilIdle()
        #expect(fixture.shelf.delivered.map(\.source) == [.purchase, .update, .update])
        for _ in 0..<2 {
            guard case .delivered(let delivery) = try await next(updates, "the next purchase update") else {
                Issue.record("expected a renewal")
                return
            }
            #expect(delivery.productID == "com.example.premium.monthly")
        }
        #expect(fixture.queue.transactions.isEmpty)
    }
}
