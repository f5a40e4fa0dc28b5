import Foundation
import OpenStoreKit
import OpenStoreKit2
import OpenStoreKitTest
import StoreModels
import StoreSimulator
import TestSupport
import Testing

/// Records what a StoreKit 1 observer hears, and finishes nothing.
private final class Recorder: NSObject, SKPaymentTransactionObserver, @unchecked Sendable {
    // @unchecked: called on the store's manual lane, which the test runs on its own task.
    private(set) var updated: [(product: String, state: SKPaymentTransactionState)] = []
    private(set) var removed: [String] = []

    func paymentQueue(_ queue: SKPaymentQueue, updatedTransactions transactions: [SKPaymentTransaction]) {
        for transaction in transactions {
            updated.append((transaction.payment.productIdentifier, transaction.transactionState))
        }
    }

    func paymentQueue(_ queue: SKPaymentQueue, removedTransactions transactions: [SKPaymentTransaction]) {
        removed += transactions.map(\.payment.productIdentifier)
    }
}

@Suite("One engine under StoreKit 1 and StoreKit 2", .timeLimit(.minutes(1)))
struct OneEngineTests {
    @Test("An unfinished StoreKit 2 purchase is in SKPaymentQueue.transactions; finishing it in StoreKit 2 removes it")
    func storeKit2PurchaseInTheQueue() async throws {
        let store = SimulatedStore(lane: .manual)
        let queue = SKPaymentQueue(store: store)
        let recorder = Recorder()
        queue.add(recorder)
        try await StoreKitEnvironment.withStore(store) {
            let transaction = try purchased(try await product("com.example.pro").purchase())
            store.runUntilIdle()
            #expect(queue.transactions.map(\.payment.productIdentifier) == ["com.example.pro"])
            #expect(queue.transactions.first?.transactionState == .purchased)
            #expect(recorder.updated.last?.state == .purchased)
            await transaction.finish()
            store.runUntilIdle()
            #expect(queue.transactions.isEmpty)
            #expect(recorder.removed == ["com.example.pro"])
            #expect(await collect(Transaction.unfinished).isEmpty)
        }
    }

    @Test("Finishing a StoreKit 2 purchase through SKPaymentQueue finishes it for StoreKit 2")
    func finishedThroughStoreKit1() async throws {
        let store = SimulatedStore(lane: .manual)
        let queue = SKPaymentQueue(store: store)
        let recorder = Recorder()
        queue.add(recorder)
        try await StoreKitEnvironment.withStore(store) {
            _ = try purchased(try await product("com.example.pro").purchase())
            store.runUntilIdle()
            #expect(await collect(Transaction.unfinished).count == 1)
            let sk1 = try #require(queue.transactions.first)
            queue.finishTransaction(sk1)
            store.runUntilIdle()
            #expect(await collect(Transaction.unfinished).isEmpty)
            #expect(queue.transactions.isEmpty)
        }
    }

    @Test("A renewal reaches both the StoreKit 1 observer and Transaction.updates, once each")
    func renewalReachesBoth() async throws {
        let store = SimulatedStore(lane: .manual)
        let session = SKTestSession(store: store)
        let queue = SKPaymentQueue(store: store)
        let recorder = Recorder()
        queue.add(recorder)
        try await StoreKitEnvironment.withStore(store) {
            let tap = UpdatesTap()
            let first = try purchased(try await product("com.example.premium.monthly").purchase())
            await first.finish()
            _ = try session.advance(by: 32 * 86_400)
            store.runUntilIdle()
            let renewal = try await tap.next().payloadValue
            #expect(renewal.originalID == first.id)
            let heard = recorder.updated.filter {
                $0.product == "com.example.premium.monthly" && $0.state == .purchased
            }
            #expect(heard.count == 2)  // the purchase, then the renewal
            let elsewhere = try await session.buyProduct(identifier: "com.example.coins100")
            #expect(try await tap.next().unsafePayloadValue.id == elsewhere.id)
            tap.stop()
        }
    }

    @Test("A consumable finished by a developer's server (Finish Transaction) leaves SKPaymentQueue and unfinished")
    func finishedByTheServer() async throws {
        let store = SimulatedStore(lane: .manual)
        let queue = SKPaymentQueue(store: store)
        let recorder = Recorder()
        queue.add(recorder)
        try await StoreKitEnvironment.withStore(store) {
            let coins = try purchased(try await product("com.example.coins100").purchase())
            let pro = try purchased(try await product("com.example.pro").purchase())
            store.runUntilIdle()
            #expect(await collect(Transaction.unfinished).map(\.unsafePayloadValue.id) == [coins.id, pro.id])
            try store.perform(.finishTransaction(coins.id))
            store.runUntilIdle()
            #expect(await collect(Transaction.unfinished).map(\.unsafePayloadValue.id) == [pro.id])
            #expect(queue.transactions.map(\.payment.productIdentifier) == ["com.example.pro"])
            #expect(recorder.removed == ["com.example.coins100"])
        }
    }

    @Test("An app account token a developer's server sets (Set App Account Token) is Transaction.appAccountToken")
    func appAccountTokenSetByTheServer() async throws {
        let store = SimulatedStore(lane: .manual)
        try await StoreKitEnvironment.withStore(store) {
            let bought = try purchased(try await product("com.example.pro").purchase())
            #expect(bought.appAccountToken == nil)
            let token = UUID()
            try store.perform(.setAppAccountToken(token, originalTransactionID: bought.originalID))
            let latest = try #require(await Transaction.latest(for: "com.example.pro"))
            #expect(try latest.payloadValue.appAccountToken == token)
            let unfinished = await collect(Transaction.unfinished)
            #expect(try unfinished.map { try $0.payloadValue.appAccountToken } == [token])
        }
    }
}
