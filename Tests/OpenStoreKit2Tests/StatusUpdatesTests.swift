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

    @Test("Status.all: every group's statuses first, then a group's statuses after each change, until cancelled")
    func allStatuses() async throws {
        let store = SimulatedStore(lane: .manual)
        let session = SKTestSession(store: store)
        try await StoreKitEnvironment.withStore(store) {
            let first = try purchased(try await product("com.example.premium.monthly").purchase())
            await first.finish()
            var all = Product.SubscriptionInfo.Status.all.makeAsyncIterator()
            let current = try #require(await all.next())
            #expect(current.groupID == "premium")
            #expect(current.statuses.map(\.state) == [.subscribed])
            #expect(current.statuses.first?.transaction.unsafePayloadValue.id == first.id)
            _ = try session.advance(by: 32 * 86_400)
            store.runUntilIdle()
            let renewed = try #require(await all.next())
            #expect(renewed.groupID == "premium")
            #expect(renewed.statuses.count == 1)
            #expect(renewed.statuses.first?.transaction.unsafePayloadValue.originalID == first.id)
            #expect(renewed.statuses.first?.transaction.unsafePayloadValue.id != first.id)
            try session.expireSubscription(productIdentifier: "com.example.premium.monthly")
            store.runUntilIdle()
            let expired = try #require(await all.next())
            #expect(expired.statuses.map(\.state) == [.expired])
        }
    }

    @Test("Status.all of an account that never subscribed starts with nothing and ends when its task is cancelled")
    func allStatusesOfANewAccount() async throws {
        let store = SimulatedStore(lane: .manual)
        let groups = await StoreKitEnvironment.withStore(store) {
            let stream = Product.SubscriptionInfo.Status.all
            let reader = Task {
                var groups: [String] = []
                for await element in stream { groups.append(element.groupID) }
                return groups
            }
            reader.cancel()
            return await reader.value
        }
        #expect(groups.isEmpty)
    }
}
