import Foundation
import OpenStoreKit
import OpenStoreKit2
import OpenStoreKitTest
import StoreModels
import StoreSimulator
import TestSupport
import Testing

/// Counts what a StoreKit 1 observer hears.
private final class QueueCounter: NSObject, SKPaymentTransactionObserver, @unchecked Sendable {
    // @unchecked: called on the store's manual lane, which the test runs on its own task.
    private(set) var updatedProducts: [String] = []

    func paymentQueue(_ queue: SKPaymentQueue, updatedTransactions transactions: [SKPaymentTransaction]) {
        updatedProducts += transactions.map(\.payment.productIdentifier)
    }
}

@Suite("Purchases on other devices and refunds of consumables reach Transaction.updates", .timeLimit(.minutes(1)))
struct OtherDeviceTests {
    @Test("A purchase on another device of the account reaches updates once, in order; StoreKit 1's queue never has it")
    func purchaseOnAnotherDevice() async throws {
        let store = SimulatedStore(lane: .manual)
        let queue = SKPaymentQueue(store: store)
        let counter = QueueCounter()
        queue.add(counter)
        try await StoreKitEnvironment.withStore(store) {
            let tap = UpdatesTap()
            let (first, second) = try await StoreKitEnvironment.withStore(store, deviceID: "tablet") {
                let first = try purchased(try await product("com.example.coins100").purchase())
                let second = try purchased(try await product("com.example.pro").purchase())
                await first.finish()
                await second.finish()
                return (first, second)
            }
            let heard1 = try await tap.next().payloadValue
            let heard2 = try await tap.next().payloadValue
            #expect(heard1.id == first.id)
            #expect(heard1.productID == "com.example.coins100")
            #expect(heard2.id == second.id)
            // Finished on the tablet, still to be finished here: this device's StoreKit 2 finishes its own copy.
            #expect(await collect(Transaction.unfinished).map(\.unsafePayloadValue.id) == [first.id, second.id])
            await heard1.finish()
            await heard2.finish()
            #expect(await collect(Transaction.unfinished).isEmpty)
            // Heard once: the next update is the one made now.
            let later = try await SKTestSession(store: store).buyProduct(identifier: "com.example.season")
            #expect(try await tap.next().unsafePayloadValue.id == later.id)
            tap.stop()
        }
        store.runUntilIdle()
        #expect(!counter.updatedProducts.contains("com.example.coins100"))
        #expect(!queue.transactions.contains { $0.payment.productIdentifier == "com.example.pro" })
    }

    @Test("An approved Ask to Buy request made on another device reaches updates here")
    func askToBuyApprovedElsewhere() async throws {
        let store = SimulatedStore(lane: .manual)
        let session = SKTestSession(store: store)
        try await StoreKitEnvironment.withStore(store) {
            let tap = UpdatesTap()
            try await StoreKitEnvironment.withStore(store, deviceID: "tablet") {
                let pending = try await product("com.example.pro").purchase(options: [
                    .simulatesAskToBuyInSandbox(true)
                ])
                guard case .pending = pending else {
                    Issue.record("expected .pending, got \(pending)")
                    return
                }
            }
            let request = try #require(session.allTransactions().first { $0.state == .deferred })
            try session.approveAskToBuyTransaction(identifier: request.identifier)
            store.runUntilIdle()
            let approved = try await tap.next().payloadValue
            #expect(approved.id == UInt64(request.identifier))
            #expect(approved.productID == "com.example.pro")
            tap.stop()
        }
    }

    @Test("A purchase on another device while the app is not running survives a restart and is heard once")
    func survivesRestart() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let path = folder.file("state.sqlite")
        var store = try SimulatedStore(statePath: path, lane: .manual)
        let phone = store
        // The phone's app ran once (the device is signed in), then stopped.
        try await StoreKitEnvironment.withStore(phone) { _ = try await product("com.example.pro") }
        let bought = try await StoreKitEnvironment.withStore(phone, deviceID: "tablet") {
            let transaction = try purchased(try await product("com.example.pro").purchase())
            await transaction.finish()
            return transaction
        }
        try store.close()
        store = try SimulatedStore(statePath: path, lane: .manual)
        let reopened = store
        try await StoreKitEnvironment.withStore(reopened) {
            let tap = UpdatesTap()
            let heard = try await tap.next().payloadValue
            #expect(heard.id == bought.id)
            await heard.finish()
            let later = try await SKTestSession(store: reopened).buyProduct(identifier: "com.example.coins100")
            #expect(try await tap.next().unsafePayloadValue.id == later.id)
            tap.stop()
        }
        try store.close()
        // Finished here before the restart: the next launch hears nothing of it.
        store = try SimulatedStore(statePath: path, lane: .manual)
        let again = store
        await StoreKitEnvironment.withStore(again) {
            #expect(
                await collect(Transaction.unfinished).map(\.unsafePayloadValue.productID) == ["com.example.coins100"])
        }
        try store.close()
    }

    @Test("A refunded consumable reaches updates as the same transaction with its revocation date")
    func refundedConsumable() async throws {
        let store = SimulatedStore(lane: .manual)
        let session = SKTestSession(store: store)
        try await StoreKitEnvironment.withStore(store) {
            let tap = UpdatesTap()
            let coins = try purchased(try await product("com.example.coins100").purchase())
            await coins.finish()
            try session.refundTransaction(identifier: Int(coins.id))
            store.runUntilIdle()
            let refunded = try await tap.next().payloadValue
            #expect(refunded.id == coins.id)
            #expect(refunded.productType == .consumable)
            #expect(refunded.revocationDate != nil)
            #expect(await collect(Transaction.all).map(\.unsafePayloadValue.id).contains(coins.id))
            tap.stop()
        }
    }
}
