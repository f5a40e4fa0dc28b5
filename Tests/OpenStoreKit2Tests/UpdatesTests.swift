import Foundation
import OpenStoreKit
import OpenStoreKit2
import OpenStoreKitTest
import StoreModels
import StoreSimulator
import TestSupport
import Testing

@Suite(
    "Transaction.updates: what happens outside a purchase call, once each, in the store's order",
    .timeLimit(.minutes(1)))
struct UpdatesTests {
    @Test("A purchase comes back through purchase(), not through updates; a purchase elsewhere comes through updates")
    func ownPurchaseIsNotAnUpdate() async throws {
        let store = SimulatedStore(lane: .manual)
        let session = SKTestSession(store: store)
        try await StoreKitEnvironment.withStore(store) {
            let tap = UpdatesTap()
            let transaction = try purchased(try await product("com.example.pro").purchase())
            #expect(transaction.productID == "com.example.pro")
            #expect(transaction.reason == .purchase)
            // Bought elsewhere after the purchase: if the purchase had also been an update, it would come first.
            let elsewhere = try await session.buyProduct(identifier: "com.example.coins100")
            let update = try await tap.next()
            #expect(update.unsafePayloadValue.id == elsewhere.id)
            #expect(update.unsafePayloadValue.productID == "com.example.coins100")
            tap.stop()
        }
    }

    @Test("An approved Ask to Buy request arrives through updates; a declined one sends nothing")
    func askToBuy() async throws {
        let store = SimulatedStore(lane: .manual)
        let session = SKTestSession(store: store)
        try await StoreKitEnvironment.withStore(store) {
            let tap = UpdatesTap()
            let pro = try await product("com.example.pro")
            let season = try await product("com.example.season")
            guard case .pending = try await season.purchase(options: [.simulatesAskToBuyInSandbox(true)]) else {
                Issue.record("expected .pending")
                return
            }
            guard case .pending = try await pro.purchase(options: [.simulatesAskToBuyInSandbox(true)]) else {
                Issue.record("expected .pending")
                return
            }
            let requests = session.allTransactions().filter { $0.state == .deferred }
            try #require(requests.count == 2)
            try session.declineAskToBuyTransaction(identifier: requests[0].identifier)
            try session.approveAskToBuyTransaction(identifier: requests[1].identifier)
            store.runUntilIdle()
            let approved = try await tap.next()
            #expect(approved.unsafePayloadValue.productID == "com.example.pro")
            #expect(approved.unsafePayloadValue.id == UInt64(requests[1].identifier))
            tap.stop()
        }
    }

    @Test("Renewals arrive through updates, each once, in order, with the original's identifier as originalID")
    func renewals() async throws {
        let store = SimulatedStore(lane: .manual)
        let session = SKTestSession(store: store)
        try await StoreKitEnvironment.withStore(store) {
            let tap = UpdatesTap()
            let first = try purchased(try await product("com.example.premium.monthly").purchase())
            await first.finish()
            _ = try session.advance(by: 65 * 86_400)
            store.runUntilIdle()
            let renewal1 = try await tap.next().payloadValue
            let renewal2 = try await tap.next().payloadValue
            #expect(renewal1.originalID == first.id)
            #expect(renewal2.originalID == first.id)
            #expect(renewal1.id != first.id)
            #expect(renewal1.id < renewal2.id)
            #expect(renewal1.reason == .renewal)
            #expect(renewal1.purchaseDate < renewal2.purchaseDate)
            // The next update is the one made now, not a repeat of a renewal.
            let elsewhere = try await session.buyProduct(identifier: "com.example.coins100")
            #expect(try await tap.next().unsafePayloadValue.id == elsewhere.id)
            tap.stop()
        }
    }

    @Test("A refund arrives as the same transaction again, with its revocation date, and leaves the entitlements")
    func refund() async throws {
        let store = SimulatedStore(lane: .manual)
        let session = SKTestSession(store: store)
        try await StoreKitEnvironment.withStore(store) {
            let tap = UpdatesTap()
            let pro = try purchased(try await product("com.example.pro").purchase())
            await pro.finish()
            #expect(await collect(Transaction.currentEntitlements).map(\.unsafePayloadValue.id) == [pro.id])
            try session.refundTransaction(identifier: Int(pro.id))
            store.runUntilIdle()
            let refunded = try await tap.next().payloadValue
            #expect(refunded.id == pro.id)
            #expect(refunded.revocationDate != nil)
            #expect(refunded.revocationReason == .other)
            #expect(await collect(Transaction.currentEntitlements).isEmpty)
            #expect(await Transaction.currentEntitlement(for: "com.example.pro") == nil)
            tap.stop()
        }
    }

    @Test("Updates heard before anyone listens wait for the first listener, which hears them once")
    func backlogGoesToTheFirstListener() async throws {
        let store = SimulatedStore(lane: .manual)
        let session = SKTestSession(store: store)
        try await StoreKitEnvironment.withStore(store) {
            _ = try await Product.products(for: ["com.example.pro"])  // the app runs, nobody listens yet
            let elsewhere = try await session.buyProduct(identifier: "com.example.pro")
            let first = UpdatesTap()
            #expect(try await first.next().unsafePayloadValue.id == elsewhere.id)
            let second = UpdatesTap()
            let later = try await session.buyProduct(identifier: "com.example.coins100")
            #expect(try await second.next().unsafePayloadValue.id == later.id)
            #expect(try await first.next().unsafePayloadValue.id == later.id)
            first.stop()
            second.stop()
        }
    }
}
