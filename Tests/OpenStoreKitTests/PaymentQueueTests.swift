import Dispatch
import Foundation
import OpenStoreKit
import StoreModels
import StoreSimulator
import Synchronization
import Testing

/// A fresh manual store, a queue on it and an observer that finishes what completes.
private func makeQueue(
    policy: RecordingObserver.Policy = .finishCompleted
) -> (SimulatedStore, SKPaymentQueue, RecordingObserver) {
    let store = SimulatedStore(lane: .manual)
    let queue = SKPaymentQueue(store: store)
    let observer = RecordingObserver(policy: policy)
    queue.add(observer)
    return (store, queue, observer)
}

private func payment(_ productID: String, quantity: Int = 1) -> SKMutablePayment {
    let payment = SKMutablePayment()
    payment.productIdentifier = productID
    payment.quantity = quantity
    return payment
}

@Suite("Payment queue")
struct PaymentQueueTests {
    @Test("A purchase is reported purchasing, then purchased, each in its own callback; finishing removes it")
    func purchaseLifecycle() throws {
        let (store, queue, observer) = makeQueue(policy: .keep)
        queue.add(payment("com.example.pro"))
        #expect(queue.transactions.count == 1)
        #expect(observer.events.isEmpty, "nothing is reported before the store's lane runs")
        store.runUntilIdle()
        let batches = observer.updateBatches
        try #require(batches.count == 2)
        #expect(batches[0].map(\.transactionState) == [.purchasing])
        #expect(batches[0][0].transactionIdentifier == nil)
        #expect(batches[0][0].transactionDate == nil)
        #expect(batches[1].map(\.transactionState) == [.purchased])
        #expect(batches[1][0].transactionIdentifier != nil)
        #expect(batches[1][0].transactionDate == store.now)
        #expect(batches[0][0].object === batches[1][0].object, "the same transaction object changes state")

        let transaction = try #require(queue.transactions.first)
        queue.finishTransaction(transaction)
        #expect(queue.transactions.count == 1, "finishing is asynchronous")
        store.runUntilIdle()
        #expect(queue.transactions.isEmpty)
        #expect(observer.events.last == "removed com.example.pro")
    }

    @Test("Observers are held weakly and a released one is never called")
    func observersAreWeak() {
        let store = SimulatedStore(lane: .manual)
        let queue = SKPaymentQueue(store: store)
        var observer: RecordingObserver? = RecordingObserver()
        queue.add(observer!)
        #expect(queue.transactionObservers.count == 1)
        weak let released = observer
        observer = nil
        #expect(released == nil, "the queue must not keep the observer alive")
        #expect(queue.transactionObservers.isEmpty)
        queue.add(payment("com.example.pro"))
        store.runUntilIdle()
        #expect(queue.transactions.first?.transactionState == .purchased)
    }

    @Test("Removed observers hear nothing more")
    func removeObserver() {
        let (store, queue, observer) = makeQueue()
        queue.remove(observer)
        queue.add(payment("com.example.pro"))
        store.runUntilIdle()
        #expect(observer.events.isEmpty)
    }

    @Test("An unknown product fails with paymentInvalid", arguments: ["com.example.nope", ""])
    func unknownProduct(productID: String) throws {
        let (store, queue, observer) = makeQueue()
        queue.add(payment(productID))
        store.runUntilIdle()
        let final = try #require(observer.updateBatches.last?.first)
        #expect(final.transactionState == .failed)
        #expect(final.errorCode == .paymentInvalid)
        #expect(final.transactionIdentifier == nil)
        #expect(store.allTransactions().isEmpty, "an invalid payment never reaches the purchase history")
    }

    @Test("A quantity outside 1...10 fails with paymentInvalid", arguments: [0, -1, 11, 100])
    func quantityOutOfRange(quantity: Int) throws {
        let (store, queue, observer) = makeQueue()
        queue.add(payment("com.example.coins100", quantity: quantity))
        store.runUntilIdle()
        let final = try #require(observer.updateBatches.last?.first)
        #expect(final.transactionState == .failed)
        #expect(final.errorCode == .paymentInvalid)
    }

    @Test("Quantities 1 and 10 are charged once with that quantity", arguments: [1, 10])
    func quantityInRange(quantity: Int) throws {
        let (store, queue, observer) = makeQueue()
        queue.add(payment("com.example.coins100", quantity: quantity))
        store.runUntilIdle()
        #expect(observer.states(of: "com.example.coins100") == [.purchasing, .purchased])
        #expect(store.allTransactions().map(\.quantity) == [quantity])
    }

    @Test("Finishing a purchasing transaction is a programming error with StoreKit's message")
    func finishingPurchasingIsAnError() throws {
        let (store, queue, _) = makeQueue(policy: .keep)
        let messages = Mutex<[String]>([])
        queue.programmingErrorHandler = { message in messages.withLock { $0.append(message) } }
        queue.add(payment("com.example.pro"))
        let transaction = try #require(queue.transactions.first)
        queue.finishTransaction(transaction)
        #expect(messages.withLock { $0 } == ["Cannot finish a purchasing transaction"])
        store.runUntilIdle()
        #expect(queue.transactions.count == 1, "the transaction stays in the queue")
    }

    @Test("Finishing a transaction twice is harmless and reported once")
    func finishTwice() throws {
        let (store, queue, observer) = makeQueue(policy: .keep)
        queue.add(payment("com.example.pro"))
        store.runUntilIdle()
        let transaction = try #require(queue.transactions.first)
        queue.finishTransaction(transaction)
        queue.finishTransaction(transaction)
        store.runUntilIdle()
        #expect(observer.events.filter { $0.hasPrefix("removed") }.count == 1)
    }

    @Test("An owned non-consumable bought again is purchased without a second charge")
    func repurchaseNonConsumable() throws {
        let (store, queue, observer) = makeQueue()
        queue.add(payment("com.example.pro"))
        store.runUntilIdle()
        queue.add(payment("com.example.pro"))
        store.runUntilIdle()
        #expect(observer.states(of: "com.example.pro") == [.purchasing, .purchased, .purchasing, .purchased])
        #expect(store.allTransactions().count == 1, "charged once")
        let ids = observer.updateBatches.flatMap { $0 }.filter { $0.transactionState == .purchased }
            .compactMap(\.transactionIdentifier)
        #expect(Set(ids).count == 2, "each purchase is its own transaction")
    }

    @Test("The same payment added twice makes two transactions and two charges")
    func samePaymentTwice() {
        let (store, queue, _) = makeQueue()
        let coins = payment("com.example.coins100")
        queue.add(coins)
        queue.add(coins)
        store.runUntilIdle()
        #expect(store.allTransactions().count == 2)
    }

    @Test("Changing a mutable payment after adding it does not change the queued request")
    func paymentIsCopied() throws {
        let (store, queue, _) = makeQueue(policy: .keep)
        let mutable = payment("com.example.coins100", quantity: 2)
        queue.add(mutable)
        mutable.quantity = 7
        mutable.productIdentifier = "com.example.pro"
        store.runUntilIdle()
        let transaction = try #require(queue.transactions.first)
        #expect(transaction.payment.productIdentifier == "com.example.coins100")
        #expect(transaction.payment.quantity == 2)
    }

    @Test(
        "A scripted failure fails the purchase with its code", arguments: [StoreErrorCode.paymentCancelled, .unknown])
    func scriptedFailure(code: StoreErrorCode) throws {
        let (store, queue, observer) = makeQueue()
        store.script(.fail(StoreFailure(code, "scripted")), forProduct: "com.example.pro")
        queue.add(payment("com.example.coins100"))
        queue.add(payment("com.example.pro"))
        store.runUntilIdle()
        #expect(observer.states(of: "com.example.coins100") == [.purchasing, .purchased])
        #expect(observer.states(of: "com.example.pro") == [.purchasing, .failed])
        let failed = try #require(observer.updateBatches.flatMap { $0 }.last { $0.transactionState == .failed })
        #expect(failed.errorCode?.rawValue == code.rawValue)
        let error = try #require(failed.object.error as NSError?)
        #expect(error.domain == SKErrorDomain)
        #expect(error.code == code.rawValue)
    }

    @Test("A device that may not pay fails purchases with paymentNotAllowed and says so")
    func paymentsNotAllowed() throws {
        let (store, queue, observer) = makeQueue()
        store.updateSettings { $0.paymentsAllowed = false }
        #expect(!queue.canMakePayments())
        queue.add(payment("com.example.pro"))
        store.runUntilIdle()
        #expect(observer.updateBatches.last?.first?.errorCode == .paymentNotAllowed)
    }

    @Test("Ask to Buy: purchasing, deferred, then purchased on approval")
    func askToBuyApproved() throws {
        let (store, queue, observer) = makeQueue()
        store.updateSettings { $0.askToBuyEnabled = true }
        queue.add(payment("com.example.pro"))
        store.runUntilIdle()
        #expect(observer.states(of: "com.example.pro") == [.purchasing, .deferred])
        let deferred = try #require(queue.transactions.first)
        #expect(deferred.transactionIdentifier == nil)
        let pending = try #require(store.allTransactions().first)
        #expect(pending.pendingAskToBuyConfirmation)
        (store.clock as? ManualClock)?.advance(by: 86_400)
        try store.approveAskToBuy(pending.id)
        store.runUntilIdle()
        #expect(observer.states(of: "com.example.pro") == [.purchasing, .deferred, .purchased])
        #expect(observer.updateBatches.last?.first?.object === deferred)
        #expect(store.allTransactions().first?.purchaseDate == store.now, "charged when approved")
        #expect(queue.transactions.isEmpty, "the observer finished it")
    }

    @Test("Ask to Buy declined: nothing more is reported and the transaction leaves the queue")
    func askToBuyDeclined() throws {
        let (store, queue, observer) = makeQueue()
        let simulated = payment("com.example.pro")
        simulated.simulatesAskToBuyInSandbox = true
        queue.add(simulated)
        store.runUntilIdle()
        let pending = try #require(store.allTransactions().first)
        try store.declineAskToBuy(pending.id)
        store.runUntilIdle()
        #expect(observer.states(of: "com.example.pro") == [.purchasing, .deferred])
        #expect(queue.transactions.isEmpty)
        #expect(store.allTransactions().first?.state == .failed)
        #expect(throws: StoreSimulatorError(.invalidAction, "")) { try store.approveAskToBuy(pending.id) }
    }

    @Test("Finishing a deferred transaction is a programming error")
    func finishingDeferredIsAnError() throws {
        let (store, queue, _) = makeQueue(policy: .keep)
        store.updateSettings { $0.askToBuyEnabled = true }
        let messages = Mutex<[String]>([])
        queue.programmingErrorHandler = { message in messages.withLock { $0.append(message) } }
        queue.add(payment("com.example.pro"))
        store.runUntilIdle()
        queue.finishTransaction(try #require(queue.transactions.first))
        #expect(messages.withLock { $0 } == ["Cannot finish a deferred transaction"])
    }

    @Test("Identifiers and dates are the same on every run")
    func determinism() {
        func run() -> [String] {
            let (store, queue, observer) = makeQueue()
            let clock = store.clock as? ManualClock
            for product in ["com.example.pro", "com.example.coins100", "com.example.premium.monthly"] {
                queue.add(payment(product))
                store.runUntilIdle()
                clock?.advance(by: 3_600)
            }
            queue.restoreCompletedTransactions()
            store.runUntilIdle()
            return observer.updateBatches.flatMap { $0 }.map {
                "\($0.productIdentifier) \($0.transactionState) \($0.transactionIdentifier ?? "-") \($0.transactionDate?.timeIntervalSince1970 ?? 0)"
            } + observer.events
        }
        let first = run()
        #expect(first.count > 8)
        #expect(first == run())
    }

    @Test("Two stores never see each other's purchases")
    func storesAreIsolated() async {
        await withTaskGroup(of: Int.self) { group in
            for index in 0..<8 {
                group.addTask {
                    let (store, queue, _) = makeQueue()
                    for _ in 0...index { queue.add(payment("com.example.coins100")) }
                    store.runUntilIdle()
                    return store.allTransactions().count - index
                }
            }
            for await difference in group { #expect(difference == 1) }
        }
    }

    @Test("Callbacks arrive on the store's dispatch queue")
    func callbacksOnConfiguredQueue() async throws {
        let key = DispatchSpecificKey<String>()
        let callbackQueue = DispatchQueue(label: "callbacks")
        callbackQueue.setSpecific(key: key, value: "callbacks")
        let store = SimulatedStore(lane: .dispatch(callbackQueue))
        let queue = SKPaymentQueue(store: store)
        let observer = ThreadCheckingObserver(key: key)
        queue.add(observer)
        queue.add(payment("com.example.pro"))
        await store.idle()
        #expect(observer.labels == ["callbacks", "callbacks", "callbacks"])
        #expect(queue.transactions.isEmpty)
    }

    @Test("The storefront comes from the store, and a change is announced")
    func storefront() {
        let (store, queue, observer) = makeQueue()
        #expect(queue.storefront?.countryCode == "USA")
        #expect(queue.storefront?.identifier == "143441")
        store.updateSettings { $0.storefront = Storefront(countryCode: "GBR") }
        store.runUntilIdle()
        #expect(queue.storefront?.countryCode == "GBR")
        #expect(observer.events == ["storefront GBR"])
    }

    @Test("A delegate that declines a storefront change fails the purchase with storeProductNotAvailable")
    func storefrontChangeDeclined() throws {
        let (store, queue, observer) = makeQueue()
        let delegate = StorefrontDelegate(answer: false)
        queue.delegate = delegate
        queue.add(payment("com.example.pro"))
        store.updateSettings { $0.storefront = Storefront(countryCode: "DEU") }
        store.runUntilIdle()
        #expect(delegate.asked == ["DEU"])
        #expect(observer.updateBatches.last?.first?.errorCode == .storeProductNotAvailable)
    }

    @Test("A delegate that accepts a storefront change lets the purchase go on")
    func storefrontChangeAccepted() throws {
        let (store, queue, observer) = makeQueue()
        let delegate = StorefrontDelegate(answer: true)
        queue.delegate = delegate
        queue.add(payment("com.example.pro"))
        store.updateSettings { $0.storefront = Storefront(countryCode: "DEU") }
        store.runUntilIdle()
        #expect(observer.states(of: "com.example.pro") == [.purchasing, .purchased])
    }
}

private final class ThreadCheckingObserver: NSObject, SKPaymentTransactionObserver, @unchecked Sendable {
    let key: DispatchSpecificKey<String>
    private let seen = Mutex<[String]>([])
    init(key: DispatchSpecificKey<String>) { self.key = key }
    var labels: [String] { seen.withLock { $0 } }

    func paymentQueue(_ queue: SKPaymentQueue, updatedTransactions transactions: [SKPaymentTransaction]) {
        let label = DispatchQueue.getSpecific(key: key) ?? "elsewhere"
        seen.withLock { $0.append(label) }
        for transaction in transactions where transaction.transactionState == .purchased {
            queue.finishTransaction(transaction)
        }
    }

    func paymentQueue(_ queue: SKPaymentQueue, removedTransactions transactions: [SKPaymentTransaction]) {
        let label = DispatchQueue.getSpecific(key: key) ?? "elsewhere"
        seen.withLock { $0.append(label) }
    }
}

private final class StorefrontDelegate: NSObject, SKPaymentQueueDelegate, @unchecked Sendable {
    let answer: Bool
    private let log = Mutex<[String]>([])
    init(answer: Bool) { self.answer = answer }
    var asked: [String] { log.withLock { $0 } }

    func paymentQueue(
        _ paymentQueue: SKPaymentQueue,
        shouldContinue transaction: SKPaymentTransaction,
        in newStorefront: SKStorefront
    ) -> Bool {
        log.withLock { $0.append(newStorefront.countryCode) }
        return answer
    }
}
