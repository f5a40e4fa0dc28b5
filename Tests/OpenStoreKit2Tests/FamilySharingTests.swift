import Foundation
import OpenStoreKit2
import StoreModels
import StoreSimulator
import TestSupport
import Testing

/// The demo catalog with its monthly subscription marked `familyShareable` (the demo's non-consumable already is).
private let familyCatalog = StoreConfiguration(
    catalog: StoreCatalog(
        products: StoreConfiguration.demo.catalog.products.map { product in
            guard product.id == "com.example.premium.monthly" else { return product }
            return ProductDefinition(
                id: product.id, referenceName: product.referenceName, type: product.type, price: product.price,
                isFamilyShareable: true, localizations: product.localizations, subscription: product.subscription)
        }))

@Suite("Family Sharing in StoreKit 2", .timeLimit(.minutes(1)))
struct FamilySharingTests {
    @Test("A member hears the family's purchases through updates, owns them as familyShared, and hears them revoked")
    func memberSeesSharedTransactions() async throws {
        let store = SimulatedStore(configuration: familyCatalog, lane: .manual)
        try store.joinFamily("smiths", account: "alice")
        try store.joinFamily("smiths", account: "bob")
        try await StoreKitEnvironment.withStore(store, deviceID: "bobs-phone", account: "bob") {
            let tap = UpdatesTap()
            let pro = try store.buyProduct("com.example.pro", account: "alice")
            let monthly = try store.buyProduct("com.example.premium.monthly", account: "alice")
            store.runUntilIdle()
            let heardPro = try await tap.next().payloadValue
            let heardMonthly = try await tap.next().payloadValue
            #expect(heardPro.productID == "com.example.pro")
            #expect(heardPro.ownershipType == .familyShared)
            #expect(heardPro.id != pro.id)
            #expect(heardPro.purchaseDate == pro.purchaseDate)
            #expect(heardMonthly.productID == "com.example.premium.monthly")
            #expect(heardMonthly.ownershipType == .familyShared)
            #expect(heardMonthly.id != monthly.id)

            let entitlements = await collect(Transaction.currentEntitlements).map(\.unsafePayloadValue)
            #expect(entitlements.map(\.id) == [heardPro.id, heardMonthly.id])
            #expect(entitlements.allSatisfy { $0.ownershipType == .familyShared })
            #expect(await collect(Transaction.all).map(\.unsafePayloadValue.id) == [heardPro.id, heardMonthly.id])

            try store.leaveFamily(account: "alice")
            store.runUntilIdle()
            let revoked = [try await tap.next().payloadValue, try await tap.next().payloadValue]
            #expect(Set(revoked.map(\.id)) == [heardPro.id, heardMonthly.id])
            #expect(revoked.allSatisfy { $0.revocationDate == store.now })
            #expect(await collect(Transaction.currentEntitlements).isEmpty)
            tap.stop()
        }
        // The purchaser's own transactions are PURCHASED.
        await StoreKitEnvironment.withStore(store, deviceID: "alices-phone", account: "alice") {
            let own = await collect(Transaction.currentEntitlements).map(\.unsafePayloadValue)
            #expect(own.count == 2)
            #expect(own.allSatisfy { $0.ownershipType == .purchased })
        }
    }

    @Test(
        "A member's status(for:) lists the shared subscription with the purchaser's state, then revoked once taken back"
    )
    func memberStatusFollowsThePurchaser() async throws {
        let store = SimulatedStore(configuration: familyCatalog, lane: .manual)
        try store.joinFamily("smiths", account: "alice")
        try store.joinFamily("smiths", account: "bob")
        _ = try store.buyProduct("com.example.premium.monthly", account: "alice")
        store.runUntilIdle()
        try await StoreKitEnvironment.withStore(store, deviceID: "bobs-phone", account: "bob") {
            let statuses = try await Product.SubscriptionInfo.status(for: "premium")
            #expect(statuses.map(\.state) == [.subscribed])
            #expect(statuses.first?.transaction.unsafePayloadValue.ownershipType == .familyShared)
            try store.leaveFamily(account: "bob")
            store.runUntilIdle()
            #expect(try await Product.SubscriptionInfo.status(for: "premium").map(\.state) == [.revoked])
        }
    }
}
