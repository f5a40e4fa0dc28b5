import Foundation
import OpenStoreKit2
import StoreModels
import StoreSimulator
import TestSupport
import Testing

@Suite("Product.SubscriptionInfo.status(transactionID:) finds the status of a transaction's subscription")
struct StatusByTransactionTests {
    @Test("Any transaction of the subscription gives its status; another account's, or a non-subscription's, gives nil")
    func statusByTransaction() async throws {
        let store = SimulatedStore(lane: .manual)
        let someoneElse = try store.buyProduct("com.example.premium.yearly", account: "someone-else")
        try await StoreKitEnvironment.withStore(store) {
            let pro = try purchased(try await product("com.example.pro").purchase())
            let first = try purchased(try await product("com.example.premium.monthly").purchase())
            try store.advance(by: 40 * 86_400)
            let latest = try #require(await Transaction.latest(for: "com.example.premium.monthly")?.unsafePayloadValue)
            #expect(latest.id != first.id, "the subscription renewed")
            for id in [first.id, latest.id] {
                let status = try #require(try await Product.SubscriptionInfo.status(transactionID: id))
                #expect(status.state == .subscribed)
                #expect(status.transaction.unsafePayloadValue.id == latest.id)
                #expect(status.transaction.unsafePayloadValue.originalID == first.id)
            }
            #expect(try await Product.SubscriptionInfo.status(transactionID: pro.id) == nil)
            #expect(try await Product.SubscriptionInfo.status(transactionID: someoneElse.id) == nil)
            #expect(try await Product.SubscriptionInfo.status(transactionID: 999_999) == nil)
            try store.expireSubscription(productID: "com.example.premium.monthly")
            #expect(try await Product.SubscriptionInfo.status(transactionID: first.id)?.state == .expired)
        }
    }
}
