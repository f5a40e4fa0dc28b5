import OpenStoreKit2
import OpenStoreKitTest
import StoreSimulator
import TestSupport
import Testing

@Suite("Product.SubscriptionInfo.Status.updates", .timeLimit(.minutes(1)))
struct StatusUpdatesTests {
    @Test("A renewal and an expiry each come as a status of the subscription, in order")
    func renewalThenExpiry() async throws {
        let store = SimulatedStore(lane: .manual)
        let session = SKTestSession(store: store)
        try await StoreKitEnvironment.withStore(store) {
            let first = try purchased(try await product("com.example.premium.monthly").purchase())
            await first.finish()
            var statuses = Product.SubscriptionInfo.Status.updates.makeAsyncIterator()
            _ = try session.advance(by: 32 * 86_400)
            store.runUntilIdle()
            let renewed = try #require(await statuses.next())
            #expect(renewed.state == .subscribed)
            #expect(renewed.transaction.unsafePayloadValue.originalID == first.id)
            #expect(renewed.transaction.unsafePayloadValue.id != first.id)
            try session.expireSubscription(productIdentifier: "com.example.premium.monthly")
            store.runUntilIdle()
            let expired = try #require(await statuses.next())
            #expect(expired.state == .expired)
            #expect(try expired.renewalInfo.payloadValue.willAutoRenew == false)
        }
    }
}
