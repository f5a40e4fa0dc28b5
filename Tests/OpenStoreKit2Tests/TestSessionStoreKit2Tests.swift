import Foundation
import OpenStoreKit
import OpenStoreKit2
import OpenStoreKitTest
import StoreSimulator
import TestSupport
import Testing

@Suite("SKTestSession's StoreKit 2 controls and per-product queries", .timeLimit(.minutes(1)))
struct TestSessionStoreKit2Tests {
    @Test("buyProduct(identifier:options:) buys outside the app with the quantity and app account token given")
    func buyProductWithOptions() async throws {
        let store = SimulatedStore(lane: .manual)
        let session = SKTestSession(store: store)
        let token = UUID()
        let transaction = try await session.buyProduct(
            identifier: "com.example.coins100", options: [.quantity(2), .appAccountToken(token)])
        #expect(transaction.productID == "com.example.coins100")
        #expect(transaction.purchasedQuantity == 2)
        #expect(transaction.appAccountToken == token)
        await #expect(throws: SKTestError.self) { _ = try await session.buyProduct(identifier: "com.example.nope") }
    }

    @Test("A StoreKit 1 payment on the same device reaches Transaction.updates once it is purchased")
    func storeKit1PurchaseIsAnUpdate() async throws {
        let store = SimulatedStore(lane: .manual)
        let queue = SKPaymentQueue(store: store)
        try await StoreKitEnvironment.withStore(store) {
            let tap = UpdatesTap()
            let payment = SKMutablePayment()
            payment.productIdentifier = "com.example.pro"
            queue.add(payment)
            store.runUntilIdle()
            let update = try await tap.next().payloadValue
            #expect(update.productID == "com.example.pro")
            #expect(queue.transactions.first?.transactionIdentifier == String(update.id))
            tap.stop()
        }
    }

    @Test("Per-product queries: all(for:), currentEntitlements(for:), and a product's latest and current transactions")
    func perProduct() async throws {
        let store = SimulatedStore(lane: .manual)
        try await StoreKitEnvironment.withStore(store) {
            let pro = try await product("com.example.pro")
            #expect(await pro.latestTransaction == nil)
            let bought = try purchased(try await pro.purchase())
            _ = try purchased(try await product("com.example.premium.monthly").purchase())
            #expect(await collect(Transaction.all(for: "com.example.pro")).map(\.unsafePayloadValue.id) == [bought.id])
            #expect(
                await collect(Transaction.currentEntitlements(for: "com.example.pro")).map(\.unsafePayloadValue.id)
                    == [bought.id])
            #expect(await pro.latestTransaction?.unsafePayloadValue.id == bought.id)
            #expect(await pro.currentEntitlement?.unsafePayloadValue.id == bought.id)
            #expect(await collect(pro.currentEntitlements).map(\.unsafePayloadValue.id) == [bought.id])
            let monthly = try await product("com.example.premium.monthly")
            try store.refund(bought.id)
            #expect(await collect(pro.currentEntitlements).isEmpty)
            #expect(await collect(monthly.currentEntitlements).count == 1)
            #expect(AppStore.canMakePayments)
            #expect(AppStore.deviceVerificationID == UUID(uuidString: SKPaymentQueue.defaultDeviceID))
            try await AppStore.sync()
        }
    }
}
