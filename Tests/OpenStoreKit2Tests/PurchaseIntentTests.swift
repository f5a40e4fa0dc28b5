import Foundation
import OpenStoreKit
import OpenStoreKit2
import OpenStoreKitTest
import StoreModels
import StoreSimulator
import Synchronization
import Testing

/// Answers `paymentQueue(_:shouldAddStorePayment:for:)` with `answer`, noting the products it was asked about.
private final class StorePaymentObserver: NSObject, SKPaymentTransactionObserver, @unchecked Sendable {
    let answer: Bool
    private let log = Mutex<(asked: [String], states: [SKPaymentTransactionState])>(([], []))

    init(answer: Bool) { self.answer = answer }

    var asked: [String] { log.withLock { $0.asked } }
    var states: [SKPaymentTransactionState] { log.withLock { $0.states } }

    func paymentQueue(_ queue: SKPaymentQueue, updatedTransactions transactions: [SKPaymentTransaction]) {
        log.withLock { $0.states += transactions.map(\.transactionState) }
        for transaction in transactions where transaction.transactionState == .purchased {
            queue.finishTransaction(transaction)
        }
    }

    func paymentQueue(_ queue: SKPaymentQueue, shouldAddStorePayment payment: SKPayment, for product: SKProduct)
        -> Bool
    {
        log.withLock { $0.asked.append(product.productIdentifier) }
        return answer
    }
}

@Suite("PurchaseIntent: a purchase started in the App Store", .timeLimit(.minutes(1)))
struct PurchaseIntentTests {
    static let monthly = "com.example.premium.monthly"
    static let offerID = "com.example.premium.monthly.winback"

    @Test("StoreKit 2 hears the intent with its product and offer, and the app completes the purchase")
    func storeKit2() async throws {
        let store = SimulatedStore(lane: .manual)
        let session = SKTestSession(store: store)
        try await StoreKitEnvironment.withStore(store) {
            var intents = PurchaseIntent.intents.makeAsyncIterator()
            try session.sendPurchaseIntent(productIdentifier: Self.monthly)
            store.runUntilIdle()
            let intent = try #require(await intents.next())
            #expect(intent.id == Self.monthly)
            #expect(intent.product.id == Self.monthly)
            #expect(intent.offer == nil)
            let transaction = try purchased(try await intent.product.purchase())
            #expect(transaction.productID == Self.monthly)
        }
    }

    @Test("An intent with an offer carries the subscription's offer")
    func withOffer() async throws {
        let store = SimulatedStore(lane: .manual)
        let session = SKTestSession(store: store)
        try await StoreKitEnvironment.withStore(store) {
            var intents = PurchaseIntent.intents.makeAsyncIterator()
            try session.sendPurchaseIntent(productIdentifier: Self.monthly, offerIdentifier: Self.offerID)
            store.runUntilIdle()
            let intent = try #require(await intents.next())
            #expect(intent.offer?.id == Self.offerID)
            #expect(intent.offer?.type == .promotional)
            #expect(intent.offer.map { intent.product.subscription?.promotionalOffers.contains($0) } == true)
        }
    }

    @Test("An intent sent before the app listens waits for its first iterator")
    func backlog() async throws {
        let store = SimulatedStore(lane: .manual)
        let session = SKTestSession(store: store)
        try await StoreKitEnvironment.withStore(store) {
            _ = try await product(Self.monthly)  // the app is running, not yet listening to intents
            try session.sendPurchaseIntent(productIdentifier: "com.example.pro")
            store.runUntilIdle()
            var intents = PurchaseIntent.intents.makeAsyncIterator()
            #expect(await intents.next()?.id == "com.example.pro")
        }
    }

    @Test("StoreKit 1 asks its observers; a yes adds the payment and the purchase completes", arguments: [true, false])
    func storeKit1(answer: Bool) throws {
        let store = SimulatedStore(lane: .manual)
        let session = SKTestSession(store: store)
        let queue = SKPaymentQueue(store: store)
        let observer = StorePaymentObserver(answer: answer)
        queue.add(observer)
        defer { queue.remove(observer) }
        try session.sendPurchaseIntent(productIdentifier: "com.example.pro")
        store.runUntilIdle()
        #expect(observer.asked == ["com.example.pro"])
        #expect(observer.states == (answer ? [.purchasing, .purchased] : []))
        #expect(
            store.transactions(of: SimulatedStore.defaultAccount).map(\.productID)
                == (answer ? ["com.example.pro"] : []))
    }

    @Test("An intent sent to one device reaches both StoreKit faces there, and no other device of the account")
    func oneDevice() async throws {
        let store = SimulatedStore(lane: .manual)
        let queue = SKPaymentQueue(store: store)
        let observer = StorePaymentObserver(answer: false)
        queue.add(observer)
        defer { queue.remove(observer) }
        let tablet = SKPaymentQueue(store: store, deviceID: "tablet")
        let other = StorePaymentObserver(answer: false)
        tablet.add(other)
        defer { tablet.remove(other) }
        try await StoreKitEnvironment.withStore(store) {
            var intents = PurchaseIntent.intents.makeAsyncIterator()
            try store.sendPurchaseIntent(productID: "com.example.pro", deviceID: queue.deviceID)
            store.runUntilIdle()
            #expect(await intents.next()?.id == "com.example.pro")
            #expect(observer.asked == ["com.example.pro"])
            #expect(other.asked.isEmpty)
            try store.sendPurchaseIntent(productID: "com.example.season")
            store.runUntilIdle()
            #expect(observer.asked == ["com.example.pro", "com.example.season"])
            #expect(other.asked == ["com.example.season"])
        }
    }

    @Test("An unknown product or an offer the product lacks is refused, and nobody hears anything")
    func refused() throws {
        let store = SimulatedStore(lane: .manual)
        let session = SKTestSession(store: store)
        let queue = SKPaymentQueue(store: store)
        let observer = StorePaymentObserver(answer: true)
        queue.add(observer)
        defer { queue.remove(observer) }
        #expect(throws: SKTestError.self) { try session.sendPurchaseIntent(productIdentifier: "com.example.nothing") }
        let error = #expect(throws: SKTestError.self) {
            try session.sendPurchaseIntent(productIdentifier: "com.example.pro", offerIdentifier: "nope")
        }
        #expect(error?.localizedDescription.contains("nope") == true)
        store.runUntilIdle()
        #expect(observer.asked.isEmpty)
    }
}
